"""In-process timing: warm-up, interleaved trials, tidy results.

Speed comparisons in cipherlab are ratios measured side by side in one run.
:func:`measure` therefore interleaves the cases trial by trial (in a seeded
random order per round), so that drift in machine load hits every case alike
instead of biasing whichever ran last.
"""
from __future__ import annotations

import gc
import time
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from tqdm import tqdm  # plain text bar: tqdm.auto warns without ipywidgets

from .provenance import new_run_id

#: Columns every timing frame carries, in this order (labels may add more).
TIMING_COLUMNS = ("cipher", "impl", "mode", "operation", "bytes", "trial", "seconds", "run_id")


def compile_seconds(fn: Callable[[], Any]) -> float:
    """Seconds taken by the first call of ``fn``: JIT compile (or cache load) plus one run.

    Call it before any timed trial, and report it apart from the trials.
    """
    start = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - start) / 1e9


def time_calls(fn: Callable[[], Any], trials: int, warmup: int = 1) -> np.ndarray:
    """Seconds per call of ``fn`` for ``trials`` calls after ``warmup`` untimed calls."""
    _check_counts(trials, warmup)
    for _ in range(warmup):
        fn()
    out = np.empty(trials, dtype=np.float64)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for i in range(trials):
            start = time.perf_counter_ns()
            fn()
            out[i] = (time.perf_counter_ns() - start) / 1e9
    finally:
        if gc_was_enabled:
            gc.enable()
    return out


def calls_per_trial(fn: Callable[[], Any], min_trial_seconds: float, probes: int = 5) -> int:
    """How many calls of ``fn`` make one trial last at least ``min_trial_seconds``.

    The fastest of ``probes`` timed single calls sets it, so that a pre-empted
    probe cannot shrink the batch.  ``min_trial_seconds = 0`` gives 1.
    """
    if not (isinstance(min_trial_seconds, (int, float)) and np.isfinite(min_trial_seconds)) or min_trial_seconds < 0:
        raise ValueError(f"min_trial_seconds must be a finite number >= 0, got {min_trial_seconds!r}")
    if min_trial_seconds == 0:
        return 1
    best = np.inf
    for _ in range(probes):
        start = time.perf_counter_ns()
        fn()
        best = min(best, (time.perf_counter_ns() - start) / 1e9)
    return max(1, int(np.ceil(min_trial_seconds / max(best, 1e-9))))


def call_overhead(trials: int = 50, min_trial_seconds: float = 1e-3) -> float:
    """Seconds per call of an empty Python function under the batched protocol of :func:`measure`.

    Report it beside timings of short operations: it is the floor below which
    a per-call time measures the dispatch, not the work.
    """
    def empty():
        return None

    df = measure([{"cipher": "(empty call)", "fn": empty}], trials=trials, warmup=1,
                 min_trial_seconds=min_trial_seconds, progress=False, run_id="overhead")
    return float(np.median(df["seconds"]))


def measure(cases: Sequence[Mapping[str, Any]], *, trials: int, warmup: int = 1,
            run_id: "str | None" = None, seed: int = 0, progress: bool = True,
            desc: str = "timing", min_trial_seconds: float = 0.0) -> pd.DataFrame:
    """Time several cases side by side.

    Parameters
    ----------
    cases : sequence of mapping
        Each case holds label fields (``cipher``, ``impl``, ``mode``,
        ``operation``, ``bytes``, and any others) and ``fn``, a zero-argument
        callable doing the work to be timed.  Inputs must be prepared outside
        ``fn`` so no I/O or set-up lands inside the timed region.
    trials : int
        Timed calls per case (>= 1).
    warmup : int
        Untimed calls per case before the first trial (>= 0); the JIT is
        compiled by then.
    run_id : str, optional
        Identifies the run in the metadata; a fresh one by default.
    seed : int
        Seeds the per-round order of the cases.
    progress : bool
        Show a tqdm progress bar.
    min_trial_seconds : float
        Batching: a case whose single call is shorter than this is called
        ``k`` times per trial (:func:`calls_per_trial`, fixed per case after the
        warm-up), and ``seconds`` is the trial's time divided by ``k``.  0 (the
        default) times single calls.

    Returns
    -------
    DataFrame
        One row per case and trial: the label fields, ``trial`` (0-based),
        ``seconds`` (per call), ``calls`` (calls in the trial) and ``run_id``.
    """
    _check_counts(trials, warmup)
    if not cases:
        raise ValueError("cases must hold at least one case")
    for i, case in enumerate(cases):
        if "fn" not in case or not callable(case["fn"]):
            raise ValueError(f"cases[{i}] needs a callable 'fn'")
    run_id = run_id or new_run_id()
    for case in cases:
        for _ in range(warmup):
            case["fn"]()
    calls = [calls_per_trial(case["fn"], min_trial_seconds) for case in cases]
    rng = np.random.default_rng(seed)
    seconds = np.empty((len(cases), trials), dtype=np.float64)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for t in tqdm(range(trials), desc=desc, disable=not progress, leave=False):
            for idx in rng.permutation(len(cases)):
                fn, k = cases[idx]["fn"], calls[idx]
                start = time.perf_counter_ns()
                for _ in range(k):
                    fn()
                seconds[idx, t] = (time.perf_counter_ns() - start) / 1e9 / k
    finally:
        if gc_was_enabled:
            gc.enable()
    rows = []
    for idx, case in enumerate(cases):
        labels = {k: v for k, v in case.items() if k != "fn"}
        for t in range(trials):
            rows.append({**labels, "trial": t, "seconds": seconds[idx, t], "calls": calls[idx], "run_id": run_id})
    df = pd.DataFrame(rows)
    lead = [c for c in TIMING_COLUMNS if c in df.columns]
    return df[lead + [c for c in df.columns if c not in lead]]


def _check_counts(trials: int, warmup: int) -> None:
    if not isinstance(trials, (int, np.integer)) or trials < 1:
        raise ValueError(f"trials must be an integer >= 1, got {trials!r}")
    if not isinstance(warmup, (int, np.integer)) or warmup < 0:
        raise ValueError(f"warmup must be an integer >= 0, got {warmup!r}")
