"""Timing: warm-up, interleaved trials, fresh processes, tidy results.

Speed comparisons in cipherlab are ratios measured side by side in one run.
:func:`measure` therefore interleaves the cases trial by trial (in a seeded
random order per round), so that drift in machine load hits every case alike
instead of biasing whichever ran last.

One process is not enough: the same kernel can run at a different speed in
each fresh interpreter (code and data placement, which core the process lands
on), and a bootstrap over the trials of one process cannot see that.
:func:`measure_in_processes` therefore repeats the interleaved measurement in
several fresh interpreters, one after another, and tags each trial with its
``process``; :func:`trials_by_process` arranges the times as a processes x
trials array, which :func:`cipherlab.analysis.stats.speedup_ci` resamples at both levels.
"""
from __future__ import annotations

import ctypes
import gc
import math
import multiprocessing
import os
import platform
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Mapping, NamedTuple, Sequence

import numpy as np
import pandas as pd
from tqdm import tqdm  # plain text bar: tqdm.auto warns without ipywidgets

from cipherlab.pipeline.parent_bound_kernel import die_with_parent
from cipherlab.pipeline.provenance import new_run_id

#: Columns every timing frame carries, in this order (labels may add more).
TIMING_COLUMNS = ("cipher", "impl", "mode", "operation", "bytes", "process", "trial", "seconds", "run_id")

_M_MMAP_THRESHOLD = -3      # glibc's mallopt parameter number


def fresh_mappings(threshold: int) -> bool:
    """Make every block of at least ``threshold`` bytes a fresh mapping in this process, whatever ran before.

    glibc raises its mmap threshold to the size of the largest mapped block freed so far, so that after one
    large call the process's later large blocks come from the heap, often on pages touched before: a single
    call's cost then depends on which calls ran before it in the process (measured: a 5 MB AES-EAX call at
    1.3 or 2.2 ns per byte by that alone, its output buffer recycled or freshly mapped).  Pinning the threshold
    turns the raise off: every block from ``threshold`` up costs its first touch, in any order, as in a program
    that times each file once.  Returns False, changing nothing, where the C library is not glibc (its
    allocator behaves as it does); call it in a fresh process, before anything is timed.
    """
    if int(threshold) <= 0:
        raise ValueError(f"threshold must be a positive number of bytes, got {threshold!r}")
    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        return ctypes.CDLL(None).mallopt(_M_MMAP_THRESHOLD, int(threshold)) == 1
    except (OSError, AttributeError):     # pragma: no cover - glibc always has mallopt
        return False


