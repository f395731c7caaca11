"""The battery's tables as the book shows them (:func:`cipherlab.present.table_layout.fitted_table`)."""

from __future__ import annotations

import pandas as pd

from cipherlab.present.table_layout import fitted_table
from cipherlab.experiments.variant.driver import with_control

PCT = "{:+.1f} %"
#: per table: the columns of the short view (the full table is folded below it)
SHORT = {
    "correctness": ["key_bits", "mode", "style", "round_trips", "agreements", "ok"],
    "byte_maps": ["map", "affine", "nonlinearity", "differential_uniformity", "algebraic_degree", "max_linear_bias",
                  "fixed_points"],
    "rounds": ["cipher", "rounds", "dependent_pairs", "full_diffusion", "byte_local", "affine", "balanced"],
    "property_rounds": None,
    "avalanche_summary": ["cipher", "avalanche_mean_percent", "avalanche_low_percent", "avalanche_high_percent",
                          "avalanche_std_bits", "key_avalanche_mean_percent", "sac_max_abs_deviation"],
    "affinity_test": None,
    "affinity_attack": ["cipher", "mode", "target", "queries", "invertible", "bytes_recovered", "bytes", "exact"],
    "codebook": ["mode", "target", "ran", "queries", "bytes_recovered", "bytes", "exact"],
    "square_attack": ["target", "ran", "reason", "queries", "key_recovered", "bytes_recovered", "exact"],
    "randomness": ["cipher", "mode", "input", "test", "proportion", "acceptable", "passed",
                   "expected_pass_probability"],
    "speed": ["style", "aes_mb_s", "variant_mb_s", "speedup_pct", "low", "high", "finding"],
    "compile": None,
    "sbox_tables": ["map", "differential_uniformity", "nonlinearity", "boomerang_uniformity", "linear_structures",
                    "inverse_degree", "fixed_points", "cycle_type"],
    "sbox_spectra": ["map", "table", "value", "count"],
    "linear_layer": ["cipher", "linear_layer", "invertible", "differential_branch_number", "linear_branch_number",
                     "mds"],
    "trail_bounds": ["cipher", "rounds", "active_sboxes_differential", "active_sboxes_linear",
                     "log2_differential_trail_bound", "log2_linear_trail_bound", "both_below_2^-128"],
    "margin": ["cipher", "own_rounds", "active_sboxes_4_rounds", "rounds_needed", "margin_rounds", "bound_meaningful"],
    "milp_times": None,
    "sbox_samples": ["cipher", "sample", "rounds", "nonlinearity", "differential_uniformity", "sac_mean",
                     "bic_nonlinearity"],
    "sbox_key_summary": ["measure", "keys", "sboxes", "min", "median", "max", "aes", "equal_to_aes"],
    "equivalence": ["equivalent_to", "key_sizes", "rounds", "transformation", "key_dependent", "blocks_equal",
                    "blocks_confirmed", "confirmed"],
    "image_entropy": ["cipher", "mode", "bytes", "byte_entropy"],
}
LOG2 = "{:.1f}"
FRACTION = "{:.4f}"
FORMATS = {"sbox_key_summary": {"min": "{:.4g}", "median": "{:.4g}", "max": "{:.4g}", "aes": "{:.4g}",
                                "equal_to_aes": "{:.0%}"},
           "sbox_samples": {"sac_mean": FRACTION, "sac_max_deviation": FRACTION},
           "avalanche_summary": {c: "{:.2f}" for c in ("avalanche_mean_percent", "avalanche_low_percent",
                                                       "avalanche_high_percent", "key_avalanche_mean_percent",
                                                       "key_avalanche_low_percent", "key_avalanche_high_percent",
                                                       "avalanche_mean_bits", "avalanche_std_bits")},
           "randomness": {"expected_pass_probability": "{:.0%}", "acceptable": "{:.3f}", "proportion": "{:.3f}"},
           "image_entropy": {"byte_entropy": "{:.4f}"},
           "trail_bounds": {"log2_differential_trail_bound": LOG2, "log2_linear_trail_bound": LOG2},
           "margin": {"log2_max_dp": "{:.2f}", "log2_max_lp": "{:.2f}"}, "milp_times": {"milp_seconds": "{:.2f}"},
           "speed": {"speedup_pct": PCT, "low": PCT, "high": PCT, "control_low": PCT, "control_high": PCT,
                     "aes_mb_s": "{:.1f}", "variant_mb_s": "{:.1f}"}}


