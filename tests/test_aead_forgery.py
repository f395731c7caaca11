"""Tag forgery (Tables 5-7) and the forgery bound (aead.forgery)."""
import math
from fractions import Fraction

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from cipherlab.experiments.aead import forgery

from aead_synthetic import AAD, texts


def test_forgery_bound_arithmetic():
    b = forgery.forgery_bound_table({"gcm": [16], "ccm": [4]}, log2_q_max=40)
    g = b[b["mode"] == "gcm"].set_index("log2_q")
    assert g.loc[0, "bound"] == 2.0 ** -128 and g.loc[40, "log2_bound"] == -88
    c = b[b["mode"] == "ccm"].set_index("log2_q")
    assert c.loc[20, "bound"] == 2.0 ** -12
    assert c.loc[32, "bound"] == 1.0 and c.loc[40, "bound"] == 1.0  # capped at certainty
    assert len(b) == 2 * 41
    assert (b["q"] == 2 ** b["log2_q"]).all()
    with pytest.raises(ValueError, match="log2_q_max"):
        forgery.forgery_bound_table({"gcm": [16]}, log2_q_max=65)
    with pytest.raises(ValueError, match="tag lengths"):
        forgery.forgery_bound_table({"gcm": [17]})
    with pytest.raises(ValueError, match="mode"):
        forgery.forgery_bound_table({"ocb": [16]})


def test_trials_to_observe():
    t = forgery.trials_to_observe([32, 128], observed_trials=100)
    p = t["p_upper_from_observed"].iloc[0]
    assert p == pytest.approx(1 - 0.05 ** (1 / 100))
    assert p == pytest.approx(3 / 100, rel=0.05)  # the rule of three
    row = t.set_index("tag_bits").loc[128]
    assert row["log2_trials_for_confidence"] == pytest.approx(128 + math.log2(math.log(20)))
    assert not t["observed_can_reject_tag"].any()  # 100 trials cannot tell a 32-bit tag from a 128-bit one
    assert forgery.trials_to_observe([4], observed_trials=1000)["observed_can_reject_tag"].iloc[0]
    with pytest.raises(ValueError):
        forgery.trials_to_observe([32], observed_trials=0)


def test_forgery_outcomes_reject_forged_and_accept_genuine_tags_deterministically():
    runs = [forgery.forgery_outcomes(texts(), n_tags=4, aad=AAD, seed=11) for _ in range(2)]
    o = runs[0]
    assert len(o) == 3 * 2 * 3 * 4
    assert o[o["kind"] != "valid"]["rejected"].all()
    assert not o[o["kind"] == "valid"]["rejected"].any()
    pd.testing.assert_frame_equal(*runs)
    # the timed run records the same outcomes, whatever its batching
    f, o4 = forgery.measure_forgery(texts(), trials=4, warmup=1, aad=AAD, seed=11, min_trial_seconds=0.001,
                                 progress=False)
    pd.testing.assert_frame_equal(o4, o)
    t = forgery.forgery_table(f, o)
    assert set(t[t["kind"] != "valid"]["fail_rate_pct"]) == {100.0}
    assert set(t[t["kind"] == "valid"]["fail_rate_pct"]) == {0.0}
    assert (t["trials"] == 4).all()  # the A/A control's trials are not mixed into the table


def test_forged_tags_are_seeded_and_differ_from_the_genuine_tag():
    tag = bytes(range(16))
    flipped = forgery.forged_tags(tag, "flipped_tag", 50, 1, "x")
    assert flipped == forgery.forged_tags(tag, "flipped_tag", 50, 1, "x")
    for t in flipped:
        diff = int.from_bytes(t, "big") ^ int.from_bytes(tag, "big")
        assert bin(diff).count("1") == 1
    assert all(t != tag for t in forgery.forged_tags(tag, "random_tag", 50, 1, "x"))


def test_forgery_bound_is_exact():
    assert forgery.forgery_bound(100, 128) == Fraction(100, 2**128)
    assert forgery.forgery_bound(2**40, 32) == 1
    with pytest.raises(ValueError, match="q must be"):
        forgery.forgery_bound(0, 128)


def test_forgery_check_states_its_power():
    text = forgery.forgery_power(2160, 0, 0.99)
    assert text.startswith("no power") and "at most 8 bits" in text and "9-bit" in text
    assert "accepted" in forgery.forgery_power(100, 3, 0.99)
    with pytest.raises(ValueError, match="accepted"):
        forgery.forgery_power(10, 11, 0.99)


def test_gcm_forgery_bound_is_exact_and_grows_with_the_message():
    assert forgery.gcm_forgery_bound(1, 128, 16) == Fraction(2, 2**128)
    assert forgery.gcm_forgery_bound(1, 32, 16 * 2**20) == Fraction(2**20 + 1, 2**32)
    assert forgery.gcm_forgery_bound(1, 32, 16 * 2**40) == 1                   # a probability is at most 1
    # at the boundary the bound equals eq. 1's 2^-t only for a message of no blocks, which GCM never has
    assert forgery.gcm_forgery_bound(1, 32, 0) == Fraction(1, 2**32)
    assert forgery.gcm_forgery_bound(1, 32, 1) > Fraction(1, 2**32)
    for bad in ((0, 32, 16), (1, 0, 16), (1, 1025, 16), (1.5, 32, 16)):
        with pytest.raises(ValueError, match="q must be an integer"):
            forgery.gcm_forgery_bound(*bad)


