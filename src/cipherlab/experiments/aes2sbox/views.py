"""How the AES-2SBox chapter shows its tables: every view goes through :func:`cipherlab.present.display.show_table`.

The chapter's tables are written whole to ``data/tables/``; these functions
only choose what a reader sees first (a short view that fits the page) and fold
the full table below it (:mod:`cipherlab.present.table_layout`).  No number
is computed here.

The page views at the end (one per section of the two notebooks, in page
order) take the run and what :func:`.driver.measure` or :func:`.driver.build`
returned, and know the output names: the notebooks type none.
"""
from __future__ import annotations

import html
import warnings
from typing import Any, Iterable, Mapping

import pandas as pd
from IPython.display import HTML, Markdown, display

from cipherlab.analysis.verdicts import load_claims, load_rules
from cipherlab.present.display import Table, show_table
from cipherlab.analysis.stats import timing_summary
from cipherlab.present.table_layout import fitted_table, folded_groups, narrow_table
from cipherlab.present.verdict_table import chapter_verdicts_html
from cipherlab.ciphers.modes import InsecureCipherWarning
from cipherlab.pipeline.inputs import read_input

from cipherlab.experiments.aes2sbox import driver
from cipherlab.experiments.aes2sbox.chapter import CHAPTER
from cipherlab.experiments.aes2sbox.common import OPERATIONS, PAPERS, SPEED_SECTION, TABLES, insecure_warning_text
from cipherlab.experiments.aes2sbox.evidence import documented_misprints
from cipherlab.experiments.aes2sbox.sboxes import printed_comparison_grids
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
                                 summary="The full table, with the papers' mean speedup, Welch p, the process-level "
                                         "p and the status"))


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


# --------------------------------------------------------------------------- the pages, section by section


def _show_figure(run, name: str) -> None:
    from cipherlab.experiments import outputs
    outputs.show_figure(run, name)


def insecure_warning() -> None:
    """The ``InsecureCipherWarning`` of AES-2SBox, shown once; then silenced for the rest of the notebook."""
    display(Markdown(insecure_warning_text()))
    warnings.simplefilter("ignore", InsecureCipherWarning)


def files_timed(run) -> None:
    """The file each protocol times, its size and trials (the measuring page)."""
    p = run.params
    display(Markdown("Files timed: " + "; ".join(
        f"paper {name}: `{spec['file']}`, {len(read_input(run.profile.input_file(spec['file'])))} bytes, "
        f"{spec['trials']} trials" for name, spec in p.protocols.items())
        + f", each spread over {p.processes} fresh processes."))


def not_timed(run) -> None:
    """The (cipher, style) pairs the library could not build, and why, as the provenance record says
    (the measuring page)."""
    skipped = driver.skipped_pairs(driver.speed_meta(run))
    display(show_table(skipped, caption="Pairs not timed, and why") if len(skipped)
            else Markdown("Every (cipher, style) pair was timed."))


def trial_times(run, measured: Mapping[str, pd.DataFrame]) -> None:
    """Per-call times in ms summarised per case, and the empty-call overhead (the measuring page)."""
    raw, meta = measured[driver.SPEED], driver.speed_meta(run)
    keys = ["protocol", "operation", "impl", "cipher", "instance"]
    summary = timing_summary(raw.assign(ms=raw["seconds"] * 1e3), keys, value="ms")
    display(Markdown(f"Empty-call overhead: {meta['empty_call_seconds'] * 1e6:.3f} µs per call."))
    display(fitted_table(summary, short=keys + ["n", "median", "mean"], keys=keys, digits=3,
                         caption="Per-call times in ms", summary="With quartiles, standard deviation, minimum and maximum"))


def construction(built: Mapping[str, Any]) -> None:
    """How many printed cells each reading of the construction reproduces."""
    display(show_table(built["aes2sbox_construction"]))


def differing_cells(built: Mapping[str, Any]) -> None:
    """The cells of ours that differ from print, then the misprints the data documents."""
    display(sbox_differences_table(built["aes2sbox_sbox_diff"]))
    display(misprints_table(pd.concat([documented_misprints(p).assign(paper=p) for p in PAPERS], ignore_index=True)))


