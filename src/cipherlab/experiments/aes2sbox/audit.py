"""The papers' own statistics (Tables 3-5, the avalanche bit counts), recomputed from their printed numbers."""
from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from typing import Iterable

import pandas as pd
from scipy import stats as _st

from cipherlab.analysis import paper as _paper
from cipherlab.analysis import stats as _stats
from cipherlab.experiments.aes2sbox.avalanche import changed_bits, published_avalanche_pairs
from cipherlab.experiments.aes2sbox.common import BLOCK_BITS, OPERATION_ROW, OPERATIONS, PAPER_LABELS, PAPERS, TABLES, check_paper


def _published_welch(paper: str, operation: str) -> pd.DataFrame:
    df = _paper.published(paper, TABLES[paper][operation])
    return df.set_index(["row", "column"])


def _last_digit_unit(printed: str) -> float:
    d = Decimal(printed.strip().replace("%", ""))
    return float(Decimal(1).scaleb(d.as_tuple().exponent))


def agrees_as_printed(printed: str, value: float, ulps: float = 1.0) -> bool:
    """Whether ``value`` equals the printed number to within ``ulps`` units of its last printed digit.

    One unit (not half) tolerates Excel's habit of cutting numbers to a fixed
    width as well as rounding them.
    """
    try:
        target = float(Decimal(printed.strip().replace("%", "")))
        unit = _last_digit_unit(printed)
    except (InvalidOperation, ValueError):
        return False
    return abs(value - target) <= ulps * unit * (1 + 1e-9)


def audit_published_stats(papers: Iterable[str] = PAPERS, alpha: float = 0.05) -> pd.DataFrame:
    """Recompute each paper's t, df, p and speedups from its own published numbers.

    From Tables 3-4's means, variances and counts: Welch's ``t``, the
    Welch-Satterthwaite ``df``, and the p-values and critical values both as
    Excel's ToolPak computes them (``df`` rounded to an integer) and with the
    unrounded ``df`` (:func:`scipy.stats.ttest_ind_from_stats`). From the
    means: the Table 5 speedups. From the avalanche tables: the percentage
    implied by the printed bit count and the bits by which the printed
    ciphertexts actually differ.

    Returns
    -------
    DataFrame
        ``paper, table, quantity, published, recomputed, method, consistent``
        (``consistent``: equal at the printed precision, see :func:`agrees_as_printed`).
    """
    rows = []

    def add(paper, table, quantity, printed, value, method, consistent=None):
        rows.append({"paper": paper, "table": table, "quantity": quantity, "published": printed,
                     "recomputed": float(value), "method": method,
                     "consistent": bool(agrees_as_printed(printed, value) if consistent is None else consistent)})

    e, s = PAPER_LABELS["aes"], PAPER_LABELS["aes-2sbox"]
    for paper in papers:
        check_paper(paper)
        for operation in OPERATIONS:
            tname = TABLES[paper][operation]
            pub = _published_welch(paper, operation)
            m1, m2 = (float(pub.loc[("Mean", c), "number"]) for c in (e, s))
            v1, v2 = (float(pub.loc[("Variance", c), "number"]) for c in (e, s))
            n1, n2 = (int(pub.loc[("Observations", c), "number"]) for c in (e, s))
            welch = _stats.welch_from_stats(m1, v1, n1, m2, v2, n2, alpha=alpha)
            df_w = welch["df"]
            df_x = float(round(df_w))
            t = welch["t Stat"]
            get = lambda row: pub.loc[(row, e), "value"]  # noqa: E731
            add(paper, tname, "df", get("df"), df_x, "Welch-Satterthwaite, rounded to an integer (Excel)")
            add(paper, tname, "df", get("df"), df_w, "Welch-Satterthwaite, unrounded (scipy)")
            add(paper, tname, "t Stat", get("t Stat"), t, "(mean1 - mean2) / sqrt(var1/n1 + var2/n2)")
            for label, dfv, how in ((f"df = {df_x:.0f} (Excel)", df_x, "excel"), ("unrounded df (scipy)", df_w, "scipy")):
                p_one = float(_st.t.sf(abs(t), dfv))
                add(paper, tname, "P(T<=t) one-tail", get("P(T<=t) one-tail"), p_one, f"scipy.stats.t.sf, {label}")
                add(paper, tname, "P(T<=t) two-tail", get("P(T<=t) two-tail"), 2 * p_one, f"2 x one-tail, {label}")
                add(paper, tname, "t Critical one-tail", get("t Critical one-tail"), float(_st.t.ppf(1 - alpha, dfv)),
                    f"scipy.stats.t.ppf(1 - alpha), {label}")
                add(paper, tname, "t Critical two-tail", get("t Critical two-tail"),
                    float(_st.t.ppf(1 - alpha / 2, dfv)), f"scipy.stats.t.ppf(1 - alpha/2), {label}")
            p_scipy = float(_st.ttest_ind_from_stats(m1, math.sqrt(v1), n1, m2, math.sqrt(v2), n2,
                                                     equal_var=False).pvalue)
            add(paper, tname, "P(T<=t) two-tail", get("P(T<=t) two-tail"), p_scipy,
                "scipy.stats.ttest_ind_from_stats(equal_var=False)")
        sp = _paper.published(paper, TABLES[paper]["speedup"]).set_index(["row", "column"])
        col = TABLES[paper]["speedup_column"]
        for operation in OPERATIONS:
            prow = OPERATION_ROW[operation]
            old = float(next(sp.loc[(r, c), "number"] for (r, c) in sp.index if r == prow and "T_old" in c))
            new = float(next(sp.loc[(r, c), "number"] for (r, c) in sp.index if r == prow and "T_new" in c))
            add(paper, TABLES[paper]["speedup"], f"{prow} speedup (%)", sp.loc[(prow, col), "value"],
                float(_stats.speedup(old, new)), "(T_old / T_new - 1) x 100 from the printed means")
        for pair in published_avalanche_pairs(paper).itertuples():
            add(paper, TABLES[paper]["avalanche"], f"pair {pair.pair} avalanche (%)", pair.published_percent,
                100.0 * int(pair.published_bits) / BLOCK_BITS, "printed changed bits / 128 x 100")
            bits = changed_bits(bytes.fromhex(pair.ciphertext_a), bytes.fromhex(pair.ciphertext_b))
            add(paper, TABLES[paper]["avalanche"], f"pair {pair.pair} changed bits", pair.published_bits,
                float(bits), "Hamming distance of the two printed ciphertexts",
                consistent=int(bits) == int(pair.published_bits))
    return pd.DataFrame(rows)
