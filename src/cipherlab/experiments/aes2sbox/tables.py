"""The AES-2SBox chapter's speed tables: Tables 3-4 in the papers' layout (shown, never deciding) and Table 5
beside the declared statistic with its interval and the A/A band."""
from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd
from scipy import stats as _st

from cipherlab.analysis import paper as _paper
from cipherlab.analysis import stats as _stats
from cipherlab._checks import check_choice
from cipherlab.experiments.aes2sbox.common import (CIPHERS, OPERATION_ROW, OPERATIONS, PAPER_LABELS, PAPERS,
                                                   SIGNIFICANCE_CLAIM, SPEEDUP_CLAIM, TABLES, check_paper)
from cipherlab.experiments.aes2sbox.evidence import speed_evidence_rows
from cipherlab.experiments.aes2sbox.measure import styles_compared, times_ms


def welch_side_by_side(raw: pd.DataFrame, paper: str, operation: str, impl: str,
                       alpha: float = 0.05) -> pd.DataFrame:
    """Table 3 (encrypt) or 4 (decrypt) in the papers' Excel layout: published beside ours.

    Ours is :func:`cipherlab.analysis.stats.welch_table` of the per-call times in ms of one
    style.  Shown because it is the papers' own statistic; it decides nothing.  ``paper`` and ``operation``
    are checked here, for a direct caller: the chapter's callers pass only what :func:`styles_compared` finds.
    """
    check_paper(paper)
    check_choice("operation", operation, OPERATIONS)
    old = times_ms(raw, paper, "aes", impl, operation)
    new = times_ms(raw, paper, "aes-2sbox", impl, operation)
    if old.size < 2 or new.size < 2:
        raise ValueError(f"raw holds fewer than 2 trials for protocol {paper}, impl {impl!r}, {operation}")
    labels = (PAPER_LABELS["aes"], PAPER_LABELS["aes-2sbox"])
    ours = _stats.welch_table(old, new, labels=labels, alpha=alpha)
    pub = _paper.published(paper, TABLES[paper][operation]).set_index(["row", "column"])
    out = pd.DataFrame(index=ours.index)
    for lab in labels:
        out[f"published {lab}"] = [pub["value"].get((r, lab), "") for r in ours.index]
    for lab in labels:
        out[f"ours {lab}"] = ours[lab]
    return out


def welch_long(raw: pd.DataFrame, papers: Iterable[str] = PAPERS, alpha: float = 0.05) -> pd.DataFrame:
    """Tables 3 and 4 for every protocol and compared style, long format."""
    rows = []
    for paper in papers:
        for operation in OPERATIONS:
            for impl in styles_compared(raw, paper, operation):
                side = welch_side_by_side(raw, paper, operation, impl, alpha=alpha)
                for stat in side.index:
                    for cipher in CIPHERS:
                        lab = PAPER_LABELS[cipher]
                        ours = side.loc[stat, f"ours {lab}"]
                        if pd.isna(ours) and side.loc[stat, f"published {lab}"] == "":
                            continue
                        rows.append({"paper": paper, "table": TABLES[paper][operation], "operation": operation,
                                     "impl": impl, "statistic": stat, "cipher": lab,
                                     "published": side.loc[stat, f"published {lab}"], "ours": ours})
    return pd.DataFrame(rows, columns=["paper", "table", "operation", "impl", "statistic", "cipher",
                                       "published", "ours"])


def _published_speedup(paper: str, operation: str) -> str:
    pub = _paper.published(paper, TABLES[paper]["speedup"]).set_index(["row", "column"])
    return str(pub.loc[(OPERATION_ROW[operation], TABLES[paper]["speedup_column"]), "value"])


def speed_table(raw: pd.DataFrame, skipped: "pd.DataFrame | None" = None, *, profile: str,
                papers: Iterable[str] = PAPERS, seed: int = 0, alpha: float = 0.05) -> pd.DataFrame:
    """Table 5 beside ours, one row per paper x operation x style, with the A/A band beside each comparison.

    Columns: ``paper, operation, style, size, trials, published_pct, ours_pct,
    low_pct, high_pct, aa_low_pct, aa_high_pct`` (the declared statistic and
    interval, from :func:`speed_evidence_rows`), ``process_p`` (the significance row's p, a test over
    processes, the independent unit), the
    papers' mean-based speedup and Welch p (``mean_speedup_pct``,
    ``welch_p``: shown, not deciding), ``aes_ms`` and ``aes_2sbox_ms``
    (medians per call) and ``status``: ``timed`` or why a pair was not timed.
    """
    evs = {(e.claim_id, e.style): e for e in speed_evidence_rows(raw, profile=profile, papers=papers, seed=seed)}
    rows = []
    for paper in papers:
        for operation in OPERATIONS:
            base = {"paper": paper, "operation": operation, "published_pct": _published_speedup(paper, operation)}
            for impl in styles_compared(raw, paper, operation):
                e = evs[(SPEEDUP_CLAIM.format(paper=paper, op=operation[:3]), impl)]
                old = times_ms(raw, paper, "aes", impl, operation)
                new = times_ms(raw, paper, "aes-2sbox", impl, operation)
                rows.append({**base, "style": impl, "size": e.size, "trials": e.n, "ours_pct": e.estimate,
                             "low_pct": e.low, "high_pct": e.high, "aa_low_pct": e.control_low,
                             "aa_high_pct": e.control_high,
                             "process_p": evs[(SIGNIFICANCE_CLAIM.format(
                                 paper=paper, table=TABLES[paper][operation].replace("Table ", "t"),
                                 op=operation[:3]), impl)].p_value,
                             "mean_speedup_pct": float(_stats.speedup(old.mean(), new.mean())),
                             "welch_p": float(_st.ttest_ind(old, new, equal_var=False).pvalue),
                             "aes_ms": float(np.median(old)), "aes_2sbox_ms": float(np.median(new)),
                             "status": "timed"})
            if skipped is not None and len(skipped):
                sk = skipped[skipped["protocol"].astype(str).str.zfill(3) == paper]
                for r in sk.itertuples():
                    rows.append({**base, "style": r.impl, "status": f"{r.cipher} not timed in this style: {r.reason}"})
    return pd.DataFrame(rows, columns=["paper", "operation", "style", "size", "trials", "published_pct", "ours_pct",
                                       "low_pct", "high_pct", "aa_low_pct", "aa_high_pct", "process_p",
                                       "mean_speedup_pct", "welch_p", "aes_ms", "aes_2sbox_ms", "status"])
