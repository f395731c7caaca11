"""cipherlab.analysis.timing: interleaved, seeded trials; warm-up; compile time."""
from __future__ import annotations

import os
import time

import numpy as np
import pandas as pd
import pytest

from cipherlab.analysis import timing
def test_measure_shape_columns_and_interleaving():
    calls = []
    cases = [
        {"cipher": "aes", "impl": "table", "mode": "ecb", "operation": "encrypt", "bytes": 16,
         "fn": lambda: calls.append("a")},
        {"cipher": "maes-1", "impl": "table", "mode": "ecb", "operation": "encrypt", "bytes": 16,
         "extra": "label", "fn": lambda: calls.append("b")},
    ]
    df = timing.measure(cases, trials=5, warmup=2, run_id="run-x", seed=1, progress=False)
    assert len(df) == 10
    assert list(df.columns[:len(timing.TIMING_COLUMNS)]) == list(timing.TIMING_COLUMNS)
    assert "extra" in df.columns and "fn" not in df.columns
    assert (df["run_id"] == "run-x").all()
    assert sorted(df.groupby("cipher")["trial"].apply(list).iloc[0]) == [0, 1, 2, 3, 4]
    assert (df["seconds"] >= 0).all() and np.isfinite(df["seconds"]).all()
    # warm-up: 2 calls per case before the first trial; then every round times each case once
    assert calls[:4] == ["a", "a", "b", "b"]
    rounds = [sorted(calls[4 + 2 * i: 6 + 2 * i]) for i in range(5)]
    assert rounds == [["a", "b"]] * 5
    # the order is seeded: the same seed gives the same interleaving
    df2_calls = []
    cases2 = [dict(c, fn=(lambda k=k: df2_calls.append(k))) for k, c in zip("ab", cases)]
    timing.measure(cases2, trials=5, warmup=2, seed=1, progress=False)
    assert df2_calls == calls


def test_measure_order_varies_between_rounds():
    order = []
    cases = [{"cipher": c, "fn": (lambda c=c: order.append(c))} for c in "abcd"]
    timing.measure(cases, trials=20, warmup=0, seed=3, progress=False)
    rounds = {tuple(order[4 * i: 4 * i + 4]) for i in range(20)}
    assert len(rounds) > 1


@pytest.mark.parametrize("kwargs,match", [
    ({"trials": 0}, "trials must be an integer >= 1"),
    ({"trials": 2.5}, "trials must be an integer >= 1"),
    ({"trials": 2, "warmup": -1}, "warmup must be an integer >= 0"),
])
def test_measure_rejects_bad_counts(kwargs, match):
    with pytest.raises(ValueError, match=match):
        timing.measure([{"cipher": "aes", "fn": lambda: None}], progress=False, **kwargs)


def test_measure_rejects_empty_cases_and_missing_fn():
    with pytest.raises(ValueError, match="at least one case"):
        timing.measure([], trials=1, progress=False)
    with pytest.raises(ValueError, match=r"cases\[1\] needs a callable 'fn'"):
        timing.measure([{"fn": lambda: None}, {"cipher": "x"}], trials=1, progress=False)


def test_time_calls_runs_the_warmup_then_times_each_trial():
    n = []
    out = timing.time_calls(lambda: n.append(1), trials=4, warmup=3)
    assert out.shape == (4,) and len(n) == 7 and (out >= 0).all()


def test_compile_seconds_times_the_one_first_call():
    """The first call, once, and all of it: a call that sleeps 20 ms takes at least that (a wait, not a speed)."""
    calls = []

    def first():
        calls.append(1)
        time.sleep(0.02)
    assert timing.compile_seconds(first) >= 0.02 and calls == [1]


def pid_cases(label: str = "x") -> list[dict]:
    """Cases built in the timing process: each records which process built it (module level: sent by name)."""
    pid = os.getpid()
    return [{"cipher": "aes", "impl": "none", "mode": "none", "operation": label, "bytes": 0, "pid": pid,
             "fn": lambda: None}]


def test_each_process_is_fresh_and_tagged():
    df = timing.measure_in_processes(pid_cases, {"label": "y"}, processes=3, trials=5, warmup=0, seed=1,
                                     progress=False)
    assert sorted(df["process"].unique()) == [0, 1, 2]
    assert df.groupby("process").size().tolist() == [2, 2, 2]          # ceil(5 / 3) trials each
    pids = df.groupby("process")["pid"].first()
    assert pids.nunique() == 3 and os.getpid() not in set(pids)
    assert set(df["operation"]) == {"y"}
    assert list(df.columns[:len(timing.TIMING_COLUMNS)]) == list(timing.TIMING_COLUMNS)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])


