"""Timing across fresh processes and the two-level bootstrap that reads it."""
import os
import time

import numpy as np
import pandas as pd
import pytest

from cipherlab import stats, timing


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


def test_trials_by_process_shapes():
    df = pd.DataFrame({"process": [0, 0, 1, 1], "trial": [0, 1, 0, 1], "seconds": [1.0, 2.0, 3.0, 4.0]})
    assert timing.trials_by_process(df).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert timing.trials_by_process(df.drop(columns="process")).shape == (1, 4)
    with pytest.raises(ValueError, match="same number of trials"):
        timing.trials_by_process(df.iloc[:3])
    with pytest.raises(ValueError, match="no trials"):
        timing.trials_by_process(df.iloc[:0])


def test_a_process_level_shift_widens_the_interval():
    """Two processes that disagree: the two-level bootstrap sees it, a bootstrap of pooled trials does not."""
    rng = np.random.default_rng(0)
    old = rng.normal(10.0, 0.05, (4, 50)) + np.array([[0.0], [2.0], [0.0], [2.0]])
    new = rng.normal(10.0, 0.05, (4, 50))
    two_level = stats.speedup_ci(old, new, statistic="mean", seed=1)
    pooled = stats.speedup_ci(old.ravel(), new.ravel(), statistic="mean", seed=1)
    assert two_level.estimate == pytest.approx(pooled.estimate)
    assert (two_level.high - two_level.low) > 2 * (pooled.high - pooled.low)


def test_two_level_bootstrap_is_seeded_and_covers_the_estimate():
    rng = np.random.default_rng(3)
    old, new = rng.normal(12, 1, (3, 20)), rng.normal(10, 1, (3, 20))
    a, b = stats.speedup_ci(old, new, seed=7), stats.speedup_ci(old, new, seed=7)
    assert a == b
    assert a.low < a.estimate < a.high


def test_samples_must_come_from_the_same_processes():
    with pytest.raises(ValueError, match="same processes"):
        stats.speedup_ci(np.ones((2, 5)) + np.arange(5), np.ones((3, 5)) + np.arange(5))


def test_spread_statistics_compare_variability():
    rng = np.random.default_rng(5)
    wide, narrow = rng.normal(10, 2, 400), rng.normal(10, 1, 400)
    ci = stats.speedup_ci(wide, narrow, statistic="std", seed=1)
    assert 50 < ci.low < ci.estimate < ci.high < 160      # the std ratio is about 2: +100 %


def test_long_calls_are_not_probed_five_times():
    calls = []

    def slow():
        calls.append(1)
        time.sleep(0.004)

    assert timing.calls_per_trial(slow, min_trial_seconds=0.001) == 1
    assert len(calls) <= 2                                  # 2 x 4 ms already exceed 5 x 1 ms
