"""How the MAES pages show their tables and run descriptions (all through :func:`cipherlab.present.display.show_table`).

The saved tables keep their exact values (key counts as decimal strings,
seconds as measured); these views only choose columns, short headers and a
readable format per column, so that every table fits the page.  One function
per section of ``maes.ipynb`` (:func:`header`, :func:`table1` ... :func:`compile_times`)
and of ``maes_measure.ipynb`` (:func:`measure_header`, :func:`saved_raw`,
:func:`first_calls`) takes the run and what the chapter built or measured; the
views know the names of the tables and figures, the notebooks type none.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from cipherlab.present.display import MISSING, Table, format_number, show_table
from cipherlab.analysis.evidence import Evidence
from cipherlab.pipeline.paths import ROOT, Profile, as_profile

from cipherlab.experiments.maes.chapter import CHAPTER, PAPER
from cipherlab.experiments.maes.evidence import evidence_frame_for_display

#: Column-name fragments shortened in the book's headers (first match first).
SHORT_HEADERS = (("published_", "pub._"), ("control_", "A/A_"), ("_pct", " %"), ("_us", " µs"),
                 ("_per_state", "/state"), ("_bits", " bits"), ("_", " "))


def short_header(column: str) -> str:
    """``column`` with the fragments of :data:`SHORT_HEADERS` shortened (``published_us`` -> ``pub. µs``)."""
    out = str(column)
    for old, new in SHORT_HEADERS:
        out = out.replace(old, new)
    return out


def show(df: pd.DataFrame, columns: Sequence[str], *, short: "Sequence[str] | None" = None,
         formats: "Mapping[str, object] | None" = None, digits: int = 4, caption: "str | None" = None) -> Table:
    """``df[columns]`` with short headers through :func:`show_table`.

    ``short`` (a subset of ``columns``) is the short view of a table wider
    than eight columns; ``formats`` are keyed by the original column names.
    """
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"columns names columns that are not in the table: {missing}; columns: {list(df.columns)}")
    out = df[list(columns)].reset_index(drop=True)
    out.columns = [short_header(c) for c in columns]
    fmts = {short_header(k): v for k, v in (formats or {}).items()}
    return show_table(out, short=[short_header(c) for c in short] if short else None, formats=fmts, digits=digits,
                      caption=caption)


def interval_text(low, high, digits: int = 3) -> str:
    """``[low, high]`` with ``digits`` significant digits, or ``—`` when either end is missing."""
    if pd.isna(low) or pd.isna(high):
        return MISSING
    return f"[{format_number(float(low), digits)}, {format_number(float(high), digits)}]"


def evidence_view(evidence: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """Evidence rows for the page: claim, condition, estimate, its interval, the A/A band, n, unit, detail."""
    e = evidence.reset_index(drop=True)
    return pd.DataFrame({
        "claim": e["claim_id"],
        "style": e["style"],
        "size": e["size"],
        "estimate": e["estimate"],
        "interval": [interval_text(lo, hi, digits) for lo, hi in zip(e["low"], e["high"])],
        "A/A band": [interval_text(lo, hi, digits) for lo, hi in zip(e["control_low"], e["control_high"])],
        "unit": e["unit"],
        "detail": e["detail"],
    })


def show_evidence(rows: "Sequence[Evidence]", digits: int = 3) -> Table:
    """The evidence rows a section writes, as one eight-column table."""
    return show_table(evidence_view(evidence_frame_for_display(rows), digits), digits=digits)


def keyspace_view(ks: pd.DataFrame) -> pd.DataFrame:
    """The key-space table for the page: counts as powers of two, years in scientific notation."""
    bits = ks["key_bits"].astype(int)
    return pd.DataFrame({
        "key bits": bits,
        "keys": [f"2^{b}" for b in bits],
        "log10 keys": ks["log10_keys"],
        "expected trials": [f"2^{b - 1}" for b in bits],
        "years at the assumed rate": ks["years_at_rate"],
        "keys per second": [f"{v:.3g}".replace("e+", "e") for v in ks["keys_per_second"]],
        "key size named by the paper": ks["published_key_bits"],
        "accepted by": ks["accepted_by"],
    })


def compile_view(compile_times: pd.DataFrame) -> pd.DataFrame:
    """First-call times in milliseconds (``first_call_seconds`` x 1000), the unit they are read in."""
    out = compile_times.drop(columns=["first_call_seconds"]).copy()
    out["first call ms"] = compile_times["first_call_seconds"].to_numpy() * 1e3
    return out


def options_text(options: Mapping[str, object]) -> str:
    """MAES options as ``name = value`` pairs (not a dict repr)."""
    return ", ".join(f"`{k}` = {v}" for k, v in options.items())


def routes_frame(routes: Mapping[str, object]) -> pd.DataFrame:
    """Per cipher, the ciphertext position each plaintext byte position reaches (or that it diffuses)."""
    rows = []
    for cipher, route in routes.items():
        rows.append({"cipher": cipher,
                     "plaintext byte 0, 1, …, 15 reaches ciphertext byte":
                         "every byte (diffused)" if route is None else " ".join(str(int(p)) for p in route)})
    return pd.DataFrame(rows)


def repo_relative(path: "str | Path") -> str:
    """``path`` relative to the repository root (never an absolute machine path on a page)."""
    p = Path(path)
    try:
        return p.resolve().relative_to(ROOT.resolve()).as_posix()
    except ValueError:
        return p.name


#: Columns of a raw timing frame that are measured, not labels of the case timed.
MEASURED_COLUMNS = ("trial", "seconds", "run_id", "calls")


def saved_raw_table(frames: Mapping[str, pd.DataFrame], profile: "str | Profile") -> pd.DataFrame:
    """What the measuring notebook wrote: experiment, rows, cases timed (distinct labels), file (repository-relative)."""
    prof = as_profile(profile)
    rows = []
    for name, df in frames.items():
        labels = [c for c in df.columns if c not in MEASURED_COLUMNS]
        cases = int(df.groupby(labels, dropna=False).ngroups) if labels else 1
        rows.append({"experiment": name, "rows": int(len(df)), "cases": cases,
                     "file": repo_relative(prof.raw_csv(name))})
    return pd.DataFrame(rows)


def compile_summary(compile_raw: pd.DataFrame) -> pd.DataFrame:
    """Per experiment, the number of cases and the slowest and median first call, in milliseconds."""
    g = compile_raw.groupby("experiment", sort=False)["seconds"]
    size = g.size()
    return pd.DataFrame({"experiment": list(size.index), "cases": size.to_numpy(),
                         "median first call ms": g.median().to_numpy() * 1e3,
                         "slowest first call ms": g.max().to_numpy() * 1e3})


# --------------------------------------------------------------------------- the pages, section by section
# Each function below displays one section of a notebook: ``run`` is the chapter's run
# (:meth:`cipherlab.pipeline.chapters.Chapter.run`), ``built`` what ``build`` returned (saved),
# ``raw`` / ``measured`` the raw timing frames by name.

PUBLISHED_COLUMNS = ["row", "column", "value", "unit", "note"]


def _display(*objs) -> None:
    from IPython.display import display
    display(*objs)


def _markdown(text: str) -> None:
    from IPython.display import Markdown
    _display(Markdown(text))


def _not_measured(setup) -> None:
    for style, why in setup.not_measured.items():
        _markdown(f"Style `{style}`: {why}. Its rows are absent from the tables below; the verdicts are decided "
                  "by the other styles.")


def _section_evidence(built: Mapping[str, pd.DataFrame], section: str, digits: int = 3) -> Table:
    """The evidence rows of one section of the page (column ``section``), as one eight-column table."""
    ev = built["evidence_maes"]
    return show_table(evidence_view(ev[ev["section"] == section], digits), digits=digits)


def measure_header(run) -> None:
    """The measuring notebook's run: key size, MAES options, styles, bulk file, batching, processes."""
    from cipherlab.experiments.maes import driver
    p, s = run.params, driver.setup(run)
    _markdown(f"Run of the {run.profile.name} profile, seed {run.seed}: {len(s.key) * 8}-bit key, MAES options "
              f"{options_text(s.options)}, styles {', '.join(s.styles)}, bulk file `{p.bulk_file}` of "
              f"{p.inputs[p.bulk_file]['bytes']} bytes, trials batched to at least "
              f"{driver.min_trial_seconds() * 1e3:g} ms and spread over {p.processes} fresh processes.")
    _not_measured(s)