#: per table: the columns that name a row, repeated in each column group of the folded full table
KEYS = {"correctness": ["key_bits", "mode", "style"], "byte_maps": ["map"], "rounds": ["cipher", "rounds"],
        "property_rounds": ["property"], "affinity_attack": ["cipher", "mode", "target"], "codebook": ["mode", "target"],
        "square_attack": ["mode", "target"], "randomness": ["mode", "input", "test"], "speed": ["style"],
        "sbox_tables": ["map"], "sbox_spectra": ["map", "table"], "linear_layer": ["cipher"],
        "trail_bounds": ["cipher", "rounds"], "margin": ["cipher"], "milp_times": ["cipher", "rounds"],
        "sbox_samples": ["cipher", "sample", "rounds"], "sbox_key_summary": ["measure"],
        "equivalence": ["cipher"], "image_entropy": ["cipher", "mode"], "avalanche_summary": ["cipher"],
        "dependency": ["cipher", "rounds"], "avalanche": ["cipher"], "affinity_test": ["cipher"]}
#: at most this many columns in a short view chosen for a table without one in :data:`SHORT`
SHORT_COLUMNS = 6


def view(results: dict, table: str, caption: "str | None" = None):
    """One table of :func:`cipherlab.experiments.variant.driver.run_battery`, rendered for the book.

    The short view (headers wrap) fits the page; every column is in the full
    table folded below it, in column groups that each fit
    (:func:`cipherlab.present.table_layout.fitted_table`).
    """
    if table not in SHORT:
        raise ValueError(f"table must be one of {tuple(SHORT)}, got {table!r}")
    df: pd.DataFrame = with_control(results, table)
    if "cipher" in df.columns and df["cipher"].nunique() == 1 and table != "randomness":
        df = df.drop(columns="cipher")
    short = [c for c in (SHORT[table] or list(df.columns[:SHORT_COLUMNS])) if c in df.columns]
    keys = [c for c in KEYS.get(table, short[:1]) if c in df.columns] or short[:1]
    return fitted_table(df, short=short, keys=keys, formats=FORMATS.get(table), caption=caption)


def bounds_side_by_side(results: dict) -> pd.DataFrame:
    """The ``trail_bounds`` table with one row per round count, the variant's columns beside AES's.

    Columns ``active_<cipher>`` (the differential bound; the linear one is in
    the full table) and ``log2_bound_<cipher>`` (the weaker of the two trail bounds).
    """
    b = results["trail_bounds"].copy()
    b["log2_bound"] = b[["log2_differential_trail_bound", "log2_linear_trail_bound"]].max(axis=1).round(1)
    order = list(dict.fromkeys(b["cipher"]))
    parts = []
    for value, prefix in (("active_sboxes_differential", "active"), ("log2_bound", "log2_bound")):
        wide = b.pivot(index="rounds", columns="cipher", values=value)[order]
        parts.append(wide.rename(columns=lambda c: f"{prefix}_{c}"))
    return pd.concat(parts, axis=1).reset_index()


def bounds_view(results: dict, caption: "str | None" = None):
    """:func:`bounds_side_by_side` rendered for the book (the active-S-box bound by round, AES beside the variant)."""
    df = bounds_side_by_side(results)
    return fitted_table(df, short=list(df.columns), keys=["rounds"],
                        formats={c: "{:.1f}" for c in df.columns if c.startswith("log2_bound")}, caption=caption)
