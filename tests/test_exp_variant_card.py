"""Tests of the variant battery: the summary card and its design concerns (experiments.variant.card)."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cipherlab.experiments.variant import driver
from cipherlab.experiments.variant import bytemaps, card

from variant_toys import SMALL

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")


# ---------------------------------------------------------------- the card

@pytest.fixture(scope="module")
def batteries():
    return {c: driver.run_battery(c, seed=3, **SMALL) for c in ("aes-affine-sbox", "aes-2sbox", "aes")}


def test_card_affine(batteries):
    text = batteries["aes-affine-sbox"]["card"]
    assert "weakest point: **affine over GF(2)" in text and "129 chosen plaintexts" in text


def test_card_affine_says_the_trail_bound_means_nothing(batteries):
    r = batteries["aes-affine-sbox"]
    assert "**the trail bound means nothing here**: the S-box is affine (differential uniformity 256, nonlinearity 0)" \
        in r["card"]
    assert "the 25 active S-boxes in 4 rounds bound no trail; the affinity attack says the same" in r["card"]
    assert "design margin" not in r["card"]
    assert not r["margin"].set_index("cipher").loc["aes-affine-sbox", "bound_meaningful"]


def test_the_trail_tables_put_aes_beside_the_variant(batteries):
    r = batteries["aes-2sbox"]
    assert list(dict.fromkeys(r["trail_bounds"]["cipher"])) == ["aes-2sbox", "aes"]
    bounds = r["trail_bounds"].set_index(["cipher", "rounds"])["active_sboxes_differential"]
    assert [bounds["aes-2sbox", k] for k in range(1, 5)] == [1, 2, 3, 4]  # a byte map: no diffusion
    assert [bounds["aes", k] for k in range(1, 5)] == [1, 5, 9, 25]
    layer = r["linear_layer"].set_index("cipher")
    assert layer.loc["aes-2sbox", "linear_layer"] == "byte-map" and layer.loc["aes", "mds"]
    assert set(r["milp_times"]["cipher"]) == {"aes-2sbox", "aes"}
    assert set(r["sbox_tables"]["map"]) == {"sbox", "linear", bytemaps.CONTROL}
    assert "- **design margin: -12 round(s)**" in r["card"]  # 1 active S-box per round: 22 rounds needed


def test_card_non_mds_example_states_branch_number_bound_and_margin():
    r = driver.run_battery("aes-circulant-matrix", seed=3, **SMALL)
    text = r["card"]
    # the attacks still fail, but the card never says "no structural weakness" beside a weaker design than AES's
    assert card.NO_WEAKNESS not in text
    assert text.startswith(f"**aes-circulant-matrix**: **{card.NO_BREAK}**, but its design is weaker than AES's: "
                           "a design margin of 3 round(s) against trails (AES 6); at least 16 active S-boxes in 4 "
                           "rounds (AES 25)")
    # ... but the bound is weaker than AES's: B = 4, 16 = 4^2 active S-boxes in 4 rounds, 7 rounds needed
    assert "linear layer `matrix`: branch number 4 (linear 4, not MDS); at least 16 active S-boxes in 4 rounds (AES 25)" \
        in text
    assert "**design margin: 3 round(s)**: differential and linear trail bounds below 2^-128 from 7 rounds on, " \
           "against its own 10 (AES: from 4, margin 6)" in text
    assert r["correctness"]["ok"].all()


def test_card_byte_local(batteries):
    text = batteries["aes-2sbox"]["card"]
    assert "weakest point: **byte-local" in text and "257 chosen plaintexts" in text


def test_design_concerns_name_every_measure_weaker_than_aes():
    """Synthetic tables: each measure weaker than AES's is named with AES's value; equal or better ones are not."""
    from cipherlab.experiments.variant import card

    margin = pd.DataFrame({"cipher": ["v", "aes"], "margin_rounds": [0, 6], "bound_meaningful": [True, True],
                           "active_sboxes_4_rounds": [10, 25]})
    summary = pd.DataFrame({"measure": ["differential_uniformity", "nonlinearity", "algebraic_degree"],
                            "min": [10.0, 112.0, 7.0], "max": [16.0, 112.0, 7.0], "aes": [4.0, 112.0, 7.0]})
    rnd = pd.DataFrame({"cipher": ["v"] * 3 + ["aes"] * 3 + ["plaintext"], "mode": ["ctr"] * 7,
                        "input": ["keystream"] * 7, "passed": [True, False, False, True, True, True, False]})
    results = {"cipher": "v", "margin": margin, "sbox_key_summary": summary, "randomness": rnd}
    assert card.design_concerns(results) == [
        "a design margin of 0 round(s) against trails (AES 6)", "at least 10 active S-boxes in 4 rounds (AES 25)",
        "S-box differential uniformity 10 to 16 (AES 4)", "SP 800-22 on the CTR keystream: 1 of 3 tests passed "
        "(AES 3 of 3)"]
    same = {**results, "margin": margin.assign(margin_rounds=6, active_sboxes_4_rounds=25),
            "sbox_key_summary": summary.assign(min=[4.0, 112.0, 7.0], max=[4.0, 112.0, 7.0]),
            "randomness": rnd.assign(passed=True)}
    assert card.design_concerns(same) == [] and card.design_concerns(results, "aes") == []
    # fewer SP 800-22 passes than AES count only where a random source would rarely fail as many
    noisy = card.design_concerns({**results, "randomness": rnd.assign(expected_pass_probability=0.5)})
    rare = card.design_concerns({**results, "randomness": rnd.assign(expected_pass_probability=0.999)})
    assert not any("SP 800-22" in x for x in noisy)
    assert rare[-1] == ("SP 800-22 on the CTR keystream: 1 of 3 tests passed (AES 3 of 3; a random source fails 2 or "
                        "more with probability at most 0.0015, however the tests are correlated)")
    # 2 of 3 failed at a pass probability of 0.99: rare only if the tests were independent (0.0003), not in general
    assert not any("SP 800-22" in x for x in card.design_concerns(
        {**results, "randomness": rnd.assign(expected_pass_probability=0.99)}))


def test_the_chance_of_sp800_22_failures_assumes_no_independence_of_the_tests():
    """3 of 9 tests failed at 16 sequences (the stand-in of abikoye-2019 in the audited run): independent tests would
    make it a 1-in-7000 event; without independence the bound is about 0.033, 200 times larger, and true."""
    from scipy import stats

    from cipherlab.experiments.variant.randomness import (chance_of_failing, chance_of_passing_all,
                                                          chance_of_worst_test, expected_pass_probability)
    p = expected_pass_probability(16)
    independent = float(stats.binom.sf(2, 9, 1 - p))
    bound = chance_of_failing(3, 9, p)
    assert independent < 2e-4 and bound == pytest.approx(9 * (1 - p) / 3) and 0.03 < bound < 0.035
    # SP 800-22's per-test reading: a test with 14 of 16 sequences passing is what 9 tests give with about 0.1
    assert chance_of_worst_test(14, 16, 9) == pytest.approx(9 * (1 - p)) and chance_of_worst_test(16, 16, 9) == 1.0
    assert chance_of_worst_test(13, 16, 9) < 0.01 and chance_of_worst_test(0, 16, 9) < 1e-20
    assert chance_of_failing(0, 9, p) == 1.0 and chance_of_passing_all(9, p) == pytest.approx(1 - 9 * (1 - p))
    assert chance_of_passing_all(200, p) == 0.0


@settings(max_examples=60, deadline=None)
@given(tests=st.integers(1, 20), q=st.floats(1e-4, 0.5), k=st.integers(1, 20))
def test_the_sp800_22_bound_holds_for_independent_and_for_fully_correlated_tests(tests, q, k):
    from scipy import stats

    from cipherlab.experiments.variant.randomness import chance_of_failing, chance_of_passing_all
    k = min(k, tests)
    bound = chance_of_failing(k, tests, 1 - q)
    assert bound >= float(stats.binom.sf(k - 1, tests, q)) - 1e-12   # independent tests
    assert bound >= q - 1e-12                                          # one test repeated: all fail together
    assert chance_of_passing_all(tests, 1 - q) <= (1 - q) ** tests + 1e-12 and chance_of_passing_all(tests, 1 - q) <= 1 - q


@settings(max_examples=60, deadline=None)
@given(tests=st.integers(1, 20), n=st.integers(1, 64), lowest=st.integers(0, 64))
def test_the_worst_test_bound_holds_for_independent_and_for_fully_correlated_tests(tests, n, lowest):
    from scipy import stats

    from cipherlab.experiments.variant.randomness import chance_of_worst_test
    lowest = min(lowest, n)
    one = float(stats.binom.cdf(lowest, n, 0.99))
    bound = chance_of_worst_test(lowest, n, tests)
    assert bound >= 1 - (1 - one) ** tests - 1e-12 and bound >= one - 1e-12   # independent; one test repeated


def test_design_concerns_read_sp800_22_per_test_where_the_counts_are_at_hand():
    """With each test's proportion of passing sequences, a lower count than AES's is a concern only when the worst
    test is rare in any of the tests for a random source (SP 800-22's per-test reading, a union bound)."""
    from cipherlab.experiments.variant import card
    from cipherlab.experiments.variant.randomness import expected_pass_probability

    def table(worst):
        return pd.DataFrame({"cipher": ["v"] * 9 + ["aes"] * 9, "mode": ["ctr"] * 18, "input": ["keystream"] * 18,
                             "sequences": 16, "proportion": [worst / 16, 14 / 16, 14 / 16] + [1.0] * 15,
                             "passed": [False] * 3 + [True] * 15,
                             "expected_pass_probability": expected_pass_probability(16)})
    margin = pd.DataFrame({"cipher": ["v", "aes"], "margin_rounds": [6, 6], "bound_meaningful": [True, True],
                           "active_sboxes_4_rounds": [25, 25]})
    base = {"cipher": "v", "margin": margin}
    assert card.design_concerns({**base, "randomness": table(14)}) == []   # 3 of 9 failed, each 2 of 16: chance
    rare = card.design_concerns({**base, "randomness": table(13)})
    assert rare == ["SP 800-22 on the CTR keystream: 6 of 9 tests passed (AES 9 of 9; its worst test had 3 of 16 "
                    "sequences fail, which a random source gives in one of 9 tests with probability at most 0.0046, "
                    "however the tests are correlated)"]


def test_card_aes(batteries):
    text = batteries["aes"]["card"]
    assert card.NO_WEAKNESS in text and "tests run:" in text and card.design_concerns(batteries["aes"]) == []
    assert "**design margin: 6 round(s)**" in text and "branch number 5 (linear 5, MDS)" in text
    assert "balanced over Λ-sets (the integral property) up to 3 round(s), no longer from 4" in text


def test_card_round_reduced():
    text = driver.run_battery("aes-4-rounds", seed=3, **SMALL)["card"]
    assert "weakest point: **the square (integral) attack: balanced after 3 of its 4 rounds**" in text
    assert "769 chosen plaintexts (3 Λ-sets and one check) recover the 128-bit key" in text
