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