def saved_raw(run, measured: Mapping[str, pd.DataFrame]) -> None:
    """The raw files the measuring notebook wrote."""
    _display(show_table(saved_raw_table(measured, run.profile), caption="Raw timing files written (one row per trial)"))


def first_calls(measured: Mapping[str, pd.DataFrame]) -> None:
    """First calls (compile or cache load) per experiment, timed apart from the trials."""
    _display(show_table(compile_summary(measured["maes_compile"]), digits=3,
                        caption="First calls (JIT compile or cache load), timed apart from the trials"))


def header(run, raw: Mapping[str, pd.DataFrame]) -> None:
    """The chapter's run: whose timings, on which machine, the key, options, styles and the batching protocol."""
    from cipherlab.analysis.verdicts import load_rules
    from cipherlab.experiments.maes import driver
    from cipherlab.experiments.maes.tables import overhead_us
    from cipherlab.pipeline.results import read_raw_meta
    s = driver.setup(run)
    meta = read_raw_meta("maes_block", run.profile)
    rules = load_rules()
    _markdown(
        f"Timings of run `{meta['run_id']}` ({meta['profile']} profile, seed {run.seed}) on {meta['cpu_model']}, "
        f"{meta['logical_cores']} logical cores, Python {meta['python']}, numba {meta['packages'].get('numba')}. "
        f"Key: {len(s.key) * 8}-bit (`key_hex` parameter); MAES options: {options_text(s.options)}; styles timed: "
        f"{', '.join(s.styles)}. Short operations are timed in batches of k calls lasting at least "
        f"{rules['min_trial_seconds'] * 1e3:g} ms per trial; an empty Python call costs "
        f"{overhead_us(raw['maes_overhead']) * 1e3:.0f} ns under that protocol. "
        f"Speed-ups are {rules['speed_statistic']}s with {rules['confidence']:.0%} percentile-bootstrap intervals.")
    _not_measured(s)