def test_processes_must_be_a_positive_integer(bad):
    with pytest.raises(ValueError, match="processes must be an integer >= 1"):
        timing.measure_in_processes(pid_cases, {}, processes=bad, trials=2, progress=False)


def test_builder_must_be_sendable():
    with pytest.raises(ValueError, match="build_cases must be a module-level function"):
        timing.measure_in_processes(lambda: [], {}, processes=1, trials=2, progress=False)


def test_a_group_can_batch_into_longer_trials_than_the_others():
    groups = {"short": timing.TimingGroup(pid_cases, {"label": "short"}, 2),
              "long": timing.TimingGroup(pid_cases, {"label": "long"}, 2, 0, 0.002)}
    out = timing.measure_groups_in_processes(groups, processes=1, min_trial_seconds=0.0, progress=False)
    assert set(out["short"]["calls"]) == {1}
    assert out["long"]["calls"].min() > 10          # an empty call is far below 2 ms
    with pytest.raises(ValueError, match="must be a TimingGroup"):
        timing.measure_groups_in_processes({"x": (pid_cases,)}, processes=1, progress=False)


def test_trials_by_process_shapes():
    df = pd.DataFrame({"process": [0, 0, 1, 1], "trial": [0, 1, 0, 1], "seconds": [1.0, 2.0, 3.0, 4.0]})
    assert timing.trials_by_process(df).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    # rows come back in round order, so that column t of two cases holds one round
    assert timing.trials_by_process(df.iloc[[1, 0, 3, 2]]).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert timing.trials_by_process(df.drop(columns="process")).shape == (1, 4)
    with pytest.raises(ValueError, match="same number of trials"):
        timing.trials_by_process(df.iloc[:3])
    with pytest.raises(ValueError, match="no trials"):
        timing.trials_by_process(df.iloc[:0])


def test_long_calls_are_not_probed_five_times():
    calls = []

    def slow():
        calls.append(1)
        time.sleep(0.004)

    assert timing.calls_per_trial(slow, min_trial_seconds=0.001) == 1
    assert len(calls) <= 2                                  # 2 x 4 ms already exceed 5 x 1 ms


# ---------------------------------------------------------------- counterbalanced order (one cold call per process)
def _cold_labels():
    """Labels like the AEAD chapter's cold cases: 3 main cases and the first one's A/A twin, at 4 sizes x 2 ops."""
    out = []
    for mode, instance in (("gcm", "main"), ("ccm", "main"), ("eax", "main"), ("gcm", "control")):
        for nbytes in (1, 2, 3, 4):
            for op in ("encrypt", "decrypt"):
                out.append({"mode": mode, "bytes": nbytes, "operation": op, "instance": instance})
    return out


def _positions(processes: int, balanced: bool, seed: int = 7) -> np.ndarray:
    """Where each case lands in the one round of each process, as measure_groups_in_processes orders it."""
    labels = _cold_labels()
    twins = timing.twin_pairs(labels, "instance")
    pos = np.empty((processes, len(labels)), dtype=int)
    for p in range(processes):
        if balanced:
            order = timing.counterbalanced_order(np.random.default_rng(seed + p - p % 2).permutation(len(labels)),
                                                 twins if p % 2 else ())
        else:
            order = np.random.default_rng(seed + p).permutation(len(labels))
        pos[p, order] = np.arange(len(labels))
    return pos


def test_twin_pairs_are_the_cases_differing_only_in_the_label():
    labels = _cold_labels()
    twins = timing.twin_pairs(labels, "instance")
    assert len(twins) == 8 and all(labels[a]["mode"] == labels[b]["mode"] == "gcm" for a, b in twins)
    assert all({labels[a]["instance"], labels[b]["instance"]} == {"main", "control"} for a, b in twins)
    with pytest.raises(ValueError, match="has no label 'instance'"):
        timing.twin_pairs([{"mode": "gcm"}], "instance")
    with pytest.raises(ValueError, match="twins come in pairs"):
        timing.twin_pairs([{"m": 1, "i": "a"}, {"m": 1, "i": "b"}, {"m": 1, "i": "c"}], "i")


