"""Paper 003: how the chapter's tables read on the page (every one through :func:`cipherlab.present.display.show_table`).

The saved tables (``data/tables/...``) keep their machine-readable
columns; these views choose, join and name columns for a reader, so a
table fits the page, and write the few sentences a cell prints from the run's
metadata and the decided verdicts.  The measuring page, which has no saved
tables of its own, summarises its raw files with the chapter's own functions
(:func:`.measure.throughput_summary`, :func:`.forgery.forgery_table`), the ones
:func:`.driver.build` saves for the chapter page.

The notebooks call one view per section with what the chapter measured
(``measured``: raw frames by name) or built (``built``: tables and figures by
name, :func:`.driver.build`); the views know the names.
"""
from __future__ import annotations

import html
import os
from typing import Any, Mapping

import pandas as pd
from IPython.display import HTML, Markdown, display

from cipherlab.analysis.claims import VERDICT_PAGE, claim_anchor
from cipherlab.present.page_text import page_text
from cipherlab.present.display import Table, format_number, show_table
from cipherlab.present.verdict_table import chapter_verdicts_html, verdict_html
from cipherlab.experiments import outputs
from cipherlab.experiments.aead.chapter import CHAPTER
from cipherlab.experiments.aead.figures import FORGERY_FIGURES, SIZE_FIGURES
from cipherlab.experiments.aead.forgery import forgery_table
from cipherlab.experiments.aead.measure import LABELS, throughput_summary
from cipherlab.pipeline.results import read_raw_meta

_QUALIFIER_SIGNS = {"approximate": "≈ ", "lower bound": "> "}


def _label(x: Any) -> str:
    return LABELS.get(x, str(x))


def _pair(a: Any, b: Any, digits: int = 4) -> str:
    return f"{format_number(_number(a), digits)} / {format_number(_number(b), digits)}"


def _number(x: Any) -> Any:
    try:
        return float(x)
    except (TypeError, ValueError):
        return x


def _size(nbytes: Any) -> str:
    n = int(nbytes)
    return f"{n / 1e6:g} MB" if n >= 100_000 else f"{n / 1e3:g} kB" if n >= 1000 else f"{n} B"


def run_markdown(profile: str, meta1: Mapping[str, Any], meta2: Mapping[str, Any], phase1: pd.DataFrame) -> str:
    """One sentence on what ran: trials, warm-ups, run id, the empty-call overhead and batch sizes."""
    return (f"Profile `{profile}`: {meta1['trials']} trials per case in phase 1 and {meta2['trials']} in phase 2, "
            f"after {meta1['warmup']} warm-up rounds per case; run `{meta1['run_id']}`. Empty-call overhead "
            f"{float(meta1['call_overhead_s']) * 1e9:.0f} ns per call; phase 1 timed batches of "
            f"{int(phase1['calls'].min())} to {int(phase1['calls'].max())} calls per trial.")


def inputs_table(files: Mapping[int, Any]) -> Table:
    """The input files the measuring notebook reads (:func:`.driver.input_files`): size and bytes on disk."""
    return show_table(pd.DataFrame({"file size": [_size(n) for n in files],
                                    "bytes read": [os.path.getsize(f) for f in files.values()]}))


def summary_table(summary: pd.DataFrame, group: str) -> Table:
    """A :func:`.measure.throughput_summary` frame: median time and throughput with IQR per case (full table folded)."""
    d = summary
    view = pd.DataFrame({
        "mode" if group == "mode" else "cipher": [_label(x) for x in d[group]],
        "operation": d["operation"], "size": [_size(n) for n in d["bytes"]], "trials": d["n"],
        "median ms": d["median_s"] * 1e3,
        "IQR ms": [f"{a * 1e3:.4g} to {b * 1e3:.4g}" for a, b in zip(d["q1_s"], d["q3_s"])],
        "median MB/s": d["median_mb_per_s"],
    })
    return show_table(view, digits=4)


def ratios_table(ratios: pd.DataFrame) -> Table:
    """:func:`.tables.throughput_ratios` for a reader."""
    view = pd.DataFrame({
        "comparison": ratios["comparison"], "operation": ratios["operation"],
        "size": [_size(n) for n in ratios["bytes"]], "name": [_label(x) for x in ratios["name"]],
        "median MB/s": ratios["median_mb_per_s"], "relative to": [_label(x) for x in ratios["reference"]],
        "ratio": ratios["ratio_to_reference"]})
    return show_table(view, formats={"ratio": "{:.3f}"})


