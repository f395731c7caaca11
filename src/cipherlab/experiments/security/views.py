"""How the security chapter shows its tables: every view goes through :func:`cipherlab.display.show_table`.

The tables are written whole to ``data/tables/`` by :func:`chapter.save_all`;
these functions choose the short view a reader sees first and fold the rest
(:mod:`cipherlab.experiments.table_layout`).  No number is computed here beyond
regrouping the chapter's own tables.
"""
from __future__ import annotations

import pandas as pd

from cipherlab.display import Table
from cipherlab.experiments.table_layout import fitted_table, narrow_table


def sbox_properties_view(props: pd.DataFrame) -> Table:
    """S-box properties: nonlinearity, differential uniformity, linear bias, degree, SAC, BIC; the rest folded."""
    return fitted_table(props, short=["sbox", "nonlinearity", "differential_uniformity", "max_linear_bias",
                                      "algebraic_degree", "sac_mean", "bic_nonlinearity"], keys=["sbox"],
                        summary="Every property (bijective, fixed points, LAT, SAC and BIC details)")


def sbox_spread_view(spread_summary: pd.DataFrame) -> Table:
    """The spread of each property over all 256 xor bytes, per construction."""
    cols = ["property", "construction", "min", "max"]
    return narrow_table(spread_summary[cols].sort_values(["property", "construction"], kind="stable")
                        .reset_index(drop=True))


def dependency_view(dependency: pd.DataFrame) -> Table:
    """Per cipher: the fewest and the most input bytes any output byte depends on."""
    deps = (dependency.groupby(["cipher", "output_byte"])["depends"].sum()
            .groupby("cipher").agg(["min", "max"])
            .rename(columns={"min": "fewest input bytes", "max": "most input bytes"}))
    return narrow_table(deps.reset_index())


def avalanche_view(summary: pd.DataFrame) -> Table:
    return fitted_table(summary, short=["cipher", "flips", "avalanche_mean_bits", "avalanche_mean_percent",
                                        "avalanche_min_bits", "avalanche_max_bits", "sac_mean", "sac_zero_entries"],
                        keys=["cipher"], summary="With standard deviation and SAC deviation")


def rounds_view(rounds: pd.DataFrame) -> Table:
    """Dependent (input byte, output byte) pairs after each number of rounds, one column per cipher."""
    piv = rounds.pivot(index="rounds", columns="cipher", values="dependent_pairs")
    piv.columns = [str(c) for c in piv.columns]
    return narrow_table(piv.reset_index(), caption="Dependent (input byte, output byte) pairs, of 256")


def attack_view(attack: pd.DataFrame) -> Table:
    """The key-free attack: queries and recovered fractions against chance; byte counts folded."""
    return fitted_table(attack, short=["cipher", "mode", "target", "queries", "match_fraction",
                                       "match_fraction_decoded", "chance", "chance_p_value"],
                        keys=["cipher", "mode", "target"], summary="With byte counts, decoded and unknown bytes")


def randomness_overview(randomness: pd.DataFrame) -> Table:
    """Per cipher, mode and input: SP 800-22 tests failed of those run, byte entropy, chi-square p."""
    agg = (randomness.groupby(["cipher", "mode", "input"], sort=False)
           .agg(tests_failed=("passed", lambda p: int((~p).sum())), tests=("passed", "size"),
                byte_entropy=("byte_entropy", "first"), chi_square_p=("chi_square_p", "first")))
    return narrow_table(agg.reset_index())


def table(df: pd.DataFrame, caption: "str | None" = None) -> Table:
    """A narrow table of the chapter (image entropy, summary) with wrapping headers."""
    return narrow_table(df, caption=caption)
