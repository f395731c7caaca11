"""The AES-2SBox chapter end to end: what its two notebooks compute, by output name.

:func:`measure` times Tables 3-5 (``aes2sbox_measure.ipynb``); :func:`build`
rebuilds every table and figure of the chapter page (``aes2sbox.ipynb``) from
the raw timings and the published values. Both take a validated
:class:`cipherlab.pipeline.params.Run` (``run.profile``, ``run.seed``,
``run.params``: the chapter's :class:`.chapter.Params`) and trust its values;
the functions they call check their own arguments for direct callers.
"""
from __future__ import annotations

import warnings
from contextlib import contextmanager
from typing import Any, Mapping

import matplotlib.pyplot as plt
import pandas as pd

from cipherlab.analysis import timing, verdicts
from cipherlab.analysis.evidence import evidence_table
from cipherlab.ciphers.modes import InsecureCipherWarning
from cipherlab.ciphers.sboxes import second_sbox
from cipherlab.pipeline.inputs import read_input
from cipherlab.pipeline.provenance import new_run_id
from cipherlab.pipeline.results import read_raw_meta

from cipherlab.experiments.aes2sbox.audit import audit_published_stats
from cipherlab.experiments.aes2sbox.avalanche import (avalanche_by_position, avalanche_distribution,
                                                      avalanche_histogram, avalanche_pairs, avalanche_summary)
from cipherlab.experiments.aes2sbox.common import PAPERS
from cipherlab.experiments.aes2sbox.evidence import chapter_evidence, sbox_differences
from cipherlab.experiments.aes2sbox.figures import plot_avalanche, plot_speed_trials
from cipherlab.experiments.aes2sbox.measure import run_protocols
from cipherlab.experiments.aes2sbox.sboxes import construction_match_table, sbox_grid
from cipherlab.experiments.aes2sbox.tables import speed_table, welch_long

#: The raw file of the timings (``CHAPTER.measure.raw``).
SPEED = "aes2sbox_speed"
#: Columns of the pairs not timed, as recorded in the raw file's provenance (``skipped``).
SKIPPED_COLUMNS = ["protocol", "file", "cipher", "impl", "reason"]
#: How the evidence names the key of the avalanche pairs.
KEY_LABEL = "FIPS-197 Appendix B key"


@contextmanager
def _quiet():
    """AES-2SBox objects warn at each construction; the chapter's pages show the warning once, above."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InsecureCipherWarning)
        yield


def measure(run) -> dict[str, Any]:
    """Both published protocols timed (:func:`.measure.run_protocols`): ``{"aes2sbox_speed": (raw, extra)}``.

    ``extra`` is the provenance beside the run's parameters: ``run_id``,
    ``min_trial_seconds`` (the declared batching threshold, ``config/verdicts.yaml``),
    ``kb_bytes`` (1 KB = 1024 bytes), ``first_call_seconds`` (each case's first
    call), ``skipped`` (the pairs not timed, and why) and ``empty_call_seconds``.
    """
    p = run.params
    min_trial_seconds = float(verdicts.load_rules()["min_trial_seconds"])
    run_id = new_run_id()
    with _quiet():
        raw, first_call, skipped = run_protocols(
            p.protocols, lambda name: read_input(run.profile.input_file(name)), key=p.key_hex, impls=p.impls,
            mode=p.mode, threads=p.threads, xor_byte=p.xor_byte, construction=p.construction, seed=run.seed,
            run_id=run_id, min_trial_seconds=min_trial_seconds, processes=p.processes, progress=False)
    overhead = timing.call_overhead(min_trial_seconds=min_trial_seconds)
    extra = dict(run_id=run_id, min_trial_seconds=min_trial_seconds, kb_bytes=1024,
                 first_call_seconds=first_call.to_dict("records"), skipped=skipped.to_dict("records"),
                 empty_call_seconds=overhead)
    return {SPEED: (raw, extra)}


def _detached(fig):
    """``fig`` released by pyplot: saved by the framework and shown where its section is (the saved PNG),
    not drawn again at the end of the notebook cell that built it."""
    plt.close(fig)
    return fig


def speed_raw(raw: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The timed trials, their protocol as the paper's three digits (a CSV reads ``000`` back as 0)."""
    frame = raw[SPEED].copy()
    frame["protocol"] = frame["protocol"].astype(str).str.zfill(3)
    return frame


def speed_meta(run) -> dict:
    """The provenance record of the timings (machine, run id, the pairs not timed, the empty-call overhead)."""
    return read_raw_meta(SPEED, run.profile)


def skipped_pairs(meta: Mapping[str, Any]) -> pd.DataFrame:
    """The (cipher, style) pairs the measuring run could not build, and why."""
    return pd.DataFrame(meta.get("skipped", []), columns=SKIPPED_COLUMNS)


def build(run, raw: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Every table and figure of the chapter page, by name (``CHAPTER.tables``, ``timing_tables``, ``figures``).

    The figures are released by pyplot (they are saved, then shown as saved). The evidence
    (``evidence_aes2sbox``) is the frame of
    :func:`cipherlab.analysis.verdicts.evidence_frame`; a claim id that
    ``data/paper/claims.csv`` lacks is an error here.
    """
    p, profile = run.params, run.profile.name
    speed = speed_raw(raw)
    skipped = skipped_pairs(speed_meta(run))
    out: dict[str, Any] = {}
    with _quiet():
        out["aes2sbox_construction"] = construction_match_table()
        out["aes2sbox_sbox_diff"] = pd.concat([sbox_differences(paper, p.construction) for paper in PAPERS],
                                              ignore_index=True)
        ours_sbox, ours_inverse = second_sbox(p.xor_byte, p.construction)
        out["aes2sbox_table1"] = sbox_grid(ours_sbox).reset_index()
        out["aes2sbox_table2"] = sbox_grid(ours_inverse).reset_index()
        out["aes2sbox_speed_trials"] = _detached(plot_speed_trials(speed))
        out["aes2sbox_speedup"] = speed_table(speed, skipped, profile=profile, seed=run.seed, alpha=p.alpha)
        out["aes2sbox_welch"] = welch_long(speed, alpha=p.alpha)
        audit = out["aes2sbox_audit"] = audit_published_stats(alpha=p.alpha)
        pairs = out["aes2sbox_avalanche_pairs"] = avalanche_pairs(
            key=p.key_hex, impl=p.avalanche_impl, xor_byte=p.xor_byte, construction=p.construction)
        dist = avalanche_distribution(n_plaintexts=p.avalanche_plaintexts, n_keys=p.avalanche_keys, key=p.key_hex,
                                      seed=run.seed, impl=p.avalanche_impl, xor_byte=p.xor_byte,
                                      construction=p.construction)
        summary = out["aes2sbox_avalanche_summary"] = avalanche_summary(dist)
        by_position = out["aes2sbox_avalanche_by_position"] = avalanche_by_position(dist)
        hist = out["aes2sbox_avalanche_histogram"] = avalanche_histogram(dist)
        out["aes2sbox_avalanche"] = _detached(plot_avalanche(hist, by_position, pairs))
        evidence = chapter_evidence(audit=audit, pairs=pairs, dist=dist, summary=summary, speed_raw=speed,
                                    construction=p.construction, profile=profile, avalanche_impl=p.avalanche_impl,
                                    key_label=KEY_LABEL, seed=run.seed)
    out["evidence_aes2sbox"] = evidence_table(evidence)
    return out