def sbox_grids(run, built: Mapping[str, Any]) -> None:
    """Tables 1-2 of this run's key byte (when it is not the papers'), then the papers' key byte against print."""
    p = run.params
    key_byte, grids = printed_comparison_grids(p.construction)
    if p.xor_byte != key_byte:   # our key byte differs from the papers': show ours, then the papers' key byte
        for name, caption in (("aes2sbox_table1", f"Table 1 (ours): AES-2SBOX, key byte {p.xor_byte:02X}, "
                                                  f"construction {p.construction}"),
                              ("aes2sbox_table2", f"Table 2 (ours): inverse AES-2SBOX, key byte {p.xor_byte:02X}")):
            display(sbox_grid_table(built[name].set_index("row"), caption))
    for which, grid in grids.items():
        display(sbox_grid_table(grid, f"{TABLES['001'][which]} of papers 000/001 (key byte {key_byte:02X}, "
                                      f"construction {p.construction}): ours, against print"))


def construction_finding(built: Mapping[str, Any]) -> None:
    display(Markdown(construction_finding_text(built["aes2sbox_construction"])))


def speed_run(run, raw: Mapping[str, pd.DataFrame]) -> None:
    """The timing run (machine, trials, overhead) and the figure of every trial."""
    speed, meta = driver.speed_raw(raw), driver.speed_meta(run)
    display(Markdown(
        f"Run `{meta['run_id']}` on {meta['cpu_model']} (AES-NI: {meta['cpu_aes_ni']}), kernels run with "
        f"threads={run.params.threads}; "
        + ", ".join(f"paper {p}: {int(speed.loc[speed.protocol == p, 'bytes'].iloc[0])} bytes, "
                    f"{speed.loc[speed.protocol == p, 'trial'].nunique()} interleaved trials per case"
                    for p in sorted(speed.protocol.unique()))
        + f"; empty-call overhead {meta['empty_call_seconds'] * 1e6:.2f} µs per call (reported apart, not subtracted)."))
    _show_figure(run, "aes2sbox_speed_trials")


def speedup(built: Mapping[str, Any]) -> None:
    """Table 5 beside ours, after the declared statistic and the style that decides."""
    rules, claims = load_rules(), load_claims()
    display(Markdown(f"Declared statistic: **{rules['speed_statistic']}** of the per-call times, "
                     f"{float(rules['confidence']):.0%} percentile bootstrap ({rules['bootstrap_resamples']} resamples), "
                     f"A/A noise floor ±{rules['noise_floor_pct']} %. The speed claims are decided by "
                     + ", ".join(sorted(set(claims.loc[claims["section"] == SPEED_SECTION, "decided_by"])))
                     + "."))
    display(speed_view(built["aes2sbox_speedup"]))


def welch(run, raw: Mapping[str, pd.DataFrame]) -> None:
    """Tables 3-4 in the papers' layout, ours beside the published, the deciding style first."""
    display(welch_tables(driver.speed_raw(raw), deciding="reference", alpha=run.params.alpha))


def audit(built: Mapping[str, Any]) -> None:
    display(audit_view(built["aes2sbox_audit"]))


def avalanche_pairs(built: Mapping[str, Any]) -> None:
    display(avalanche_pairs_view(built["aes2sbox_avalanche_pairs"]))


def avalanche(run, built: Mapping[str, Any]) -> None:
    """The avalanche figure, then the summary per cipher."""
    _show_figure(run, "aes2sbox_avalanche")
    display(avalanche_summary_view(built["aes2sbox_avalanche_summary"]))


def avalanche_finding(built: Mapping[str, Any]) -> None:
    """AES-2SBox's mean avalanche against AES's, in one sentence written from the summary table."""
    s = built["aes2sbox_avalanche_summary"].set_index("cipher")
    display(Markdown(
        f"Over {int(s.loc['aes-2sbox', 'flips'])} single-bit flips, AES-2SBox changes on average "
        f"**{s.loc['aes-2sbox', 'mean_percent']:.2f} %** of the ciphertext bits (at most "
        f"{int(s.loc['aes-2sbox', 'max_bits'])} bits, in at most {int(s.loc['aes-2sbox', 'max_changed_bytes'])} "
        f"byte), against {s.loc['aes', 'mean_percent']:.2f} % for AES."))


def verdicts(run) -> None:
    """The engine's verdicts on the claims this chapter decides, from its saved evidence: counts, then every row."""
    from cipherlab.experiments import outputs
    display(HTML(chapter_verdicts_html(outputs.decided(CHAPTER, run))))
