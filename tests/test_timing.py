"""cipherlab.timing: interleaved, seeded trials; warm-up; compile time."""
from __future__ import annotations

import numpy as np
import pytest

from cipherlab import timing


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
    assert list(df.columns[:8]) == list(timing.TIMING_COLUMNS)
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


def test_time_calls_and_compile_seconds():
    n = []
    out = timing.time_calls(lambda: n.append(1), trials=4, warmup=3)
    assert out.shape == (4,) and len(n) == 7 and (out >= 0).all()
    assert timing.compile_seconds(lambda: None) >= 0
