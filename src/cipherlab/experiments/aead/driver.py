"""Paper 003's chapter, run: what the measuring notebook times and what the chapter notebook builds.

:func:`measure` times phases 1 and 2 and the forged-tag checks in one set of
fresh processes; :func:`build` turns the raw files into every table and figure
of the chapter page (names as declared in :data:`.chapter.CHAPTER`).  Both take
a validated :class:`cipherlab.pipeline.params.Run` and trust its parameters;
the modules they call compute (:mod:`.measure`, :mod:`.forgery`, :mod:`.tables`,
:mod:`.figures`, :mod:`.evidence` ...).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from cipherlab.analysis import paper, timing, verdicts
from cipherlab.present import plotting
from cipherlab.analysis.evidence import evidence_table
from cipherlab.analysis.timing import TimingGroup
from cipherlab.experiments.aead import (bitflip, evidence, figures, forgery, linearity, protocol, reread, stability,
                                       tables, wycheproof)
from cipherlab.experiments.aead.sentence_claims import (GAIN_CLAIMS, LEVEL_CLAIMS, LOWEST_START, gain_evidence,
                                                       level_evidence, lowest_start_evidence, sentence_claims,
                                                       trend_words_evidence)
from cipherlab.experiments.aead.consistency import consistency_claims, protocol_bound_evidence
from cipherlab.experiments.aead.chapter import MB, input_name
from cipherlab.experiments.aead.measure import (PHASE1_COMBOS, PHASE1_CONTROL, PHASE2_COMBOS, PHASE2_CONTROL,
                                                PAPER, aead_build, aead_cases, read_inputs, throughput_summary)
from cipherlab.pipeline.provenance import new_run_id
from cipherlab.pipeline.results import read_raw_meta


def input_files(run) -> dict[int, Any]:
    """The generated text file of each size the chapter reads, by size in bytes."""
    return {n: run.profile.input_file(input_name(n)) for n in sorted(set(run.params.phase_bytes)
                                                                     | set(run.params.forgery_bytes))}


def measure(run) -> dict[str, Any]:
    """Phase 1 (AES in GCM, CCM, EAX; A/A control AES-GCM), phase 2 (EAX with AES, Blowfish, CAST;
    A/A control AES-EAX) and the forged-tag checks (A/A control GCM with random tags), timed in the
    same ``processes`` fresh interpreters, each timing the three groups in turn
    (:func:`cipherlab.analysis.timing.measure_groups_in_processes`), after the paper's protocol
    (``aead_cold``, :mod:`.protocol`) in ``processes`` interpreters of its own, plus ``aead_forgery_outcomes``:
    which seeded tags are rejected (:func:`.forgery.forgery_outcomes`, untimed, deterministic).

    The plaintexts are read from disk before any timing, as the paper does.  ``trials``,
    ``phase2_trials`` and ``forgery_trials`` count the trials of all processes;
    ``phase2_min_trial_seconds`` (at least the declared ``min_trial_seconds``) batches phase 2 into
    longer trials.  Returns ``{raw name: (DataFrame, extra provenance)}``; the outcomes carry none.
    """
    p, seed = run.params, run.seed
    min_trial_seconds = float(verdicts.load_rules()["min_trial_seconds"])
    overhead = timing.call_overhead(min_trial_seconds=min_trial_seconds)
    phase_sizes, forgery_sizes = p.phase_bytes, p.forgery_bytes
    data = read_inputs(input_files(run).values())
    aad = p.aad.encode()
    phase2_min = max(min_trial_seconds, p.phase2_min_trial_seconds)
    common = dict(aad=aad, seed=seed, key_bytes=p.key_bytes, nonce_bytes=dict(p.nonce_bytes))
    phase_data = {n: data[n] for n in phase_sizes}
    forged = forgery.forgery_build({n: data[n] for n in forgery_sizes}, n_tags=p.forgery_trials, aad=aad, seed=seed)
    # the paper's protocol, one cold call per case, in processes of its own that time nothing else, each large
    # output buffer a fresh mapping whatever ran before it (protocol.fresh_threshold)
    fresh_above = protocol.fresh_threshold(phase_sizes)
    cold = {"aead_cold": TimingGroup(protocol.cold_cases, protocol.cold_build(phase_data, **common), p.processes, 0,
                                     0.0, protocol.COLD_COUNTERBALANCE)}
    groups = {
        "aead_phase1": TimingGroup(aead_cases, aead_build(phase_data, PHASE1_COMBOS, control=PHASE1_CONTROL, **common),
                                   p.trials, p.warmup),
        "aead_phase2": TimingGroup(aead_cases, aead_build(phase_data, PHASE2_COMBOS, control=PHASE2_CONTROL, **common),
                                   p.phase2_trials, p.warmup, phase2_min),
        "aead_forgery": TimingGroup(forgery.forgery_timing_cases, forged, p.forgery_trials, p.forgery_warmup),
    }
    timed = timing.measure_groups_in_processes(cold, processes=p.processes, seed=seed, desc="aead, cold calls",
                                               min_trial_seconds=min_trial_seconds, fresh_above=fresh_above)
    timed.update(timing.measure_groups_in_processes(groups, processes=p.processes, seed=seed, desc="aead",
                                                    min_trial_seconds=min_trial_seconds))
    counts = {"aead_cold": (p.processes, 0, 0.0),
              "aead_phase1": (p.trials, p.warmup, min_trial_seconds),
              "aead_phase2": (p.phase2_trials, p.warmup, phase2_min),
              "aead_forgery": (p.forgery_trials, p.forgery_warmup, min_trial_seconds)}
    out: dict[str, Any] = {}
    for name, (trials, warmup, trial_seconds) in counts.items():
        run_id = new_run_id()
        frame = timed[name]
        frame["run_id"] = run_id
        out[name] = (frame, dict(run_id=run_id, trials=trials, warmup=warmup, min_trial_seconds=trial_seconds,
                                 call_overhead_s=overhead,
                                 allocator=timing.allocator_policy(fresh_above if name == "aead_cold" else 0)))
    out["aead_forgery_outcomes"] = forgery.forgery_outcomes(**forged)
    return out


def _published(*names: str) -> pd.DataFrame:
    return pd.concat([paper.published(PAPER, n) for n in names], ignore_index=True)


def collect(phase1: pd.DataFrame, phase2: pd.DataFrame, forgery_times: pd.DataFrame, outcomes: pd.DataFrame,
            flips: pd.DataFrame, wyche: pd.DataFrame, rewrite: pd.DataFrame, *, profile: str,
            seed: int = 0, cold: "pd.DataFrame | None" = None, mb_bytes: int = MB) -> list:
    """Evidence for every testable claim and extension of paper 003 in ``claims.csv`` (one row each): the
    tables' and figures' claims (:mod:`.evidence`), then the sentence-by-sentence reading's (:mod:`.sentence_claims`)."""
    for name, df in (("phase1", phase1), ("phase2", phase2), ("forgery_times", forgery_times)):
        if "instance" not in df.columns or not (df["instance"] == "control").any():
            raise ValueError(f"{name} has no A/A control trials (instance='control'): re-run the measuring notebook")
    warm = (evidence.table_claims(phase1, phase2, forgery_times, outcomes, flips, wyche, rewrite, profile=profile,
                                  seed=seed)
            + sentence_claims(phase1, phase2, forgery_times, profile=profile, seed=seed)
            + consistency_claims(phase1, profile=profile, seed=seed)
            + reread.reread_evidence(phase1, phase2, profile=profile, seed=seed))
    if cold is None:
        return warm
    # a claim decided under the paper's protocol has two rows: the protocol is their reading. The ratios of two
    # printed times or speeds (Figs. 5-10, each a single call per file) are measured both ways too: their claim
    # rows' decided_by picks the paper's protocol, the warm medians shown beside it
    cold1, cold2 = cold[cold["phase"] == 1], cold[cold["phase"] == 2]
    ratios = [dataclasses.replace(e, style=protocol.COLD_STYLE, reading=protocol.COLD_READING)
              for e in evidence.ratio_evidence(cold1, cold2, profile=profile, seed=seed, phases=(1, 2))]
    both = set(protocol.COLD_CLAIMS) | set(GAIN_CLAIMS) | {e.claim_id for e in ratios} | {LOWEST_START}
    warm = [dataclasses.replace(e, reading=protocol.WARM_READING) if e.claim_id in both else
            dataclasses.replace(e, reading=f"{protocol.WARM_READING}, {e.reading}") if e.claim_id in LEVEL_CLAIMS else e
            for e in warm]
    # the flat claims of Figs. 9-10 describe the paper's figures, timed one cold call per file: each size's reading
    # under that protocol too (the claim rows' readings: every), as their rises are decided
    levels = [dataclasses.replace(e, style=protocol.COLD_STYLE, statistic=protocol.COLD_STATISTIC,
                                  reading=f"{protocol.COLD_READING}, {e.reading}")
              for e in level_evidence(cold2, profile=profile, seed=seed)]
    gains = gain_evidence(cold1, cold2, profile=profile, seed=seed,
                          style=protocol.COLD_STYLE, reading=protocol.COLD_READING) + ratios
    # Fig. 9's start is decided under the paper's protocol (its claim row's decided_by), the warm row shown beside it
    gains.append(dataclasses.replace(lowest_start_evidence(cold2, profile=profile, seed=seed, mb_bytes=mb_bytes),
                                     style=protocol.COLD_STYLE, reading=protocol.COLD_READING))
    gains += trend_words_evidence(phase1, cold1, profile=profile, seed=seed, cold_style=protocol.COLD_STYLE,
                                  cold_reading=protocol.COLD_READING, warm_reading=protocol.WARM_READING)
    testable = evidence.paper_claims().set_index("claim_id")["rule"] != "not_testable"
    bound = [e for e in protocol_bound_evidence(protocol.cold_table(cold, phase1, phase2, mb_bytes), profile=profile)
             if testable.get(e.claim_id, False)]   # a claim row may declare it not testable (its note says why)
    out = (warm + protocol.cold_evidence(cold, profile=profile, seed=seed, level_bytes=mb_bytes) + gains + levels + bound
           + stability.stability_evidence(phase1, profile=profile, seed=seed, cold=cold))
    return out + direction_rows(out)


