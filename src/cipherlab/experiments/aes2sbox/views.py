"""How the AES-2SBox chapter shows its tables: every view goes through :func:`cipherlab.analysis.display.show_table`.

The chapter's tables are written whole to ``data/tables/``; these functions
only choose what a reader sees first (a short view that fits the page) and fold
the full table below it (:mod:`cipherlab.analysis.table_layout`).  No number
is computed here.
"""
from __future__ import annotations

import html
from typing import Iterable

import pandas as pd

from cipherlab.analysis.display import Table, show_table
from cipherlab.analysis.table_layout import fitted_table, folded_groups, narrow_table

from cipherlab.experiments.aes2sbox.common import OPERATIONS, PAPERS, TABLES
from cipherlab.experiments.aes2sbox.measure import styles_compared
from cipherlab.experiments.aes2sbox.tables import welch_side_by_side


def sbox_grid_table(grid: pd.DataFrame, caption: str) -> Table:
    """A 16x16 S-box grid of :func:`.sboxes.sbox_grid` (row = high hex digit, columns = low digit)."""
    return show_table(grid.reset_index(), max_columns=len(grid.columns) + 1, caption=caption)


def sbox_differences_table(diffs: pd.DataFrame) -> Table:
    """Cells of ours that differ from print: where, both values, whether documented; the cause folded."""
    if diffs.empty:
        return show_table(pd.DataFrame({"result": ["no cell differs from print"]}))
    return fitted_table(diffs, short=["paper", "table", "row", "column", "published", "ours", "documented"],
                        keys=["paper", "table", "row", "column"], summary="Every column, with the cause")


def misprints_table(misprints: pd.DataFrame) -> Table:
    return narrow_table(misprints, caption="Documented misprints (data/paper/<paper>_misprints.csv)")


def speed_view(speed: pd.DataFrame) -> Table:
    """Table 5 beside ours: short view (published | ours with interval | A/A band | medians), full table folded."""
    def rng(lo, hi):
        return "—" if pd.isna(lo) or pd.isna(hi) else f"[{lo:.1f}, {hi:.1f}]"

    view = speed.copy()
    view["published %"] = view["published_pct"]
    view["ours %"] = view["ours_pct"]
    view["ours interval"] = [rng(lo, hi) for lo, hi in zip(view["low_pct"], view["high_pct"])]
    view["A/A band"] = [rng(lo, hi) for lo, hi in zip(view["aa_low_pct"], view["aa_high_pct"])]
    view["AES / AES-2SBox ms"] = ["—" if pd.isna(a) else f"{a:.3g} / {b:.3g}"
                                 for a, b in zip(view["aes_ms"], view["aes_2sbox_ms"])]
    short = ["paper", "operation", "style", "published %", "ours %", "ours interval", "A/A band",
             "AES / AES-2SBox ms"]
    view = view[short[:3] + short[3:] + [c for c in speed.columns if c not in short]]
    return Table(str(fitted_table(view[short], short=short, keys=short[:3], formats={"ours %": "{:.1f}"}))
                 + folded_groups(speed, keys=["paper", "operation", "style"],
                                 summary="The full table, with the papers' mean speedup, Welch and Mann-Whitney p "
                                         "and the status"))


def welch_tables(raw: pd.DataFrame, deciding: str = "reference", alpha: float = 0.05,
                 papers: Iterable[str] = PAPERS) -> Table:
    """Tables 3-4 in the papers' layout, published beside ours: the deciding style shown, the other styles folded."""
    parts = []
    for paper in papers:
        for operation in OPERATIONS:
            styles = styles_compared(raw, paper, operation)
            if not styles:
                continue
            first = deciding if deciding in styles else styles[0]
            for impl in [first] + [s for s in styles if s != first]:
                side = welch_side_by_side(raw, paper, operation, impl, alpha=alpha)
                side = side.mask(side.eq("")).rename_axis("statistic").reset_index()
                caption = f"Paper {paper}, {TABLES[paper][operation]} ({operation}), ours in the {impl} style"
                t = show_table(side, caption=caption, digits=6)
                parts.append(str(t) if impl == first else
                             f"<details><summary>{html.escape(caption)}</summary>{t}</details>")
    return Table("".join(parts))


def audit_view(audit: pd.DataFrame) -> Table:
    """The recomputed statistics: per paper and table how many printed numbers we reproduce; every row folded."""
    excel = audit[~audit["method"].str.contains("unrounded|ttest_ind_from_stats", regex=True)]
    rows = []
    for (paper, table), g in excel.groupby(["paper", "table"], sort=True):
        bad = g[~g["consistent"]]
        rows.append({"paper": paper, "table": table, "printed numbers checked": len(g),
                     "reproduced": int(g["consistent"].sum()),
                     "not reproduced": ", ".join(dict.fromkeys(bad["quantity"])) or "—"})
    overview = show_table(pd.DataFrame(rows), caption="Printed numbers reproduced by the papers' own method "
                                                      "(Excel's rounded df; the rows with unrounded df are folded)")
    return Table(str(overview) + folded_groups(audit, keys=["paper", "table", "quantity"],
                                               formats={"recomputed": lambda v: f"{v:.10g}"},
                                               summary="Every recomputed number, both df conventions"))


def avalanche_pairs_view(pairs: pd.DataFrame) -> Table:
    """The published plaintext pairs: changed bits and bytes, ours beside published; the ciphertexts folded."""
    view = pairs.mask(pairs.eq(""))
    return fitted_table(view, short=["paper", "pair", "cipher", "input_bits", "changed_bits", "published_bits",
                                     "changed_bytes", "published_changed_bytes"], keys=["paper", "pair", "cipher"],
                        summary="With the plaintexts and both ciphertexts, ours and printed")


def avalanche_summary_view(summary: pd.DataFrame) -> Table:
    return fitted_table(summary, short=["cipher", "flips", "mean_bits", "mean_percent", "min_bits", "max_bits",
                                        "max_changed_bytes", "ideal_mean_bits"], keys=["cipher"])


def construction_finding_text(match: pd.DataFrame) -> str:
    """Which reading of the construction the printed tables follow, written from :func:`.sboxes.construction_match_table`."""
    t1 = match[match["table"] == "Table 1"]
    per = t1.groupby("construction")[["matching", "cells"]].min()
    best = per["matching"].idxmax()
    parts = [f"`{c}` in {int(r.matching)} of {int(r.cells)}" for c, r in per.iterrows()]
    text = "The printed Table 1 (both papers) agrees with the reading " + " and ".join(parts) + " cells. "
    if best == "xor-index":
        text += ("The printed tables are therefore `affine(x XOR 7F)`: the Rijndael S-box does not enter them, and "
                 "the second S-box is an *affine* map of its input.")
    else:
        text += f"The printed tables follow the `{best}` reading."
    return text