def ranking_table(ranking: pd.DataFrame, decided: pd.DataFrame) -> Table:
    """:func:`.tables.ranking_beside_paper` with each cell's claim and that claim's verdict."""
    verdict_of = decided.set_index("claim_id")["verdict"]
    verdicts = [", ".join(verdict_of[c] for c in ids.split(", ")) if ids else "—" for ids in ranking["claim_id"]]
    view = pd.DataFrame({"table": ranking["table"], "cell": ranking["row"] + " · " + ranking["column"],
                         "published": ranking["published"], "ours": ranking["ours"].replace("", "—"),
                         "claim": ranking["claim_id"].replace("", "—"), "verdict": verdicts})
    return show_table(view)


def prose_table(prose_cmp: pd.DataFrame) -> Table:
    """:func:`.tables.prose_comparison`: what the prose quotes, the published value with its qualifier, ours."""
    view = pd.DataFrame({
        "where": prose_cmp["table"],
        "quoted": prose_cmp["row"] + ", " + prose_cmp["column"],
        "published": [f"{_QUALIFIER_SIGNS.get(q, q + ': ')}{v} {u}"
                      for q, v, u in zip(prose_cmp["qualifier"], prose_cmp["published"], prose_cmp["unit"])],
        "ours": prose_cmp["ours"] + " " + prose_cmp["unit"],
        "measured at": prose_cmp["measured_at"]})
    return show_table(view, caption="≈ approximate, > lower bound, as the paper words it")


def forgery_beside_table(beside: pd.DataFrame) -> Table:
    """:func:`.forgery.forgery_beside_paper`, each statistic as "paper / ours"."""
    view = pd.DataFrame({
        "table": beside["table"], "ours at": [_size(n) for n in beside["bytes"]], "mode": beside["mode"],
        "fail rate % (paper / ours)": [_pair(a, b) for a, b in zip(beside["paper_fail_rate_pct"],
                                                                   beside["ours_fail_rate_pct"])],
        "mean µs (paper / ours)": [_pair(a, b) for a, b in zip(beside["paper_mean_us"], beside["ours_mean_us"])],
        "std µs (paper / ours)": [_pair(a, b) for a, b in zip(beside["paper_std_us"], beside["ours_std_us"])],
        "median µs (ours)": beside["ours_median_us"]})
    return show_table(view)


def forgery_times_table(ftab: pd.DataFrame) -> Table:
    """:func:`.forgery.forgery_table`: detection rate and check times per size, mode and tag kind."""
    view = pd.DataFrame({
        "size": [_size(n) for n in ftab["bytes"]], "mode": [_label(x) for x in ftab["mode"]],
        "tag": ftab["kind"].str.replace("_", " "), "fail rate %": ftab["fail_rate_pct"],
        "mean ± std µs": [f"{format_number(m)} ± {format_number(s)}" for m, s in zip(ftab["mean_us"], ftab["std_us"])],
        "std within process µs": ftab["std_within_us"],
        "median µs": ftab["median_us"], "median vs valid": ftab["median_vs_valid"]})
    trials = sorted(set(int(n) for n in ftab["trials"]))
    return show_table(view, formats={"median vs valid": "{:.3f}"},
                      caption=f"timed trials per case: {', '.join(map(str, trials))}")


def wycheproof_table(wsum: pd.DataFrame) -> Table:
    """:func:`.wycheproof.wycheproof_summary` with readable headers."""
    view = wsum.rename(columns={"result": "expected", "unsupported_parameters": "unsupported parameters"})
    view = view.assign(mode=[_label(x) for x in view["mode"]])
    return show_table(view)


def unsupported_table(unsupported: pd.DataFrame) -> Table:
    """:func:`.wycheproof.wycheproof_unsupported` with readable headers."""
    view = unsupported.rename(columns={"result": "expected", "iv_bits": "nonce bits", "tag_bits": "tag bits"})
    return show_table(view.assign(mode=[_label(x) for x in view["mode"]]))