def allocator_policy(fresh_above: int) -> str:
    """The provenance text of a timing group's allocator (:func:`fresh_mappings` from ``fresh_above`` bytes, or 0)."""
    if not fresh_above:
        return "the C library's default (glibc: its mmap threshold rises with the largest block freed)"
    if platform.libc_ver()[0] != "glibc":
        return "the C library's own (not glibc: no threshold to pin)"
    return f"every block of {int(fresh_above)} bytes or more a fresh mapping (glibc's mmap threshold pinned)"


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

    The fastest of up to ``probes`` timed single calls sets it, so that a
    pre-empted probe cannot shrink the batch.  Probing stops early once the
    probes together took ``probes * min_trial_seconds``: such calls are long
    enough that the batch is 1 or 2 anyway, and five more calls of a 0.4 s
    operation would cost seconds.  ``min_trial_seconds = 0`` gives 1.
    """
    if not (isinstance(min_trial_seconds, (int, float)) and np.isfinite(min_trial_seconds)) or min_trial_seconds < 0:
        raise ValueError(f"min_trial_seconds must be a finite number >= 0, got {min_trial_seconds!r}")
    if min_trial_seconds == 0:
        return 1
    best, spent = np.inf, 0.0
    for _ in range(probes):
        start = time.perf_counter_ns()
        fn()
        took = (time.perf_counter_ns() - start) / 1e9
        best, spent = min(best, took), spent + took
        if spent >= probes * min_trial_seconds:
            break
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
            desc: str = "timing", min_trial_seconds: float = 0.0, counterbalance: "str | None" = None,
            mirror: bool = False) -> pd.DataFrame:
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
    counterbalance : str, optional
        A label that tells a case from its twin (``instance``: ``main`` and
        ``control`` of an A/A control): cases equal in every other label are
        twins, two at most.  With ``mirror``, each round's order is drawn as
        without it and then every pair of twins swaps places, so that two
        processes with the same ``seed``, one mirrored, put each case where
        the other put its twin (see :func:`counterbalanced_order`).
    mirror : bool
        Swap the twins of ``counterbalance`` in every round's order.

    Returns
    -------
    DataFrame
        One row per case and trial: the label fields, ``process`` (0: this
        one; see :func:`measure_in_processes`), ``trial`` (0-based),
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
    twins = twin_pairs([{k: v for k, v in c.items() if k != "fn"} for c in cases], counterbalance) \
        if counterbalance else []
    rng = np.random.default_rng(seed)
    seconds = np.empty((len(cases), trials), dtype=np.float64)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for t in tqdm(range(trials), desc=desc, disable=not progress, leave=False):
            for idx in counterbalanced_order(rng.permutation(len(cases)), twins if mirror else ()):
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
            rows.append({**labels, "process": 0, "trial": t, "seconds": seconds[idx, t], "calls": calls[idx],
                         "run_id": run_id})
    df = pd.DataFrame(rows)
    lead = [c for c in TIMING_COLUMNS if c in df.columns]
    return df[lead + [c for c in df.columns if c not in lead]]


def twin_pairs(labels: Sequence[Mapping[str, Any]], counterbalance: str) -> list[tuple[int, int]]:
    """Index pairs of cases that differ only in the label ``counterbalance`` (a case and its A/A twin)."""
    groups: dict[tuple, list[int]] = {}
    for i, lab in enumerate(labels):
        if counterbalance not in lab:
            raise ValueError(f"counterbalance: case {i} has no label {counterbalance!r}")
        key = tuple(sorted((k, repr(v)) for k, v in lab.items() if k != counterbalance))
        groups.setdefault(key, []).append(i)
    for idx in groups.values():
        if len(idx) > 2:
            raise ValueError(f"counterbalance: cases {idx} differ only in {counterbalance!r}; twins come in pairs")
    return [(idx[0], idx[1]) for idx in groups.values() if len(idx) == 2]


def counterbalanced_order(order: Sequence[int], twins: Sequence[tuple[int, int]]) -> np.ndarray:
    """``order`` (case indices in the order they are called) with each pair of ``twins`` swapping places.

    A process that calls each case once (the paper-003 protocol of one cold
    call) feels where in the order a call lands: the first calls pay for the
    interpreter's first touches.  A random order per process leaves the
    positions of a case and its A/A twin unbalanced over a dozen processes, so
    the A/A control picks up an order effect as if it were noise.  Processes
    taken in pairs, the second calling the first's order with the twins
    swapped (ABBA), give each case exactly its twin's positions, so any
    position effect cancels in the A/A ratio, and each case precedes its twin
    in exactly half of the processes.
    """
    out = np.asarray(order).copy()
    where = {int(c): i for i, c in enumerate(out)}
    for a, b in twins:
        out[where[a]], out[where[b]] = b, a
    return out


def trials_per_process(trials: int, processes: int) -> int:
    """Trials each process runs so that ``processes`` processes give at least ``trials`` in all."""
    _check_counts(trials, 0)
    _check_processes(processes)
    return math.ceil(trials / processes)


def measure_in_processes(build_cases: Callable[..., Sequence[Mapping[str, Any]]], build_kwargs: Mapping[str, Any],
                         *, processes: int, trials: int, warmup: int = 1, run_id: "str | None" = None,
                         seed: int = 0, progress: bool = True, desc: str = "timing",
                         min_trial_seconds: float = 0.0) -> pd.DataFrame:
    """:func:`measure` repeated in ``processes`` fresh interpreters, one after another.

    Each process imports the library anew, builds its cases with
    ``build_cases(**build_kwargs)`` (a module-level function, so that it can be
    sent to the process; the cases hold closures, which cannot), warms them up
    and runs ``trials_per_process(trials, processes)`` interleaved trials of
    each, with the order seeded by ``seed + process``.  Only one process runs
    at a time, so they never compete for the cores, and each dies with its
    parent (a killed run leaves no timing process behind).

    Returns
    -------
    DataFrame
        As :func:`measure`, with ``process`` (0-based) beside ``trial``.
    """
    return measure_groups_in_processes({"": (build_cases, build_kwargs, trials)}, processes=processes,
                                       warmup=warmup, run_id=run_id, seed=seed, progress=progress, desc=desc,
                                       min_trial_seconds=min_trial_seconds)[""]


class TimingGroup(NamedTuple):
    """One group of :func:`measure_groups_in_processes`: cases timed interleaved among themselves.

    ``warmup`` and ``min_trial_seconds`` default (``None``) to the call's own.
    ``counterbalance`` (a label, e.g. ``instance``) orders the group by process
    pairs: process ``2k + 1`` repeats the order of process ``2k`` (seeded by
    ``seed + 2k``) with each case and its twin swapped (:func:`counterbalanced_order`);
    ``None`` draws each process's order from ``seed + process``.
    """
    build_cases: Callable[..., Sequence[Mapping[str, Any]]]
    build_kwargs: Mapping[str, Any]
    trials: int
    warmup: "int | None" = None
    min_trial_seconds: "float | None" = None
    counterbalance: "str | None" = None


def measure_groups_in_processes(groups: Mapping[str, "TimingGroup | tuple"],
                                *, processes: int, warmup: int = 1, run_id: "str | None" = None, seed: int = 0,
                                progress: bool = True, desc: str = "timing",
                                min_trial_seconds: float = 0.0, fresh_above: int = 0) -> "dict[str, pd.DataFrame]":
    """Several groups of cases, each timed as :func:`measure_in_processes` would, sharing the processes.

    ``groups`` maps a name to a :class:`TimingGroup` (or the tuple
    ``(build_cases, build_kwargs, trials[, warmup[, min_trial_seconds]])``);
    a group may warm up and batch its own way (a group of long calls may
    want longer trials).  Each
    fresh process times every group in turn (the cases of one group
    interleaved among themselves), so that ``processes`` interpreters start
    in all instead of ``processes`` per group: starting one costs seconds.
    ``fresh_above`` (bytes, 0 for none): each process calls :func:`fresh_mappings` with it before it builds or
    times anything.
    """
    _check_processes(processes)
    if not groups:
        raise ValueError("groups must hold at least one group")
    plan = {}
    for name, group in groups.items():
        if not (isinstance(group, tuple) and 3 <= len(group) <= 6):
            raise ValueError(f"groups[{name!r}] must be a TimingGroup "
                             "(build_cases, build_kwargs, trials[, warmup[, min_trial_seconds[, counterbalance]]])")
        group = TimingGroup(*group)
        group_warmup = warmup if group.warmup is None else group.warmup
        group_min = min_trial_seconds if group.min_trial_seconds is None else group.min_trial_seconds
        _check_counts(group.trials, group_warmup)
        build = group.build_cases
        if not callable(build) or getattr(build, "__name__", "<lambda>") == "<lambda>":
            raise ValueError("build_cases must be a module-level function (it is sent to a fresh process)")
        plan[name] = (build, dict(group.build_kwargs), trials_per_process(group.trials, processes), group_warmup,
                      group_min, group.counterbalance)
    run_id = run_id or new_run_id()
    frames: dict[str, list[pd.DataFrame]] = {name: [] for name in plan}
    ctx = multiprocessing.get_context("spawn")
    for proc in tqdm(range(processes), desc=desc, disable=not progress, leave=False):
        with ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=die_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            got = pool.submit(_measure_built, plan, list(warnings.filters), run_id=run_id,
                              seed=seed, process=proc, fresh_above=fresh_above).result()
        for name, df in got.items():
            df["process"] = proc
            frames[name].append(df)
    out = {}
    for name, parts in frames.items():
        df = pd.concat(parts, ignore_index=True)
        lead = [c for c in TIMING_COLUMNS if c in df.columns]
        out[name] = df[lead + [c for c in df.columns if c not in lead]]
    return out


def _measure_built(plan, warning_filters, *, seed: int, process: int, fresh_above: int = 0,
                   **kwargs) -> "dict[str, pd.DataFrame]":
    """Run in the fresh process: build each group's cases there (under the parent's warning filters), time them
    (a counterbalanced group in the order of its pair of processes, :class:`TimingGroup`)."""
    if fresh_above:
        fresh_mappings(fresh_above)
    out = {}
    with warnings.catch_warnings():
        warnings.filters[:] = warning_filters
        for name, (build_cases, build_kwargs, trials, warmup, min_trial_seconds, balance) in plan.items():
            order = (dict(seed=seed + process - process % 2, counterbalance=balance, mirror=process % 2 == 1)
                     if balance else dict(seed=seed + process))
            out[name] = measure(build_cases(**build_kwargs), trials=trials, warmup=warmup, progress=False,
                                min_trial_seconds=min_trial_seconds, **order, **kwargs)
    return out


def trials_by_process(frame: pd.DataFrame, value: str = "seconds") -> np.ndarray:
    """The ``value`` of one case's trials as a processes x trials array.

    A frame without a ``process`` column is one process.  Every process must
    hold the same number of trials, as :func:`measure_in_processes` gives.
    Each row is in ``trial`` order, so that column ``t`` of two cases of one
    measurement holds calls timed in the same interleaved round.
    """
    if frame.empty:
        raise ValueError("frame holds no trials")
    if "process" not in frame.columns:
        return frame[value].to_numpy(dtype=np.float64)[None, :]
    if "trial" in frame.columns:   # rounds in order: trial t of every case of one measurement shares its round
        frame = frame.sort_values(["process", "trial"], kind="stable")
    groups = [g[value].to_numpy(dtype=np.float64) for _, g in frame.groupby("process", sort=True)]
    sizes = {g.size for g in groups}
    if len(sizes) != 1:
        raise ValueError(f"every process must hold the same number of trials, got {sorted(sizes)}")
    return np.vstack(groups)


def _check_processes(processes: int) -> None:
    if isinstance(processes, bool) or not isinstance(processes, (int, np.integer)) or processes < 1:
        raise ValueError(f"processes must be an integer >= 1, got {processes!r}")


def _check_counts(trials: int, warmup: int) -> None:
    if not isinstance(trials, (int, np.integer)) or trials < 1:
        raise ValueError(f"trials must be an integer >= 1, got {trials!r}")
    if not isinstance(warmup, (int, np.integer)) or warmup < 0:
        raise ValueError(f"warmup must be an integer >= 0, got {warmup!r}")