def table1(built: Mapping[str, pd.DataFrame]) -> None:
    """Table I beside the published one, and its evidence."""
    from cipherlab.analysis.paper import published
    _display(show(built["maes_table1"], ["impl", "cipher", "operation", "iv_source", "n", "calls", "median_us",
                                         "iqr_us", "ratio_to_aes", "published_us", "published_ratio_to_aes",
                                         "decides"],
                  short=["impl", "cipher", "operation", "iv_source", "median_us", "ratio_to_aes",
                         "published_ratio_to_aes", "decides"]))
    _display(show_table(published(PAPER, "Table I")[PUBLISHED_COLUMNS], caption="Published Table I"))
    _display(_section_evidence(built, "maes-table1"))


def table2(built: Mapping[str, pd.DataFrame]) -> None:
    """Table II (the replaced stage alone) and its evidence."""
    _display(show(built["maes_table2"], ["impl", "operation", "blocks", "median_us_per_state", "iqr_us_per_state",
                                         "dispatch_us", "dispatch_share_pct", "ratio_to_xor", "published_us",
                                         "published_ratio_to_xor"],
                  short=["impl", "operation", "median_us_per_state", "dispatch_share_pct", "ratio_to_xor",
                         "published_us", "published_ratio_to_xor"]))
    _display(_section_evidence(built, "maes-table2"))