#: A row that states only the direction of another row's statistic (whose size belongs to the paper's machine):
#: claim -> the row whose evidence, under every protocol, it is decided on. Table 4's "its efficiency improves
#: with increasing data size" is Fig. 9's AES-EAX rise, without Fig. 9's 95 and 400 MB/s.
DIRECTION_ROWS = {"003-t4-aes-improves": "003-f9-aes-tp-climbs-enc"}


def direction_rows(evs: list) -> list:
    """The evidence of each :data:`DIRECTION_ROWS` claim: its source row's evidence, every reading, under its id."""
    return [dataclasses.replace(e, claim_id=cid) for cid, src in DIRECTION_ROWS.items()
            for e in evs if e.claim_id == src]


def build(run, raw: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Every table and figure of the chapter page from the raw files, by name (the chapter's declared outputs).
    The figures are closed (no longer pyplot's), so a notebook cell does not display them; they are
    saved by :func:`cipherlab.experiments.outputs.save`, and the page shows the saved files.

    Besides the timings: the deterministic experiments (Wycheproof, bit flipping, the CTR field
    rewrite), the evidence for every claim of paper 003 (``evidence_aead``), and the published
    values beside ours.  ``aead_machine`` reads phase 1's provenance record.
    """
    p, seed, prof = run.params, run.seed, run.profile
    plotting.style()
    phase1, phase2, forgery_times, outcomes = (raw[k] for k in ("aead_phase1", "aead_phase2", "aead_forgery",
                                                                  "aead_forgery_outcomes"))
    s1, s2 = throughput_summary(phase1, p.mb_bytes), throughput_summary(phase2, p.mb_bytes)
    prose = _published(*(f"Figure {i} (prose)" for i in (5, 7, 8, 9, 10)))
    paper_sizes_mb = paper.published(PAPER, "Pseudocode 3 (setup)")["number"].tolist()

    msg, aad = p.message.encode(), p.aad.encode()
    wyche = wycheproof.run_wycheproof(progress=False)
    flips = pd.concat([bitflip.bitflip_aead(msg, aad, seed=seed), bitflip.bitflip_unauthenticated(msg, seed=seed)],
                      ignore_index=True)
    rewrite = bitflip.ctr_field_rewrite(msg, p.field_old.encode(), p.field_new.encode(), seed=seed, aad=aad)
    found = collect(phase1, phase2, forgery_times, outcomes, flips, wyche, rewrite, profile=prof.name, seed=seed,
                    cold=raw["aead_cold"], mb_bytes=p.mb_bytes)
    out_cold = protocol.cold_table(raw["aead_cold"], phase1, phase2, p.mb_bytes)

    out: dict[str, Any] = {"aead_phase1_summary": s1, "aead_phase2_summary": s2,
                           "evidence_aead": evidence_table(found), "aead_protocols": out_cold}
    out["aead_machine"] = tables.machine_comparison(
        pd.concat([paper.published(PAPER, "Section 4.1 (setup)"),
                   paper.published(PAPER, "Section 4.2 (setup)")]), read_raw_meta("aead_phase1", prof))
    out.update(figures.size_figures(s1, s2, prose, paper_sizes_mb))
    out["aead_linear_fit"] = linearity.linear_fit_table(phase1)
    out["aead_stability"] = stability.stability_table(raw["aead_cold"], phase1, p.mb_bytes)
    out["aead_ratios"] = tables.throughput_ratios(s1, s2)
    ours_rank = pd.concat([tables.ranking_table(s1, "mode"), tables.ranking_table(s2, "cipher")], ignore_index=True)
    out["aead_ranking_ours"] = ours_rank
    out["aead_ranking_vs_paper"] = tables.ranking_beside_paper(ours_rank, _published(*(f"Table {i}" for i in (1, 2, 3, 4))))
    out["aead_prose_vs_paper"] = tables.prose_comparison(s1, s2, prose)

    ftab = forgery.forgery_table(forgery_times, outcomes)
    out["aead_forgery_times"] = ftab
    out["aead_forgery_outcomes"] = forgery.forgery_outcome_table(outcomes)
    sizes_by_table = dict(zip(("Table 5", "Table 6", "Table 7"), sorted(ftab["bytes"].unique())))
    paper_forgery_sizes = dict(zip(sizes_by_table, paper.published(PAPER, "Section 5.2 (setup)")["value"]))
    pub_forgery = _published(*(f"Table {i}" for i in (5, 6, 7)))
    out["aead_forgery_vs_paper"] = forgery.forgery_beside_paper(ftab, pub_forgery, sizes_by_table)
    out.update(figures.forgery_figures(ftab, pub_forgery, sizes_by_table, paper_forgery_sizes, p.mb_bytes))

    out["aead_wycheproof"] = wycheproof.wycheproof_summary(wyche)
    out["aead_wycheproof_unsupported"] = wycheproof.wycheproof_unsupported(wyche)
    bound = forgery.forgery_bound_table(log2_q_max=p.log2_q_max)
    out["aead_forgery_bound"] = bound
    out["aead_forgery_bound_figure"] = figures.plot_forgery_bound(bound)
    # guesses only: a random tag is a guess of the tag; a bit-flipped one is no guess (003-s6-consistent-bound)
    guesses = outcomes[outcomes["kind"] == "random_tag"]
    n_guesses = int(guesses.shape[0])
    out["aead_trials_to_observe"] = forgery.trials_to_observe(sorted(bound["tag_bits"].unique()), n_guesses,
                                                              n_guesses - int(guesses["rejected"].sum()))
    out["aead_bitflip_acceptance"] = bitflip.acceptance_table(flips)
    out["aead_ctr_rewrite"] = rewrite
    for fig in out.values():   # drawn, not shown: the page shows the saved files (outputs.show_figure)
        if isinstance(fig, Figure):
            plt.close(fig)
    return out