def _power_of_two(log2: int) -> str:
    return "1" if log2 == 0 else f"2^{int(log2)}".replace("-", "−")


def bound_table(bound: pd.DataFrame, log2_qs=(0, 10, 20, 30, 40)) -> Table:
    """:func:`.forgery.forgery_bound_table` at a few q: the bound as a power of two, per mode and tag length."""
    qs = [q for q in log2_qs if q in set(bound["log2_q"])]
    wide = bound[bound["log2_q"].isin(qs)].pivot_table(index=["mode", "tag_bits", "standard"], columns="log2_q",
                                                       values="log2_bound").reset_index()
    view = pd.DataFrame({"mode": [_label(x) for x in wide["mode"]], "tag bits": wide["tag_bits"],
                         "standard": wide["standard"]})
    for q in qs:
        view[f"q = {_power_of_two(q)}"] = [_power_of_two(v) for v in wide[q]]
    return show_table(view)


def trials_table(observe: pd.DataFrame) -> Table:
    """:func:`.forgery.trials_to_observe`: attempts needed per tag length beside what our trials can show."""
    view = pd.DataFrame({
        "tag bits": observe["tag_bits"],
        "P one guess": [_power_of_two(-t) for t in observe["tag_bits"]],
        "attempts per success": [_power_of_two(t) for t in observe["log2_expected_trials"]],
        "attempts to see one (95 %)": [f"2^{x:.2f}" for x in observe["log2_trials_for_confidence"]],
        "our random-tag guesses (accepted)": [f"{n} ({a})" for n, a in zip(observe["observed_trials"],
                                                                observe["observed_accepts"])],
        "our 95 % upper bound on P": observe["p_upper_from_observed"],
        "could we tell?": observe["observed_can_reject_tag"]})
    return show_table(view, digits=3)


def acceptance_table(accept: pd.DataFrame) -> Table:
    """:func:`.bitflip.acceptance_table` with readable headers."""
    view = pd.DataFrame({"family": accept["family"], "implementation": accept["impl"],
                         "mode": [_label(x) for x in accept["mode"]], "flipped": accept["location"],
                         "flips": accept["flips"], "accepted": accept["accepted"],
                         "accepted %": accept["acceptance_pct"]})
    return show_table(view, formats={"accepted %": "{:.1f}"})


def rewrite_table(rewrite: pd.DataFrame) -> Table:
    """:func:`.bitflip.ctr_field_rewrite`: what each receiver returned (the message and target above the table)."""
    first = rewrite.iloc[0]
    view = pd.DataFrame({"receiver": [f"{i} {_label(m).upper()}" for i, m in zip(rewrite["impl"], rewrite["mode"])],
                         "accepted": rewrite["accepted"], "is the attacker's text": rewrite["equals_target"],
                         "returned": rewrite["tampered"]})
    sent = (f"<p>sent: <code>{html.escape(first['original'])}</code><br>"
            f"attacker's text: <code>{html.escape(first['target'])}</code></p>")
    return Table(sent + str(show_table(view)))


def machine_table(machine: pd.DataFrame) -> Table:
    """:func:`.tables.machine_comparison`."""
    return show_table(machine)


#: The chapter's themes, in reading order: evidence section -> (title, what a reader should take from it
#: when the claims hold, when they fail).  The counts and the claims named come from the decided verdicts.
READING_THEMES = {
    "aead-phase1": ("The modes ranked by speed (GCM, CCM, EAX)",
                    "the paper's ranking of the modes holds on this machine",
                    "the paper's ranking of the modes does not hold on this machine in every case it states"),
    "aead-phase2": ("The ciphers ranked by speed in EAX (AES, Blowfish, CAST)",
                    "the paper's ranking of the ciphers holds on this machine",
                    "the paper's cipher ranking does not carry over"),
    "aead-ratios": ("How much faster, as ratios",
                    "the paper's ratios are within the declared margin of ours",
                    "the paper's factors are not what this machine measures"),
    "aead-forgery": ("Rejecting forged tags",
                     "every mode rejects the forged tags, as the paper says",
                     "the paper's statements on rejection times do not hold as printed"),
    "aead-bound": ("The forgery bound", "the bound q/2^t the paper gives holds for each tag length",
                   "the bound as printed does not hold"),
    "aead-wycheproof": ("Known-answer checks (Wycheproof)", "the modes pass the vectors", "a mode fails the vectors"),
    "aead-bitflip": ("Bit flipping (the paper's future work)", "authentication stops every flip",
                     "a flip got through"),
    "aead-absolute": ("Absolute times and throughputs",
                      "they match", "they belong to the author's laptop"),
}
_FAILED = ("contradicted", "not reproduced")


