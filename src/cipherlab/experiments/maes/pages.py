"""How the MAES pages show their tables and run descriptions (all through :func:`cipherlab.analysis.display.show_table`).

The saved tables keep their exact values (key counts as decimal strings,
seconds as measured); these views only choose columns, short headers and a
readable format per column, so that every table fits the page.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import pandas as pd

from cipherlab.analysis.display import MISSING, Table, format_number, show_table
from cipherlab.pipeline.paths import ROOT
from cipherlab.analysis.verdicts import Evidence

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


def saved_raw_table(frames: Mapping[str, pd.DataFrame], saved: Mapping[str, "str | Path"]) -> pd.DataFrame:
    """What the measuring notebook wrote: experiment, rows, cases timed (distinct labels), file (repository-relative)."""
    rows = []
    for name, df in frames.items():
        labels = [c for c in df.columns if c not in MEASURED_COLUMNS]
        cases = int(df.groupby(labels, dropna=False).ngroups) if labels else 1
        rows.append({"experiment": name, "rows": int(len(df)), "cases": cases,
                     "file": repo_relative(saved[name])})
    return pd.DataFrame(rows)


def compile_summary(compile_raw: pd.DataFrame) -> pd.DataFrame:
    """Per experiment, the number of cases and the slowest and median first call, in milliseconds."""
    g = compile_raw.groupby("experiment", sort=False)["seconds"]
    size = g.size()
    return pd.DataFrame({"experiment": list(size.index), "cases": size.to_numpy(),
                         "median first call ms": g.median().to_numpy() * 1e3,
                         "slowest first call ms": g.max().to_numpy() * 1e3})
