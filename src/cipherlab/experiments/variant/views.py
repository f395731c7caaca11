"""The battery's tables as the book shows them (:func:`cipherlab.analysis.table_layout.fitted_table`)."""

from __future__ import annotations

import pandas as pd

from cipherlab.analysis.table_layout import fitted_table

PCT = "{:+.1f} %"
#: per table: the columns of the short view (the full table is folded below it)
SHORT = {
    "correctness": ["key_bits", "mode", "style", "round_trips", "agreements", "ok"],
    "byte_maps": ["map", "affine", "nonlinearity", "differential_uniformity", "algebraic_degree", "max_linear_bias",
                  "fixed_points"],
    "rounds": ["rounds", "dependent_pairs", "full_diffusion", "byte_local", "affine", "balanced"],
    "property_rounds": None,
    "avalanche_summary": ["avalanche_mean_percent", "avalanche_std_bits", "avalanche_min_bits",
                          "avalanche_max_bits", "sac_max_abs_deviation", "sac_zero_entries"],
    "affinity_test": None,
    "affinity_attack": ["mode", "target", "queries", "invertible", "bytes_recovered", "bytes", "exact"],
    "codebook": ["mode", "target", "ran", "queries", "bytes_recovered", "bytes", "exact"],
    "square_attack": ["target", "ran", "reason", "queries", "key_recovered", "bytes_recovered", "exact"],
    "randomness": ["mode", "input", "test", "proportion", "acceptable", "passed"],
    "speed": ["style", "aes_mb_s", "variant_mb_s", "speedup_pct", "low", "high", "finding"],
    "compile": None,
}
FORMATS = {"speed": {"speedup_pct": PCT, "low": PCT, "high": PCT, "control_low": PCT, "control_high": PCT,
                     "aes_mb_s": "{:.1f}", "variant_mb_s": "{:.1f}"}}


#: per table: the columns that name a row, repeated in each column group of the folded full table
KEYS = {"correctness": ["key_bits", "mode", "style"], "byte_maps": ["map"], "rounds": ["rounds"],
        "property_rounds": ["property"], "affinity_attack": ["mode", "target"], "codebook": ["mode", "target"],
        "square_attack": ["mode", "target"], "randomness": ["mode", "input", "test"], "speed": ["style"]}
#: at most this many columns in a short view chosen for a table without one in :data:`SHORT`
SHORT_COLUMNS = 6


def view(results: dict, table: str, caption: "str | None" = None):
    """One table of :func:`cipherlab.experiments.variant.run_battery`, rendered for the book.

    The short view (headers wrap) fits the page; every column is in the full
    table folded below it, in column groups that each fit
    (:func:`cipherlab.analysis.table_layout.fitted_table`).
    """
    if table not in SHORT:
        raise ValueError(f"table must be one of {tuple(SHORT)}, got {table!r}")
    df: pd.DataFrame = results[table]
    if "cipher" in df.columns and df["cipher"].nunique() == 1 and table != "randomness":
        df = df.drop(columns="cipher")
    short = [c for c in (SHORT[table] or list(df.columns[:SHORT_COLUMNS])) if c in df.columns]
    keys = [c for c in KEYS.get(table, short[:1]) if c in df.columns] or short[:1]
    return fitted_table(df, short=short, keys=keys, formats=FORMATS.get(table), caption=caption)