def reading_markdown(decided: pd.DataFrame, verdict_page: str = VERDICT_PAGE) -> str:
    """"Reading the results": one short paragraph per theme of the chapter, interpreting its verdicts.

    Each paragraph counts the theme's claims by verdict, says what that means, and links the claims
    that failed to their rows on the verdict page (where each is given in full), instead of copying
    the rows here.
    """
    claims = decided[decided["verdict"] != "finding"]
    out = [f"Paper 003 makes {len(claims)} claims this chapter tests; the verdict page lists them all "
           f"([paper 003 only]({verdict_page}?paper=003)). What they add up to:"]
    sections = [s for s in READING_THEMES if s in set(claims["section"])]
    sections += sorted(set(claims["section"]) - set(sections))
    for section in sections:
        d = claims[claims["section"] == section]
        title, good, bad = READING_THEMES.get(section, (section, "the claims hold", "some claims fail"))
        counts = d["verdict"].value_counts()
        phrase = ", ".join(f"{int(counts[v])} {v}" for v in counts.index)
        failed = d[d["verdict"].isin(_FAILED)]
        if len(d) and (d["verdict"] == "not testable").all():
            meaning = (f"none can be checked on another machine ({bad}); the chapter shows ours beside them, "
                       "and the rankings above are what carries over")
        elif failed.empty and (d["verdict"] == "reproduced").any():
            meaning = good
        elif failed.empty:
            meaning = "this run could not decide them (too few trials, or not testable here)"
        else:
            lead = failed.iloc[0]
            meaning = f"{bad}; for instance: {page_text(str(lead['reason']).rstrip('.'))}"
            if (d["verdict"] == "reproduced").any():
                meaning += f", while {int(counts.get('reproduced', 0))} of its claims reproduced"
        links = ", ".join(f"[{page_text(c)}]({verdict_page}#{claim_anchor(c)})" for c in failed["claim_id"])
        out.append(f"**{title}** ({phrase}): {meaning}." + (f" Refuted here: {links}." if links else ""))
    findings = decided[decided["verdict"] == "finding"]
    if len(findings):
        out.append(f"Our own experiments beyond the paper add {len(findings)} finding"
                   f"{'s' if len(findings) != 1 else ''}, not counted among its claims "
                   f"([on the verdict page]({verdict_page}#verdicts-findings)).")
    return "\n\n".join(out)


# --------------------------------------------------------------------------- the notebooks' cells


def params_table(run) -> Table:
    """The parameters that ran (:func:`cipherlab.experiments.outputs.params_table`)."""
    from cipherlab.experiments import outputs
    return outputs.params_table(run)


def _overhead(run) -> str:
    meta = read_raw_meta("aead_phase1", run.profile)
    return f"Empty-call overhead under the batched protocol: {float(meta['call_overhead_s']) * 1e9:.0f} ns per call."


def phase1_measured(run, measured: Mapping[str, pd.DataFrame]) -> Table:
    """The measuring page's phase 1: the empty-call overhead, then the per-case summary."""
    display(Markdown(_overhead(run)))
    return summary_table(throughput_summary(measured["aead_phase1"], run.params.mb_bytes), "mode")


def phase2_measured(run, measured: Mapping[str, pd.DataFrame]) -> Table:
    """The measuring page's phase 2 summary."""
    return summary_table(throughput_summary(measured["aead_phase2"], run.params.mb_bytes), "cipher")


def forgery_measured(measured: Mapping[str, pd.DataFrame]) -> Table:
    """The measuring page's tag checks: times and detection rates."""
    return forgery_times_table(forgery_table(measured["aead_forgery"], measured["aead_forgery_outcomes"]))


def run_summary(run, raw: Mapping[str, pd.DataFrame]) -> Markdown:
    """:func:`run_markdown` from the raw files' provenance records."""
    meta1, meta2 = (read_raw_meta(name, run.profile) for name in ("aead_phase1", "aead_phase2"))
    return Markdown(run_markdown(run.profile.name, meta1, meta2, raw["aead_phase1"]))