def steps(built: Mapping[str, pd.DataFrame]) -> None:
    """The four steps of a round, each timed alone (ns per state), their shares, and whether they add up."""
    _display(show(built["maes_steps"], ["operation", "step", "ns_per_state", "share_pct", "mixing_step",
                                        "adds_up_pct"], digits=3))
    _display(_section_evidence(built, "maes-steps"))


def table3(built: Mapping[str, pd.DataFrame]) -> None:
    """Table III (one block) beside the published one."""
    from cipherlab.analysis.paper import published
    _display(show(built["maes_table3"], ["cipher", "impl", "operation", "n", "calls", "median_us", "iqr_us",
                                         "bulk_us_per_block", "published_us"],
                  short=["cipher", "impl", "operation", "median_us", "bulk_us_per_block", "published_us"]))
    _display(show_table(published(PAPER, "Table III")[PUBLISHED_COLUMNS], caption="Published Table III"))


_SPEEDUP_SHORT = ["operation", "cipher", "speedup_pct", "low_pct", "high_pct"]


def speedups_block(run, built: Mapping[str, pd.DataFrame]) -> None:
    """One-block speed-ups the paper's way, with the A/A band, and their figure."""
    from cipherlab.experiments.outputs import show_figure
    _display(show(built["maes_speedups_block"], ["impl", "paper_aes", "operation", "cipher", "speedup_pct", "low_pct",
                                                 "high_pct", "control_low_pct", "control_high_pct",
                                                 "published_speedup_pct"],
                  short=["impl", *_SPEEDUP_SHORT, "published_speedup_pct"], digits=3))
    show_figure(run, "maes_speedups_block_figure")


def bulk(run, built: Mapping[str, pd.DataFrame]) -> None:
    """Bulk throughput, its speed-ups and figure, and the best speed-up per setting."""
    from cipherlab.experiments.maes.tables import speedup_headlines
    from cipherlab.experiments.outputs import show_figure
    _display(show(built["maes_throughput"], ["cipher", "impl", "mode", "operation", "bytes", "n", "median_us",
                                             "mb_per_s", "us_per_block"],
                  short=["cipher", "impl", "mode", "operation", "median_us", "mb_per_s", "us_per_block"]))
    _display(show(built["maes_speedups_bulk"], ["impl", "mode", "operation", "cipher", "speedup_pct", "low_pct",
                                                "high_pct", "control_low_pct", "control_high_pct"],
                  short=["impl", "mode", *_SPEEDUP_SHORT], digits=3))
    show_figure(run, "maes_speedups_bulk_figure")
    _markdown("Best MAES speed-up per setting, style and direction, with the A/A band of that style:\n\n"
              + speedup_headlines({"one block": built["maes_speedups_block"], "bulk": built["maes_speedups_bulk"]}))


def fig8_images(run) -> None:
    """The image encrypted (its shape, size and digest, then the figure)."""
    from cipherlab.experiments.maes.image import image_digest
    from cipherlab.experiments.outputs import show_figure
    from cipherlab.pipeline.inputs import read_input
    name = run.params.image_file
    photo = read_input(run.profile.input_file(name))
    _markdown(f"Image `{name}`: shape {' x '.join(map(str, photo.shape))} (rows x columns x colours), "
              f"{photo.size} bytes, {photo.size // 16} blocks of 16 bytes, SHA-256 `{image_digest(photo)}`.")
    show_figure(run, "maes_fig8_images")


def fig8_repeats(run, built: Mapping[str, pd.DataFrame]) -> None:
    """Where one plaintext byte goes, the repeat maps, and the leak table."""
    from cipherlab.experiments.maes import driver
    from cipherlab.experiments.outputs import show_figure
    _display(show_table(routes_frame(driver.routes(run)), caption="Where one plaintext byte goes"))
    show_figure(run, "maes_fig8_repeats")
    _display(show(built["maes_leaks"], ["cipher", "mode", "routed", "plain_equal_pairs", "p_equal_if_plain_equal",
                                        "p_equal_if_plain_differs"]))


