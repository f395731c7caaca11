"""Every timing of paper 003 in one set of fresh processes: phases 1 and 2 and the forged-tag checks.

Each fresh process (``processes`` of them, one after another) times the three
groups in turn, so that three timing groups cost one interpreter start per
process instead of three (:func:`cipherlab.analysis.timing.measure_groups_in_processes`).
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from cipherlab.analysis import timing as _timing
from cipherlab.analysis.timing import TimingGroup
from cipherlab.experiments.aead.forgery import forgery_build, forgery_outcomes, forgery_timing_cases
from cipherlab.experiments.aead.measure import (PHASE1_COMBOS, PHASE1_CONTROL, PHASE2_COMBOS, PHASE2_CONTROL,
                                                aead_build, aead_cases)

#: Raw experiments of the measuring notebook, in the order they are timed.
TIMED = ("aead_phase1", "aead_phase2", "aead_forgery")


def measure_all(data_by_size: Mapping[int, bytes], forgery_data: Mapping[int, bytes], *, trials: int,
                phase2_trials: int, forgery_trials: int, warmup: int, forgery_warmup: int, aad: bytes, seed: int,
                key_bytes: int = 16, nonce_bytes: "Mapping[str, int] | None" = None, min_trial_seconds: float = 0.0,
                phase2_min_trial_seconds: "float | None" = None, processes: int = 1,
                progress: bool = True) -> "dict[str, pd.DataFrame]":
    """Phase 1 (AES in GCM, CCM, EAX; A/A control AES-GCM), phase 2 (EAX with AES, Blowfish, CAST;
    A/A control AES-EAX) and the forged-tag checks (A/A control GCM with random tags), plus
    ``aead_forgery_outcomes``: which seeded tags are rejected (:func:`forgery_outcomes`, untimed).

    ``trials``, ``phase2_trials`` and ``forgery_trials`` count the trials of all processes.
    ``phase2_min_trial_seconds`` (at least ``min_trial_seconds``) batches phase 2
    into longer trials: its few trials per process are then each an average of
    many calls at the small sizes, where single calls last a millisecond.
    """
    if phase2_min_trial_seconds is not None and not (
            isinstance(phase2_min_trial_seconds, (int, float)) and 0 <= phase2_min_trial_seconds < 10):
        raise ValueError(f"phase2_min_trial_seconds must be a number of seconds in [0, 10), "
                         f"got {phase2_min_trial_seconds!r}")
    phase2_min = max(min_trial_seconds, phase2_min_trial_seconds or 0.0)
    phase = dict(aad=aad, seed=seed, key_bytes=key_bytes, nonce_bytes=nonce_bytes)
    forgery = forgery_build(forgery_data, n_tags=forgery_trials, aad=aad, seed=seed)
    groups = {
        "aead_phase1": TimingGroup(aead_cases, aead_build(data_by_size, PHASE1_COMBOS, control=PHASE1_CONTROL,
                                                          **phase), trials, warmup),
        "aead_phase2": TimingGroup(aead_cases, aead_build(data_by_size, PHASE2_COMBOS, control=PHASE2_CONTROL,
                                                          **phase), phase2_trials, warmup, phase2_min),
        "aead_forgery": TimingGroup(forgery_timing_cases, forgery, forgery_trials, forgery_warmup),
    }
    out = _timing.measure_groups_in_processes(groups, processes=processes, seed=seed, progress=progress,
                                              desc="aead", min_trial_seconds=min_trial_seconds)
    out["aead_forgery_outcomes"] = forgery_outcomes(**forgery)
    return out