def profile_note(run) -> "Markdown | None":
    """A warning above every verdict when the profile is not the paper's protocol."""
    if run.profile.name == "full":
        return None
    return Markdown(f"**Profile `{run.profile.name}`:** small files and few trials, not the paper's protocol; "
                    "every verdict below states the size it was measured at.")


def decided(run) -> pd.DataFrame:
    """This chapter's verdicts, decided by the engine from the run's saved evidence (:func:`.outputs.decided`)."""
    from cipherlab.experiments import outputs
    return outputs.decided(CHAPTER, run)


def claims(decided: pd.DataFrame, section: str) -> HTML:
    """The decided verdicts of one section's claims (published, ours, A/A band, condition, rule)."""
    return HTML(verdict_html(decided[decided["section"] == section]))


def size_figure(run, number: int) -> None:
    """Fig. ``number`` (3-10) of the paper, ours, as saved."""
    name, = (n for n in SIZE_FIGURES if n.startswith(f"aead_fig{number:02d}_"))
    outputs.show_figure(run, name)


def protocols(built: Mapping[str, Any]) -> Table:
    """Every case under both protocols (:func:`.protocol.cold_table`): the paper's one cold call and our warm median."""
    return show_table(built["aead_protocols"], short=["phase", "cipher", "mode", "operation", "bytes", "cold_mb_per_s",
                                                      "warm_mb_per_s", "cold_over_warm"])


def machine(built: Mapping[str, Any]) -> Table:
    return machine_table(built["aead_machine"])


def linear_fit(built: Mapping[str, Any]) -> Table:
    """:func:`.linearity.linear_fit_table`, the columns a reader needs first."""
    return show_table(built["aead_linear_fit"], short=["mode", "operation", "fixed_us", "ns_per_byte",
                                                       "misfit_max_pct", "two_point_exponent"])


def stability(built: Mapping[str, Any]) -> Table:
    return show_table(built["aead_stability"], short=["operation", "mode", "bytes", "cold_mb_per_s", "warm_mb_per_s",
                                                      "rel_iqr_pct", "fit_resid_pct", "span_pct"])


def ratios(built: Mapping[str, Any]) -> Table:
    return ratios_table(built["aead_ratios"])


def ranking(built: Mapping[str, Any], decided: pd.DataFrame) -> Table:
    return ranking_table(built["aead_ranking_vs_paper"], decided)


def prose(built: Mapping[str, Any]) -> Table:
    return prose_table(built["aead_prose_vs_paper"])


def forgery_beside(built: Mapping[str, Any]) -> Table:
    return forgery_beside_table(built["aead_forgery_vs_paper"])


def forgery_figures(run) -> None:
    """Figs. 11-13 as saved."""
    for name in FORGERY_FIGURES:
        outputs.show_figure(run, name)


def forgery_times(built: Mapping[str, Any]) -> Table:
    return forgery_times_table(built["aead_forgery_times"])


def wycheproof(built: Mapping[str, Any]) -> Table:
    return wycheproof_table(built["aead_wycheproof"])


def unsupported(built: Mapping[str, Any]) -> Table:
    return unsupported_table(built["aead_wycheproof_unsupported"])


def bound(run, built: Mapping[str, Any]) -> Table:
    """The forgery bound: its figure as saved, then the table at a few q."""
    outputs.show_figure(run, "aead_forgery_bound_figure")
    return bound_table(built["aead_forgery_bound"])


def observe(built: Mapping[str, Any]) -> Table:
    return trials_table(built["aead_trials_to_observe"])


def acceptance(built: Mapping[str, Any]) -> Table:
    return acceptance_table(built["aead_bitflip_acceptance"])


def rewrite(built: Mapping[str, Any]) -> Table:
    return rewrite_table(built["aead_ctr_rewrite"])


def verdicts(decided: pd.DataFrame) -> HTML:
    """Every claim of paper 003: the counts, then each verdict."""
    return HTML(chapter_verdicts_html(decided))


def reading(decided: pd.DataFrame) -> Markdown:
    return Markdown(reading_markdown(decided))