def fig8_histograms(run, built: Mapping[str, pd.DataFrame]) -> None:
    """The byte histograms and the entropy / chi-square table."""
    from cipherlab.experiments.outputs import show_figure
    show_figure(run, "maes_fig8_histograms")
    _display(show(built["maes_entropy"], ["cipher", "mode", "bytes", "entropy_bits", "expected_uniform_bits", "chi2",
                                          "p_value", "uniform_at_alpha", "published_entropy"],
                  short=["cipher", "mode", "entropy_bits", "chi2", "p_value", "uniform_at_alpha", "published_entropy"],
                  formats={"entropy_bits": "{:.5f}", "expected_uniform_bits": "{:.5f}", "chi2": "{:.1f}",
                           "published_entropy": "{:.4f}"}, digits=3))


def table4(built: Mapping[str, pd.DataFrame]) -> None:
    """Table IV as the claim reads (MAES minus AES), and what the published entropies say of the paper's file."""
    from cipherlab.analysis.paper import published
    from cipherlab.experiments.maes.entropy import bytes_for_expected_entropy, entropy_sd_uniform
    _display(show(built["maes_entropy_vs_aes"], ["cipher", "mode", "bytes", "entropy_bits", "aes_entropy_bits",
                                                 "difference_bits", "low_bits", "high_bits",
                                                 "published_difference_bits"],
                  short=["cipher", "mode", "difference_bits", "low_bits", "high_bits", "published_difference_bits"],
                  digits=3))
    pub4 = published(PAPER, "Table IV")
    sizes = [bytes_for_expected_entropy(h) for h in pub4["number"]]
    n_typical = float(np.median(sizes))
    spread = (pub4["number"].max() - pub4["number"].min()) / entropy_sd_uniform(int(n_typical))
    _markdown(
        "A perfect cipher would score the published entropies on files of about "
        + ", ".join(f"{s:,.0f}" for s in sizes)
        + f" bytes, so the paper's image was probably about {n_typical / 1024:.0f} KiB. On a file of that size the "
        f"plug-in entropy of ideal ciphertext varies with a standard deviation of "
        f"{entropy_sd_uniform(int(n_typical)):.5f} bits, and the published values span {spread:.1f} of those: "
        "differences of sampling noise, which cannot rank the ciphers (the paper reads the largest as "
        "'better than the original').")


def dependency(built: Mapping[str, pd.DataFrame]) -> None:
    """Ciphertext bytes changed by one changed plaintext byte."""
    dep = built["maes_dependency"]
    _display(show_table(dep.rename(columns={"mean": "mean bytes changed", "min": "fewest", "max": "most"}),
                        caption="Ciphertext bytes changed by one changed plaintext byte"))


def keyspace(built: Mapping[str, pd.DataFrame]) -> None:
    """The key-space table and what it does not say."""
    from cipherlab.experiments.maes.keyspace import KEY_SPACE_NOTE
    _display(show_table(keyspace_view(built["maes_keyspace"]), digits=4))
    _markdown(KEY_SPACE_NOTE)


def verdicts(run) -> None:
    """The verdicts of paper 002's claims, decided from the saved evidence under the declared rules."""
    from IPython.display import HTML
    from cipherlab.experiments import outputs
    from cipherlab.present.verdict_table import chapter_verdicts_html
    _display(HTML(chapter_verdicts_html(outputs.decided(CHAPTER, run))))


def compile_times(built: Mapping[str, pd.DataFrame]) -> None:
    """First-call times of each timed case, in milliseconds."""
    _display(show_table(compile_view(built["maes_compile_times"]), digits=3))
