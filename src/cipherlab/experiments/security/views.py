"""How the security chapter shows its tables: every view goes through :func:`cipherlab.present.display.show_table`.

The tables are written whole to ``data/tables/`` (:func:`cipherlab.experiments.security.driver.build`,
then ``outputs.save``); these functions choose the short view a reader sees first and fold the rest
(:mod:`cipherlab.present.table_layout`).  No number is computed here beyond
regrouping the chapter's own tables.

The page's cells call the section views at the end (``views.dependency(built, run)``...): ``built`` is
what the chapter built, by output name, and figures are shown from their saved files.
"""
from __future__ import annotations

import pandas as pd
from IPython.display import HTML, Markdown

from cipherlab.present.display import Table, format_number
from cipherlab.present.table_layout import fitted_table, narrow_table


def sbox_properties_view(props: pd.DataFrame) -> Table:
    """S-box properties: nonlinearity, differential uniformity, linear bias, degree, SAC, BIC; the rest folded."""
    return fitted_table(props, short=["sbox", "nonlinearity", "differential_uniformity", "max_linear_bias",
                                      "algebraic_degree", "sac_mean", "bic_nonlinearity"], keys=["sbox"],
                        summary="Every property (bijective, fixed points, LAT, SAC and BIC details)")


def sbox_spread_view(spread_summary: pd.DataFrame) -> Table:
    """The spread of each property over all 256 xor bytes: one row per property, one column per construction.

    A cell reads ``min`` when every xor byte gives the same value, else ``min .. max``.
    """
    def cell(lo, hi) -> str:
        return format_number(lo) if lo == hi else f"{format_number(lo)} .. {format_number(hi)}"

    s = spread_summary.assign(value=[cell(lo, hi) for lo, hi in zip(spread_summary["min"], spread_summary["max"])])
    wide = s.pivot(index="property", columns="construction", values="value")
    wide.columns = [str(c) for c in wide.columns]
    return narrow_table(wide.reset_index(), caption="Over all 256 xor bytes (min .. max)")


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
                        keys=["cipher", "mode", "target"], formats={"chance_p_value": p_value},
                        summary="With byte counts, decoded and unknown bytes")


def p_value(p: float) -> str:
    """A p-value as printed: one that underflowed to 0 in double precision reads ``< 1e-300``."""
    return "< 1e-300" if p == 0 else format_number(p)


def randomness_overview(randomness: pd.DataFrame) -> Table:
    """Per cipher, mode and input: SP 800-22 tests failed of those run, byte entropy, chi-square p."""
    agg = (randomness.groupby(["cipher", "mode", "input"], sort=False)
           .agg(tests_failed=("passed", lambda p: int((~p).sum())), tests=("passed", "size"),
                byte_entropy=("byte_entropy", "first"), chi_square_p=("chi_square_p", "first")))
    return narrow_table(agg.reset_index())


def table(df: pd.DataFrame, caption: "str | None" = None) -> Table:
    """A narrow table of the chapter (image entropy, summary) with wrapping headers."""
    return narrow_table(df, caption=caption)


