"""Paper 003's section of the findings page: the rankings' verdicts and the bit-flipping experiment.

Sentence templates over this run's tables (``CHAPTER.findings_tables``: the verdicts and
``aead_bitflip_acceptance``); every number comes from them, and every sentence about a claim is
its verdict row's reason, the same the referee's report gives.
The page adds the verdict counts and the links (:mod:`cipherlab.report.findings`).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from cipherlab.present.display import format_number
from cipherlab.analysis.verdicts import FINDING, STATUSES, VERDICTS
from cipherlab.experiments._sentences import verdict_lines

#: Every verdict word, in the order the page counts them.
_ALL_VERDICTS = tuple(dict.fromkeys((*VERDICTS, *STATUSES)))


def _num(x, digits: int = 3) -> str:
    """A number as the page prints it (significant digits, the book's one number format)."""
    return format_number(float(x), digits) if pd.notna(x) else "—"


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: What the page says where the bit-flip table is not in this run.
NOT_BUILT = "*(The aead chapter was not built in this run.)*"


def ranking_sentence(verdicts: pd.DataFrame, paper: str = "003") -> str:
    """Verdicts of the paper's ordering claims (mode and cipher rankings), with those that did not hold as
    printed, each in the one sentence its verdict row gives (the same rows as the referee's report)."""
    rows = verdicts[(verdicts["paper"].astype(str) == paper) & (verdicts["kind"] == "ordering")
                    & (verdicts["verdict"] != FINDING)]
    if rows.empty:
        return f"No ranking claim of paper {paper} was decided in this run."
    counts = rows["verdict"].value_counts()
    parts = [f"{int(counts[v])} {v}" for v in _ALL_VERDICTS if counts.get(v, 0)]
    text = (f"**Rankings.** Of the paper's {_plural(len(rows), 'claim')} ranking the modes (GCM, CCM, EAX) and "
            f"the ciphers (AES, Blowfish, CAST) by time, throughput and tag-rejection time, {_join(parts)}.")
    failed = rows[rows["verdict"].isin(["contradicted", "not reproduced"])]
    if len(failed):
        text += " Not as printed:\n\n" + verdict_lines(verdicts, list(failed["claim_id"]))
    return text


def concern_sentence(verdicts: pd.DataFrame, paper: str = "003") -> str:
    """The paper's overclaims and its disagreements with itself, each in its verdict row's sentence."""
    rows = verdicts[(verdicts["paper"].astype(str) == paper) & (verdicts["verdict"] != FINDING)]
    rows = rows[rows["concern"].isin(["overclaim", "defect"])
                & rows["verdict"].isin(["contradicted", "not reproduced", "not testable"])]
    if rows.empty:
        return ""
    return "**Claims beyond the evidence, and the paper against itself.**\n\n" + verdict_lines(
        verdicts, list(rows["claim_id"]))


def bitflip_sentence(bitflip: "pd.DataFrame | None") -> str:
    """The bit-flipping experiment the paper leaves to future work: AEAD rejects, bare modes accept."""
    if bitflip is None:
        return NOT_BUILT
    fam = bitflip["family"].astype(str)
    aead, bare = bitflip[fam == "aead"], bitflip[fam != "aead"]
    if aead.empty or bare.empty:
        raise ValueError("findings: aead_bitflip_acceptance needs 'aead' rows and unauthenticated rows; "
                         f"families: {sorted(fam.unique())}")
    a_acc, a_n = int(aead["accepted"].sum()), int(aead["flips"].sum())
    modes = _join(sorted(aead["mode"].astype(str).str.upper().unique()))
    where = _join(sorted(aead["location"].astype(str).unique()))
    text = (f"**Bit flipping** (the paper's future work): {modes} accepted {_num(a_acc)} of {_num(a_n)} "
            f"single-bit flips of {where}.")
    per_mode = []
    for mode, g in bare.groupby("mode", sort=True):
        share = 100.0 * g["accepted"].sum() / g["flips"].sum()
        per_mode.append(f"{str(mode).upper()} {_num(share)} %")
    text += (f" Without authentication the flips pass: accepted {_join(per_mode)} of them, "
             "so an attacker changes the plaintext unseen.")
    return text


def paragraphs(tables: Mapping[str, pd.DataFrame], paper: str = "003") -> list[str]:
    """The section's paragraphs for ``paper`` (the chapter's one paper): the rankings' verdicts, then bit flipping."""
    out = [ranking_sentence(tables["verdicts"], paper), concern_sentence(tables["verdicts"], paper),
           bitflip_sentence(tables.get("aead_bitflip_acceptance"))]
    return [p for p in out if p]
