"""cipherlab.analysis.stats: Welch tables, speed-ups, the bootstrap, entropy, chi-square, timing summaries."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from cipherlab.analysis import stats
A = [10.1, 10.4, 9.8, 10.0, 10.3, 10.2]
B = [8.0, 8.5, 7.9, 8.2, 8.1, 8.6, 8.3, 8.0]


def test_welch_table_against_hand_computation_and_scipy():
    tab = stats.welch_table(A, B, labels=("old", "new"))
    assert list(tab.index) == list(stats.WELCH_ROWS)
    m1, m2 = sum(A) / len(A), sum(B) / len(B)
    v1 = sum((x - m1) ** 2 for x in A) / (len(A) - 1)
    v2 = sum((x - m2) ** 2 for x in B) / (len(B) - 1)
    se1, se2 = v1 / len(A), v2 / len(B)
    t_hand = (m1 - m2) / math.sqrt(se1 + se2)
    df_hand = (se1 + se2) ** 2 / (se1 ** 2 / (len(A) - 1) + se2 ** 2 / (len(B) - 1))
    assert tab.loc["Mean", "old"] == pytest.approx(m1)
    assert tab.loc["Variance", "new"] == pytest.approx(v2)
    assert tab.loc["Observations", "new"] == len(B)
    assert tab.loc["t Stat", "old"] == pytest.approx(t_hand, rel=1e-12)
    assert tab.loc["df", "old"] == pytest.approx(df_hand, rel=1e-12)
    ref = st.ttest_ind(A, B, equal_var=False)
    assert tab.loc["P(T<=t) two-tail", "old"] == pytest.approx(ref.pvalue, rel=1e-12)
    assert tab.loc["P(T<=t) one-tail", "old"] == pytest.approx(ref.pvalue / 2, rel=1e-12)
    assert tab.loc["t Critical two-tail", "old"] == pytest.approx(st.t.ppf(0.975, df_hand))
    assert tab.loc["t Critical one-tail", "old"] == pytest.approx(st.t.ppf(0.95, df_hand))
    assert np.isnan(tab.loc["t Stat", "new"])


def test_welch_from_stats_agrees_with_the_sample_route():
    tab = stats.welch_table(A, B)
    s = stats.welch_from_stats(np.mean(A), np.var(A, ddof=1), len(A), np.mean(B), np.var(B, ddof=1), len(B))
    assert s["t Stat"] == pytest.approx(tab.loc["t Stat"].iloc[0])
    assert s["df"] == pytest.approx(tab.loc["df"].iloc[0])


@pytest.mark.parametrize("a,b,match", [([1.0], [1.0, 2.0], "a needs at least 2"),
                                       ([1.0, np.nan], [1.0, 2.0], "a must be finite")])
def test_welch_table_rejects_bad_samples(a, b, match):
    with pytest.raises(ValueError, match=match):
        stats.welch_table(a, b)


def test_speedup_definition():
    assert stats.speedup(2.0, 1.0) == pytest.approx(100.0)
    assert stats.speedup(1.25, 1.0) == pytest.approx(25.0)


def test_bootstrap_speedup_ci_contains_the_point_estimate():
    rng = np.random.default_rng(0)
    old = rng.normal(1.25, 0.02, 30)
    new = rng.normal(1.0, 0.02, 30)
    ci = stats.bootstrap_speedup_ci(old, new, n_resamples=2000, seed=1)
    assert ci.estimate == pytest.approx(stats.speedup(old.mean(), new.mean()))
    assert ci.low <= ci.estimate <= ci.high
    assert 20 < ci.low and ci.high < 30
    again = stats.bootstrap_speedup_ci(old, new, n_resamples=2000, seed=1)
    assert again == ci  # seeded: deterministic
    with pytest.raises(ValueError, match="confidence must be in"):
        stats.bootstrap_speedup_ci(old, new, confidence=1.5)


def test_entropy_known_values():
    assert stats.byte_entropy(bytes(range(256)) * 4) == pytest.approx(8.0)
    assert stats.byte_entropy(b"\x00" * 100) == pytest.approx(0.0)
    assert stats.byte_entropy(b"ab" * 50) == pytest.approx(1.0)
    assert stats.byte_entropy(np.array([0, 1, 2, 3], dtype=np.uint8)) == pytest.approx(2.0)
    with pytest.raises(ValueError, match="must not be empty"):
        stats.byte_entropy(b"")


def test_chi_square_known_values():
    stat, p = stats.chi_square_uniform(bytes(range(256)) * 3)
    assert stat == pytest.approx(0.0) and p == pytest.approx(1.0)
    # all of 256 bytes in one bin: expected 1 per bin, chi2 = (256-1)^2/1 + 255 * 1 = 65280
    stat, p = stats.chi_square_uniform(b"\x00" * 256)
    assert stat == pytest.approx(65280.0) and p < 1e-100


def test_timing_summary():
    df = pd.DataFrame({"cipher": ["a"] * 4 + ["b"] * 2, "seconds": [1, 2, 3, 4, 5, 7]})
    s = stats.timing_summary(df, ["cipher"]).set_index("cipher")
    assert s.loc["a", "median"] == 2.5 and s.loc["b", "mean"] == 6 and s.loc["a", "n"] == 4


def test_a_process_level_shift_widens_the_interval():
    """Processes that disagree on the effect: the two-level bootstrap sees it, a bootstrap of pooled trials does not."""
    rng = np.random.default_rng(0)
    old = rng.normal(10.0, 0.05, (4, 50)) + np.array([[0.0], [2.0], [0.0], [2.0]])
    new = rng.normal(10.0, 0.05, (4, 50))
    two_level = stats.speedup_ci(old, new, statistic="mean", seed=1)
    pooled = stats.speedup_ci(old.ravel(), new.ravel(), statistic="mean", seed=1)
    ratios = old.mean(axis=1) / new.mean(axis=1)
    assert two_level.estimate == pytest.approx((np.exp(np.log(ratios).mean()) - 1) * 100)
    assert (two_level.high - two_level.low) > 2 * (pooled.high - pooled.low)


def test_a_process_that_ran_slower_as_a_whole_cancels():
    """Both cases slowed alike in some processes (another core, a busy neighbour): the effect stays put."""
    rng = np.random.default_rng(2)
    slow = np.array([[1.0], [1.0], [1.0], [1.0], [1.5], [1.5]])
    old, new = rng.normal(10.0, 0.1, (6, 40)) * slow, rng.normal(8.0, 0.1, (6, 40)) * slow
    ci = stats.speedup_ci(old, new, seed=3)
    assert 24 < ci.low < ci.estimate < ci.high < 26       # 10 / 8: +25 %
    pooled = stats.speedup_ci(old.ravel(), new.ravel(), seed=3)
    assert (ci.high - ci.low) < (pooled.high - pooled.low)


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


def test_paired_rounds_cancel_a_slow_spell_that_unpaired_medians_keep():
    """Half the rounds ran 40 % slower for both cases: the per-round ratio sees 25 % throughout."""
    rng = np.random.default_rng(4)
    spell = np.where(rng.random((6, 60)) < 0.5, 1.4, 1.0)
    old = 10.0 * spell * np.exp(0.005 * rng.standard_normal((6, 60)))
    new = 8.0 * spell * np.exp(0.005 * rng.standard_normal((6, 60)))
    paired = stats.speedup_ci(old, new, paired=True, seed=1)
    unpaired = stats.speedup_ci(old, new, seed=1)
    assert 24 < paired.low < paired.estimate < paired.high < 26
    assert (paired.high - paired.low) * 5 < (unpaired.high - unpaired.low)


def test_paired_estimate_is_the_geometric_mean_of_the_processes_median_round_ratios():
    rng = np.random.default_rng(6)
    old, new = rng.lognormal(0.2, 0.1, (3, 25)), rng.lognormal(0.0, 0.1, (3, 25))
    ci = stats.speedup_ci(old, new, paired=True, seed=2)
    want = np.exp(np.mean(np.median(np.log(old / new), axis=1))) - 1
    assert ci.estimate == pytest.approx(want * 100)
    assert ci.low < ci.estimate < ci.high
    assert ci == stats.speedup_ci(old, new, paired=True, seed=2)


def test_paired_one_process_uses_scipy_bootstrap_of_the_round_ratios():
    rng = np.random.default_rng(8)
    old, new = rng.lognormal(0.1, 0.05, 50), rng.lognormal(0.0, 0.05, 50)
    ci = stats.speedup_ci(old, new, paired=True, statistic="mean", seed=3)
    assert ci.estimate == pytest.approx((np.exp(np.mean(np.log(old / new))) - 1) * 100)
    assert ci.low < ci.estimate < ci.high


@pytest.mark.parametrize("old, new, statistic, match", [
    (np.ones((2, 5)), np.ones((2, 4)), "median", "same processes x trials shape"),
    (np.ones((2, 5)), np.ones((2, 5)), "q25", "for a paired comparison"),
    (np.ones((2, 5)), -np.ones((2, 5)), "median", "positive times"),
])
def test_paired_rejects_what_it_cannot_pair(old, new, statistic, match):
    with pytest.raises(ValueError, match=match):
        stats.speedup_ci(old, new, paired=True, statistic=statistic)


# ---------------------------------------------------------------- p at the level of the independent unit
def test_process_pvalue_is_a_t_test_of_the_processes_log_ratios():
    rng = np.random.default_rng(11)
    old = 10.0 + rng.random((5, 30))
    new = old / np.array([1.2, 1.25, 1.18, 1.22, 1.21])[:, None]
    units = np.median(np.log(old / new), axis=1)
    assert stats.process_pvalue(old, new) == pytest.approx(st.ttest_1samp(units, 0.0).pvalue)
    unpaired = np.log(np.median(old, axis=1) / np.median(new, axis=1))
    assert stats.process_pvalue(old, new, paired=False) == pytest.approx(st.ttest_1samp(unpaired, 0.0).pvalue)


def test_process_pvalue_does_not_count_one_process_bias_many_times():
    """Each process shifted by its own bias, one against the others: pooled trials look significant, the processes do not."""
    rng = np.random.default_rng(12)
    old = 10.0 + 0.01 * rng.random((4, 200))
    new = old / np.array([1.08, 1.06, 0.90, 1.07])[:, None]
    assert st.mannwhitneyu(old.ravel(), new.ravel()).pvalue < 0.05
    assert stats.process_pvalue(old, new) > 0.2
    # the same bias in every process is a real effect, and p falls with it
    assert stats.process_pvalue(old, old / np.array([1.08, 1.07, 1.09, 1.08])[:, None]) < 1e-3


@pytest.mark.parametrize("old,new,msg", [
    (np.ones((1, 5)), np.ones((1, 5)), "at least 2 processes"),
    (np.ones((2, 5)), np.ones((3, 5)), "same processes"),
    (np.ones((2, 5)), -np.ones((2, 5)), "positive times"),
])
def test_process_pvalue_rejects_bad_input_in_one_line(old, new, msg):
    with pytest.raises(ValueError, match=msg):
        stats.process_pvalue(old, new)


def test_process_pvalue_of_identical_processes():
    old = np.full((3, 4), 2.0)
    assert stats.process_pvalue(old, old) == 1.0 and stats.process_pvalue(old, old / 2) == 0.0


# -- against the naive reference (tests/naive.py): the two-level bootstrap that decides speed verdicts -----
import naive  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hs  # noqa: E402


@settings(max_examples=15, deadline=None)
@given(procs=hs.integers(2, 4), trials=hs.integers(2, 6), statistic=hs.sampled_from(["median", "mean", "q25"]),
       paired=hs.booleans(), seed=hs.integers(0, 2 ** 16), shift=hs.floats(-0.3, 0.3))
def test_the_two_level_bootstrap_equals_the_naive_one_resample_at_a_time(procs, trials, statistic, paired, seed,
                                                                          shift):
    """Several processes: the vectorized two-level bootstrap of speedup_ci (processes, then trials or rounds) gives
    the estimate and interval of a loop over resamples and processes drawing the same random numbers."""
    rng = np.random.default_rng(seed)
    old = rng.uniform(1.0, 2.0, size=(procs, trials))
    new = old * (1 + shift) * rng.uniform(0.9, 1.1, size=(procs, trials))
    if paired and statistic == "q25":
        statistic = "median"
    got = stats.speedup_ci(old, new, statistic=statistic, n_resamples=200, seed=seed, paired=paired)
    want = naive.two_level_speedup_naive(old.tolist(), new.tolist(), statistic, 0.95, 200, seed, paired)
    assert (got.estimate, got.low, got.high) == pytest.approx(want, rel=1e-9, abs=1e-9)