def test_a_position_effect_cancels_in_the_aa_control_of_a_counterbalanced_cold_measurement():
    """Synthetic: one call per case and process, the first calls slower (a cold interpreter). The A/A log ratio
    (twin over main, mean over 12 processes) is biased under a random order per process, exactly 0 under the
    counterbalanced one, and each case precedes its twin in exactly half of the processes."""
    def cost(pos):
        return 1.0 + 2.0 * np.exp(-pos / 4.0)
    labels = _cold_labels()
    twins = timing.twin_pairs(labels, "instance")
    main, twin = (np.array(x) for x in zip(*[(a, b) if labels[a]["instance"] == "main" else (b, a)
                                             for a, b in twins]))

    def aa_bias(pos):
        return np.mean(np.log(cost(pos[:, twin]) / cost(pos[:, main])), axis=0)   # per twin pair, over processes
    random_pos, balanced_pos = _positions(12, False), _positions(12, True)
    assert np.max(np.abs(aa_bias(random_pos))) > 0.02           # the flaw: an order effect read as A/A noise
    assert np.max(np.abs(aa_bias(balanced_pos))) < 1e-12
    first = (balanced_pos[:, main] < balanced_pos[:, twin]).sum(axis=0)
    assert (first == 6).all()
    # each process still calls every case exactly once, and the pair's first process keeps its seeded order
    assert all(sorted(row) == list(range(len(labels))) for row in balanced_pos)
    assert (balanced_pos[0] == random_pos[0]).all()


def test_measure_mirrors_the_order_of_its_pair():
    calls: list = []
    cases = [{**lab, "fn": (lambda i=i: calls.append(i))} for i, lab in enumerate(_cold_labels())]
    timing.measure(cases, trials=1, warmup=0, seed=3, progress=False, counterbalance="instance")
    plain, calls[:] = list(calls), []
    timing.measure(cases, trials=1, warmup=0, seed=3, progress=False, counterbalance="instance", mirror=True)
    swap = dict(timing.twin_pairs(_cold_labels(), "instance"))
    swap.update({b: a for a, b in list(swap.items())})
    assert calls == [swap.get(i, i) for i in plain] and calls != plain
    calls[:] = []
    timing.measure(cases, trials=1, warmup=0, seed=3, progress=False)
    assert calls == plain                                          # unmirrored: the seeded random order as before


def test_a_counterbalanced_group_pairs_its_processes():
    groups = {"g": timing.TimingGroup(pid_cases, {"label": "x"}, 2, 0, 0.0, "cipher")}
    out = timing.measure_groups_in_processes(groups, processes=2, progress=False)["g"]
    assert sorted(out["process"].unique()) == [0, 1]


# ----------------------------------------------------------------------------- fresh mappings (paper 003's cold calls)
_PROBE = r"""
import ctypes, sys
from cipherlab.analysis import timing
class MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = MallInfo2
pinned = timing.fresh_mappings(128 * 1024) if sys.argv[1] == "pin" else False
big = bytearray(5_000_000)       # a large block, freed: glibc's default raises its threshold above it
del big
before = libc.mallinfo2().hblks
block = bytearray(1_000_000)     # mapped afresh (hblks + 1) only if the threshold stayed where it was
print(pinned, libc.mallinfo2().hblks - before)
"""


@pytest.mark.skipif(__import__("platform").libc_ver()[0] != "glibc", reason="the C library is not glibc: "
                    "fresh_mappings changes nothing there")
def test_fresh_mappings_maps_every_large_block_afresh_whatever_was_freed_before():
    """The cause it removes, shown with glibc's own counter of mapped blocks: by default a freed 5 MB block raises
    the threshold, so a later 1 MB block comes from the heap (possibly recycled pages); pinned, it is a new
    mapping. Each case runs in a fresh interpreter (the pin lasts for the process)."""
    import subprocess
    import sys
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    got = {how: subprocess.run([sys.executable, "-c", _PROBE, how], capture_output=True, text=True, env=env,
                               check=True).stdout.split() for how in ("default", "pin")}
    assert got["default"] == ["False", "0"], got
    assert got["pin"] == ["True", "1"], got


def test_fresh_above_pins_the_allocator_in_the_timing_process_only_when_asked(monkeypatch):
    calls = []
    monkeypatch.setattr(timing, "fresh_mappings", lambda n: calls.append(n) or True)
    plan = {"g": (_two_cases, {}, 1, 0, 0.0, None)}
    timing._measure_built(plan, [], seed=0, process=0)
    assert calls == []
    out = timing._measure_built(plan, [], seed=0, process=0, fresh_above=98304)
    assert calls == [98304] and len(out["g"]) == 2
    assert "98304 bytes" in timing.allocator_policy(98304) or "not glibc" in timing.allocator_policy(98304)
    assert "default" in timing.allocator_policy(0)


def test_fresh_mappings_needs_a_positive_threshold():
    with pytest.raises(ValueError, match="threshold must be a positive number of bytes"):
        timing.fresh_mappings(0)


def _two_cases():
    return [{"cipher": c, "fn": (lambda: None)} for c in "ab"]