def sbox_findings_text(props: pd.DataFrame, xor_byte: int) -> str:
    """What the S-box table says, as a sentence written from it (no number typed by hand)."""
    p = props.set_index("sbox")
    names = {"rijndael": "rijndael", "second": f"second (xor-index, {xor_byte:02X})",
             "round": f"aes-2sbox round: S2(S(x)) (xor-index, {xor_byte:02X})",
             "round_other": f"aes-2sbox round: S2(S(x)) (xor-sbox, {xor_byte:02X})"}
    missing = [n for n in names.values() if n not in p.index]
    if missing:
        raise ValueError(f"props lacks the S-boxes {missing}; it has {list(p.index)}")
    s, r, rd, o = (p.loc[names[k]] for k in ("second", "rijndael", "round", "round_other"))
    nl, du, deg = (int(s[c]) for c in ("nonlinearity", "differential_uniformity", "algebraic_degree"))
    text = (f"Under the default reading (xor-index) the second S-box alone has nonlinearity {nl}, algebraic degree "
            f"{deg} and differential uniformity {du}" + (": it is **affine**. " if deg <= 1 else ". "))
    same = int(rd["nonlinearity"]) == int(r["nonlinearity"]) and \
        int(rd["differential_uniformity"]) == int(r["differential_uniformity"])
    text += (f"The AES-2SBox round byte map `S2(S(x))` has nonlinearity {int(rd['nonlinearity'])} and differential "
             f"uniformity {int(rd['differential_uniformity'])}, "
             + ("exactly those of Rijndael's S-box. " if same else
                f"Rijndael's S-box {int(r['nonlinearity'])} and {int(r['differential_uniformity'])}. "))
    weaker = int(o["nonlinearity"]) < int(r["nonlinearity"])
    text += (f"Under the other reading (xor-sbox) the round map `A(S(S(x)) ^ {xor_byte:02X})` has nonlinearity "
             f"{int(o['nonlinearity'])}, differential uniformity {int(o['differential_uniformity'])} and maximum "
             f"linear bias {format_number(o['max_linear_bias'])}"
             + (" (Rijndael's S-box: " f"{int(r['nonlinearity'])}, {int(r['differential_uniformity'])} and "
                f"{format_number(r['max_linear_bias'])}): *weaker* than Rijndael's S-box." if weaker else "."))
    return text


# --------------------------------------------------------------------- the page's sections
# Each takes ``built`` (table or figure name -> DataFrame or Figure) and, to show a saved
# figure, ``run``; the output names are known here, not typed in the notebook.

def _figure(run, name: str) -> None:
    from cipherlab.experiments import outputs
    outputs.show_figure(run, name)


def sbox_properties(built) -> Table:
    return sbox_properties_view(built["security_sbox_properties"])


def sbox_findings(built, run) -> Markdown:
    return Markdown(sbox_findings_text(built["security_sbox_properties"], run.params.xor_byte))


def sbox_spread(built) -> Table:
    return sbox_spread_view(built["security_sbox_spread_summary"])


def ddt_lat(run) -> None:
    _figure(run, "security_ddt_lat")


def dependency(built, run) -> Table:
    _figure(run, "security_dependency_figure")
    return dependency_view(built["security_dependency"])


def avalanche(built, run) -> Table:
    _figure(run, "security_avalanche_figure")
    return avalanche_view(built["security_avalanche_summary"])


def sac(run) -> None:
    _figure(run, "security_sac")


def rounds(built, run) -> Table:
    _figure(run, "security_rounds_figure")
    return rounds_view(built["security_rounds"])


def attack(built) -> Table:
    return attack_view(built["security_attack"])


def recovered_image(run) -> None:
    _figure(run, "security_recovered_image")


def recovered_text(built) -> Markdown:
    """The bytes the attack recovered from a text ciphertext, as the table holds them."""
    (row,) = built["security_recovered_text"].itertuples()
    return Markdown(f"Recovered from {row.cipher.upper()} / {row.mode.upper()} (first {row.bytes_shown} bytes):"
                    f"\n\n```\n{row.text}\n```")


def image_entropy(built) -> Table:
    return table(built["security_image_entropy"])


def randomness(built, run) -> Table:
    _figure(run, "security_randomness_figure")
    return randomness_overview(built["security_randomness"])


def randomness_method(built) -> Markdown:
    from cipherlab.experiments.security.evidence import randomness_method_text
    return Markdown(f"The table holds {randomness_method_text(built['security_randomness'])}.")


def randomness_findings(built) -> Markdown:
    from cipherlab.experiments.security.evidence import randomness_findings_text
    return Markdown(randomness_findings_text(built["security_randomness"]))


def summary(built) -> Table:
    return table(built["security_summary"])


def verdicts(run) -> HTML:
    """The engine's verdicts and findings on the chapter's claims, from its saved evidence: counts, then every row."""
    from cipherlab.experiments import outputs
    from cipherlab.experiments.security.chapter import CHAPTER
    from cipherlab.present.verdict_table import chapter_verdicts_html

    return HTML(chapter_verdicts_html(outputs.decided(CHAPTER, run),
                                      caption="Verdicts and findings of this chapter"))