@pytest.mark.parametrize("q, t, nbytes, log2", [
    (100, 128, 5_000_000, -103.10),    # the paper's q and t at its largest forged message: about 2^-103
    (100, 128, 0, -121.36),            # an empty message: degree 1, the ideal MAC's q / 2^t
    (1, 32, 16, -31.0),                # one block: degree 2
    (2**40, 32, 16 * 2**20, 0.0),      # capped at 1
])
def test_gcm_forgery_bound_grows_with_the_message(q, t, nbytes, log2):
    import math
    assert math.log2(forgery.gcm_forgery_bound(q, t, nbytes)) == pytest.approx(log2, abs=0.01)
    assert forgery.gcm_forgery_bound(q, t, nbytes) >= forgery.forgery_bound(q, t)


def test_gcm_forgery_bound_rejects_a_bad_length():
    with pytest.raises(ValueError, match="nbytes must be an integer >= 0"):
        forgery.gcm_forgery_bound(100, 128, -1)


def test_the_power_of_the_forgery_trials_counts_random_tags_only():
    """A bit-flipped tag is no guess of a tag: only the random tags enter the power against a longer tag."""
    rows = ([{"kind": "random_tag", "rejected": True}] * 2160 + [{"kind": "flipped_tag", "rejected": True}] * 2160
            + [{"kind": "valid", "rejected": False}] * 2160)
    n, accepted = forgery.guessing_trials(pd.DataFrame(rows))
    assert (n, accepted) == (2160, 0)
    text = forgery.forgery_power(n, accepted, 0.95)
    assert "2^-9.5" in text and "at most 9 bits" in text      # 4,320 (flips counted) would claim 2^-10.5
    assert "2^-10.5" in forgery.forgery_power(2 * n, 0, 0.95)
    one = pd.DataFrame(rows[:2159] + [{"kind": "random_tag", "rejected": False}] + rows[2160:])
    assert forgery.guessing_trials(one) == (2160, 1)
    with pytest.raises(ValueError, match="random-tag"):
        forgery.guessing_trials(pd.DataFrame(rows[2160:]))


def test_the_table_holds_the_spread_the_claims_decide_on():
    """``std_within_us``: each process's std, combined by the geometric mean over processes, so that its ratio
    between two sizes is the estimate the spread claims decide on (speedup_ci, statistic std), while the pooled
    std also holds the spread between processes."""
    import numpy as np
    from cipherlab.analysis import stats
    rng = np.random.default_rng(3)
    rows, arrays = [], {}
    for nb, scale in ((100_000, 1.0), (5_000_000, 7.0)):
        x = np.stack([1e-3 * (1 + p) + scale * 1e-5 * (1 + p) * rng.standard_normal(40) for p in range(4)])
        arrays[nb] = x
        rows += [dict(bytes=nb, mode="gcm", kind="random_tag", process=p, trial=t, seconds=float(x[p, t]),
                      instance="main") for p in range(4) for t in range(40)]
    times = pd.DataFrame(rows)
    outcomes = pd.DataFrame([dict(bytes=nb, mode="gcm", kind="random_tag", tag=i, rejected=True)
                             for nb in arrays for i in range(3)])
    tab = forgery.forgery_table(times, outcomes).set_index("bytes")
    got = (tab.loc[5_000_000, "std_within_us"] / tab.loc[100_000, "std_within_us"] - 1) * 100
    want = stats.speedup_ci(arrays[5_000_000], arrays[100_000], statistic="std", n_resamples=200).estimate
    assert got == pytest.approx(want, rel=1e-9)
    # the processes' levels differ, so the pooled std is larger than the one within a process
    assert (tab["std_us"] > tab["std_within_us"]).all()


@given(n=st.integers(1, 5000), accepted=st.integers(0, 5000), confidence=st.floats(0.5, 0.999))
@settings(max_examples=60, deadline=None)
def test_the_upper_end_of_a_guess_rate_is_the_exact_one_sided_end(n, accepted, confidence):
    """At the upper end p, seeing ``accepted`` or fewer successes in ``n`` trials has probability 1 - confidence
    (the definition of the exact one-sided interval), checked with the binomial distribution itself."""
    accepted = min(accepted, n)
    upper = forgery.guess_rate_upper(accepted, n, confidence)
    if accepted == n:
        assert upper == pytest.approx(1.0)
    else:
        assert binom.cdf(accepted, n, upper) == pytest.approx(1 - confidence, rel=1e-6)


def test_the_rejection_rate_interval_is_scipys_exact_two_sided_interval():
    low, high = forgery.rejection_rate_interval(95, 100, 0.95)
    assert binom.sf(94, 100, low) == pytest.approx(0.025, rel=1e-6)
    assert binom.cdf(95, 100, high) == pytest.approx(0.025, rel=1e-6)
    assert forgery.rejection_rate_interval(100, 100, 0.95)[1] == 1.0


@pytest.mark.parametrize("n, accepted", [(0, 0), (10, 11), (10, -1), (10.0, 0)])
def test_a_guess_rate_needs_whole_counts(n, accepted):
    with pytest.raises(ValueError, match="n must be an integer"):
        forgery.guess_rate_upper(accepted, n, 0.95)


def test_eq4_as_printed_is_the_uncapped_bound():
    assert forgery.paper_eq4(2**10, 8) == 4 and forgery.forgery_bound(2**10, 8) == 1
    assert forgery.paper_eq4(3, 128) == forgery.forgery_bound(3, 128) == Fraction(3, 2**128)


def test_the_default_tags_are_the_block_size():
    assert forgery.default_tag_bits() == {"gcm": 128, "ccm": 128, "eax": 128}
