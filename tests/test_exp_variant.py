"""Tests of the variant battery (cipherlab.experiments.variant)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cipherlab.ciphers.sboxes import rijndael_sbox, second_sbox
from cipherlab.experiments.security.driver import attack_targets
from cipherlab.experiments.variant import driver
from cipherlab.experiments.variant.chapter import VARIANTS
from cipherlab.ciphers.aes import expand_key
from cipherlab.experiments.variant import affinity, bytemaps, card, correctness, integral, speed, structure
from cipherlab.pipeline import paths
from cipherlab.pipeline.paths import variant_file

import naive
from naive import gf2_apply_naive, gf2_inverse_naive

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")

SMALL = dict(correctness_messages=1, correctness_bytes=100, dependency_keys=1, dependency_plaintexts=8,
             avalanche_keys=1, avalanche_plaintexts=4, affinity_triples=8, rounds_triples=4, image_stride=8,
             keystream_bytes=4096, n_sequences=2, measure_speed=False, trail_rounds=4)


# ---------------------------------------------------------------- a toy affine cipher

def invertible_matrix(rng: np.random.Generator, n: int = 128) -> np.ndarray:
    """A random invertible GF(2) matrix: unit lower x unit upper triangular, rows permuted."""
    low = np.tril(rng.integers(0, 2, (n, n)), -1) + np.eye(n, dtype=np.int64)
    up = np.triu(rng.integers(0, 2, (n, n)), 1) + np.eye(n, dtype=np.int64)
    return ((low @ up) % 2)[rng.permutation(n)].astype(np.uint8)


def toy_affine(seed: int):
    """``(oracle, A, c)``: ``E(x) = A x ^ c`` on 128-bit blocks, computed with integer NumPy."""
    rng = np.random.default_rng(seed)
    a = invertible_matrix(rng)
    c = rng.integers(0, 2, 128).astype(np.uint8)

    def encrypt(blocks):
        bits = np.unpackbits(blocks, axis=1).astype(np.int64)
        return np.packbits(((bits @ a.T.astype(np.int64)) % 2).astype(np.uint8) ^ c, axis=1)

    return affinity.BlockOracle(encrypt), a, c


# ---------------------------------------------------------------- GF(2) algebra

@pytest.mark.parametrize("n, seed", [(4, 0), (16, 1), (40, 2), (128, 3)])
def test_gf2_inverse_matches_naive(n, seed):
    m = np.random.default_rng(seed).integers(0, 2, (n, n)).astype(np.uint8)
    naive = gf2_inverse_naive(m.tolist())
    ours = affinity.gf2_inverse(m)
    assert (ours is None) == (naive is None)
    if naive is not None:
        assert ours.tolist() == naive


def test_gf2_inverse_of_invertible_is_inverse():
    m = invertible_matrix(np.random.default_rng(5))
    inv = affinity.gf2_inverse(m)
    assert np.array_equal(affinity.gf2_matmul(m, inv), np.eye(128, dtype=np.uint8))
    assert inv.tolist() == gf2_inverse_naive(m.tolist())


def test_gf2_singular_is_none():
    m = np.eye(8, dtype=np.uint8)
    m[3] = m[5]
    assert affinity.gf2_inverse(m) is None and gf2_inverse_naive(m.tolist()) is None


def test_gf2_matmul_matches_naive():
    rng = np.random.default_rng(9)
    m = rng.integers(0, 2, (20, 20)).astype(np.uint8)
    v = rng.integers(0, 2, 20).astype(np.uint8)
    assert affinity.gf2_matmul(m, v).tolist() == gf2_apply_naive(m.tolist(), v.tolist())


# ---------------------------------------------------------------- the affinity test and attack

def test_attack_on_toy_recovers_matrix_and_plaintext():
    oracle, a, c = toy_affine(0)
    model = affinity.learn_affine(oracle)
    assert oracle.queries == affinity.ATTACK_QUERIES == 129
    assert model.invertible
    assert np.array_equal(model.matrix, a) and np.array_equal(model.constant, c)
    assert model.inverse.tolist() == gf2_inverse_naive(a.tolist())
    x = np.random.default_rng(1).integers(0, 256, (50, 16), dtype=np.uint8)
    assert np.array_equal(model.decrypt_blocks(oracle(x)), x)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_blocks=st.integers(1, 40))
def test_attack_recovers_every_plaintext_of_random_affine_maps(seed, n_blocks):
    oracle, _, _ = toy_affine(seed)
    model = affinity.learn_affine(oracle)
    x = np.random.default_rng(seed + 1).integers(0, 256, (n_blocks, 16), dtype=np.uint8)
    assert model.invertible
    assert np.array_equal(model.decrypt_blocks(oracle(x)), x)


@pytest.mark.parametrize("cipher, affine", [("aes", False), ("aes-2sbox", False), ("aes-affine-sbox", True)])
def test_affinity_test_on_ciphers(cipher, affine):
    name, _ = driver.resolve(cipher)
    res = affinity.affinity_test(affinity.cipher_oracle(name, bytes(range(16))), n_triples=16, seed=2)
    assert res["affine"] is affine
    assert res["held"] == (16 if affine else 0)
    assert res["queries"] == 64


def test_affinity_test_on_toy_holds():
    oracle, _, _ = toy_affine(7)
    assert affinity.affinity_test(oracle, n_triples=10)["held"] == 10


@pytest.mark.parametrize("mode", ["ecb", "cbc"])
def test_affine_variant_image_recovered_exactly(mode):
    name, _ = driver.resolve("aes-affine-sbox")
    image = attack_targets(seed=0, image_stride=1, text_bytes=16)["image"]
    iv = bytes(range(16, 32)) if mode == "cbc" else None
    res = affinity.run_affine_attack(name, bytes(range(16)), image, mode, iv)
    assert res["queries"] == 129 and res["invertible"]
    assert np.array_equal(res["recovered"], image.reshape(-1))
    assert res["exact"]


def test_affine_attack_fails_on_aes():
    image = attack_targets(seed=0, image_stride=8, text_bytes=16)["image"]
    res = affinity.run_affine_attack("aes", bytes(16), image)
    assert not res["exact"] and res["match_fraction"] < 0.05


# ---------------------------------------------------------------- byte maps

@pytest.mark.parametrize("sbox, affine", [
    (np.arange(256), True),
    (np.arange(256) ^ 0x5A, True),
    (second_sbox(0x7F, "xor-index")[0], True),
    (rijndael_sbox(), False),
    (np.random.default_rng(0).permutation(256), False),
])
def test_is_affine(sbox, affine):
    assert bytemaps.is_affine(sbox) is affine
    assert bytemaps.affine_components(sbox) == (255 if affine else 0)


def test_is_affine_matches_definition():
    s = second_sbox(0x7F, "xor-index")[0]
    x, y = np.meshgrid(np.arange(256), np.arange(256))
    assert np.array_equal(s[x ^ y] ^ s[0], s[x] ^ s[y])


def test_byte_map_table_has_control():
    t = bytemaps.byte_map_table({"sbox": second_sbox(0x7F, "xor-index")[0]})
    assert list(t["map"]) == ["sbox", "rijndael (AES)"]
    assert list(t["affine"]) == [True, False]
    assert t["nonlinearity"].tolist() == [0, 112]


# ---------------------------------------------------------------- structure and the codebook

@pytest.mark.parametrize("cipher, local", [("aes", False), ("aes-2sbox", True), ("maes-1", True)])
def test_byte_locality_from_dependency(cipher, local):
    _, rates = structure.dependency_by_round(cipher, n_keys=1, n_plaintexts=8, max_rounds=10)
    assert structure.is_byte_local(rates[10]) is local
    assert structure.is_byte_local(rates[1])   # one round has no MixColumns: byte-local for all


@pytest.mark.parametrize("cipher, local", [("aes-2sbox", True), ("aes", False)])
def test_codebook_path(cipher, local):
    targets = {"image": attack_targets(seed=0, image_stride=8, text_bytes=16)["image"]}
    table, recovered = structure.codebook_table(cipher, targets, local, seed=1)
    assert bool(table["ran"].all()) is local
    if local:
        assert table["exact"].all() and (table["queries"] == 257).all()
        assert np.array_equal(recovered[("ecb", "image")], targets["image"].reshape(-1))
    else:
        assert recovered == {}


def test_property_rounds():
    rounds = pd.DataFrame({"rounds": [1, 2, 3], "byte_local": [True, False, False], "affine": [True] * 3,
                           "balanced": [True, True, False], "full_diffusion": [False, False, True]})
    p = structure.property_rounds(rounds).set_index("property")
    assert list(p.index) == list(structure.PROPERTIES)
    assert p.loc["balanced", "last_round_holding"] == 2 and p.loc["balanced", "first_round_failing"] == 3
    assert p.loc["byte_local", "first_round_failing"] == 2
    assert p.loc["byte_local", "last_round_holding"] == 1
    assert pd.isna(p.loc["affine", "first_round_failing"])
    assert p.loc["full_diffusion", "first_round_holding"] == 3


# ---------------------------------------------------------------- the integral property and the square attack

def test_lambda_sets_take_every_value_in_byte_0_and_agree_elsewhere():
    sets = integral.lambda_sets(3, seed=1).reshape(3, 256, 16)
    assert all(sorted(s[:, 0]) == list(range(256)) and (s[:, 1:] == s[0, 1:]).all() for s in sets)
    assert not np.array_equal(sets[0, 0, 1:], sets[1, 0, 1:])
    with pytest.raises(ValueError, match="n_sets"):
        integral.lambda_sets(0)


def test_three_rounds_of_aes_are_balanced_in_the_naive_reference():
    """The property itself, on tests/naive.py's AES (independent of the kernels), one Λ-set."""
    key = bytes(range(16))
    blocks = integral.lambda_sets(1, seed=2)
    for rounds, balanced in ((3, True), (4, False)):
        cts = np.frombuffer(b"".join(naive.encrypt_block(key, b.tobytes(), "aes", rounds=rounds) for b in blocks),
                            dtype=np.uint8).reshape(-1, 16)
        assert (not integral.byte_sums(cts, 1).any()) == balanced


@pytest.mark.parametrize("rounds, balanced", [(1, True), (3, True), (4, False), (10, False)])
def test_is_balanced_on_round_reduced_aes(rounds, balanced):
    oracle = affinity.cipher_oracle("aes", bytes(range(16)), rounds=rounds)
    assert integral.is_balanced(oracle, n_sets=2, seed=5) == balanced
    assert oracle.queries == 2 * 256


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_last_round_key_of_4_round_aes_is_the_only_candidate(seed):
    key = np.random.default_rng(seed).bytes(16)
    oracle = affinity.cipher_oracle("aes", key, rounds=4)
    cts = oracle(integral.lambda_sets(4, seed=seed))
    cands = integral.last_round_key_candidates(cts, np.argsort(rijndael_sbox()).astype(np.uint8), 4)
    # FIPS-197 KeyExpansion's round key 4; a wrong byte survives four sets with probability 2^-32
    assert [c.tolist() for c in cands] == [[int(b)] for b in expand_key(key)[4]]


def test_square_attack_recovers_the_key_and_the_image_of_aes_4_rounds():
    name, _ = driver.resolve("aes-4-rounds")
    image = attack_targets(seed=0, image_stride=8, text_bytes=16)["image"]
    rates = {r: np.ones((16, 16)) for r in range(1, 5)}
    rounds = structure.rounds_table(name, rates, n_triples=2, lambda_sets=2, seed=1)
    assert rounds["balanced"].tolist() == [True, True, True, False]
    table, recovered, attacked = integral.square_attack_table(name, {"image": image}, rounds, n_sets=3, seed=4)
    row = table.iloc[0]
    assert row["ran"] and row["key_recovered"] and row["exact"] and row["queries"] == 3 * 256 + 1
    assert row["key_candidates_log2"] == 0.0
    assert np.array_equal(recovered[("ecb", "image")], image.reshape(-1))
    assert not np.array_equal(attacked[("ecb", "image")][:image.size], image.reshape(-1))


def test_square_attack_runs_on_a_4_round_matrix_variant(tmp_path):
    # a matrix layer leaves AES's last round as it is: balanced after 3 rounds, the attack applies
    doc = yaml.safe_load(variant_file("aes-circulant-matrix").read_text())
    doc.update(name="circ-4-rounds", key_bytes=16, rounds=4)
    path = tmp_path / "circ-4-rounds.yaml"
    path.write_text(yaml.safe_dump(doc))
    name, _ = driver.resolve(str(path))
    image = attack_targets(seed=0, image_stride=8, text_bytes=16)["image"]
    rounds = structure.rounds_table(name, {r: np.ones((16, 16)) for r in range(1, 5)}, n_triples=2, lambda_sets=2,
                                    seed=1)
    assert rounds["balanced"].tolist() == [True, True, True, False]
    table, recovered, _ = integral.square_attack_table(name, {"image": image}, rounds, n_sets=3, seed=4)
    assert table.iloc[0]["ran"] and table.iloc[0]["key_recovered"] and table.iloc[0]["exact"]
    assert np.array_equal(recovered[("ecb", "image")], image.reshape(-1))


def test_square_attack_says_why_not_or_what_is_left():
    image = np.arange(64, dtype=np.uint8)
    ten = pd.DataFrame({"rounds": range(1, 11), "balanced": [True] * 3 + [False] * 7})
    table, recovered, _ = integral.square_attack_table(driver.resolve("aes-random-sbox")[0], {"image": image}, ten)
    assert not table["ran"].iloc[0] and table["reason"].iloc[0] == ("not balanced after 9 of 10 rounds (balanced "
                                                          "through round 3 only): the attack needs a balanced state "
                                                          "after round 9")
    assert recovered == {}
    assert integral.applicability("aes-2sbox", ten).startswith("the last round is not known")
    # an affine S-box: every guess fits every Λ-set; nothing recovered, and the table says how much is left
    every = pd.DataFrame({"rounds": range(1, 11), "balanced": [True] * 10})
    table, recovered, _ = integral.square_attack_table(driver.resolve("aes-affine-sbox")[0], {"image": image},
                                                       every, n_sets=2)
    row = table.iloc[0]
    assert row["ran"] and not row["key_recovered"] and row["key_candidates_log2"] == 128.0
    assert row["bytes_recovered"] == 0 and row["reason"] == "2^128 last-round keys fit every Λ-set"


def test_correctness_all_styles_agree():
    t = correctness.correctness_table("aes-2sbox", n_messages=1, message_bytes=33)
    assert t["ok"].all()
    assert set(t["mode"]) == {"ecb", "cbc", "ctr"}
    assert set(t["style"]) == set(correctness.styles_here("aes-2sbox"))


# ---------------------------------------------------------------- speed: what was measured, no verdict

def _raw(variant_factor: float, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for p in range(2):
        for t in range(30):
            base = 1e-3 * (1 + 0.01 * rng.standard_normal())
            for case, f in (("aes", 1.0), ("aes (A/A control)", 1.0), ("variant", variant_factor)):
                rows.append({"impl": "table", "case": case, "bytes": 65536, "process": p, "trial": t,
                             "seconds": base * f * (1 + 0.002 * rng.standard_normal())})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("factor, words", [(0.5, "faster than AES"), (2.0, "slower than AES"),
                                           (1.0, "no difference from AES beyond the A/A band")])
def test_speed_verdict_words(factor, words):
    t = speed.speed_table(_raw(factor), "toy")
    assert t["finding"].iloc[0] == words


def test_the_speed_table_states_no_claim_and_no_verdict():
    """A variant's speed table says what was measured; a claim the paper never made ("faster") gets no verdict and
    a measured slowdown is never called "the opposite of the claim"."""
    t = speed.speed_table(_raw(2.0), "toy")
    assert "verdict" not in t.columns and "reason" not in t.columns
    assert not t.astype(str).apply(lambda c: c.str.contains("claim|contradicted")).any().any()


def test_claim_row_is_ordering():
    assert speed.claim_row("x", "table")["rule"] == "ordering"


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


def _timed(results: dict) -> dict:
    """``results`` with stand-ins for what measuring speed adds (SMALL turns it off)."""
    raw = pd.DataFrame({"cipher": ["aes"], "impl": ["table"], "mode": ["ecb"], "operation": ["encrypt"],
                        "bytes": [16], "trial": [0], "seconds": [1e-6], "run_id": ["r1"]})
    return {**results, "speed_raw": raw, "speed": pd.DataFrame({"x": [1]}), "compile": pd.DataFrame({"x": [1]})}


def test_save_is_byte_identical(batteries, monkeypatch, tmp_path):
    """driver.save writes every declared table through outputs.save, the same bytes from the same seed."""
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path)
    run = VARIANTS.run("quick")
    prof = paths.Profile("quick")
    driver.save(run, _timed(batteries["aes"]))
    first = {t: prof.table(f"variant_aes_{t}").read_bytes() for t in driver.TABLES}
    driver.save(run, _timed(driver.run_battery("aes", seed=3, **SMALL)))
    assert first == {t: prof.table(f"variant_aes_{t}").read_bytes() for t in driver.TABLES}
    assert all(prof.figure(f"variant_aes_{f}", "png").is_file() for f in VARIANTS.figures)
    partial = {k: v for k, v in _timed(batteries["aes"]).items() if k not in ("speed", "compile")}
    with pytest.raises(ValueError, match=r"variant 'aes': tables: missing \['speed', 'compile'\]"):
        driver.save(run, partial)


def test_the_raw_speed_file_records_the_seed_and_the_parameters_that_ran(batteries, monkeypatch, tmp_path):
    import json

    assert batteries["aes"]["seed"] == 3
    assert {k: batteries["aes"]["parameters"][k] for k in SMALL} == SMALL
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path)
    run = VARIANTS.run("quick", {"speed_trials": 3})
    driver.save(run, _timed(batteries["aes"]))
    meta = json.loads(paths.Profile("quick").raw_meta("variant_aes_speed").read_text())
    assert (meta["seed"], meta["config"], meta["run_id"], meta["variant"]) == (run.seed, run.config, "r1", "aes")
    assert meta["config"]["speed_trials"] == 3


# ---------------------------------------------------------------- bad parameters

@pytest.mark.parametrize("kwargs, name", [
    ({"variant": "no-such-cipher"}, "variant"),
    ({"variant": "aes", "affinity_triples": 0}, "affinity_triples"),
    ({"variant": "aes", "image_stride": -1}, "image_stride"),
    ({"variant": "aes", "measure_speed": "yes"}, "measure_speed"),
    ({"variant": "aes", "speed_trials": 1.5}, "speed_trials"),
    ({"variant": "aes", "speed_bytes": 100}, "speed_bytes"),
    ({"variant": "aes", "trail_rounds": 0}, "trail_rounds"),
])
def test_bad_battery_parameters(kwargs, name):
    with pytest.raises(ValueError, match=name):
        driver.run_battery(**kwargs)


@pytest.mark.parametrize("call, name", [
    (lambda: affinity.affinity_test(toy_affine(0)[0], n_triples=0), "n_triples"),
    (lambda: affinity.gf2_inverse(np.zeros((2, 3))), "matrix"),
    (lambda: affinity.decrypt_with_model(None, b"", mode="ctr"), "mode"),
    (lambda: affinity.BlockOracle(42), "encrypt_blocks"),
    (lambda: correctness.correctness_table("aes", n_messages=0), "n_messages"),
    (lambda: speed.measure_speed("aes", nbytes=17), "nbytes"),
    (lambda: bytemaps.is_affine(np.arange(10)), "sbox"),
])
def test_bad_parameters_name_themselves(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_speed_registers_the_variant_in_fresh_processes():
    name, path = driver.resolve("aes-affine-sbox")
    raw = speed.measure_speed(name, path, nbytes=1024, processes=1, trials=3)
    assert set(raw["case"]) == set(speed.CASES)
    assert set(raw["impl"]) == set(correctness.styles_here(name))
    assert (raw["compile_seconds"] > 0).all()
    table = speed.speed_table(raw, name)
    assert set(table["finding"]) <= set(speed.WORDS.values()) and len(table) == raw["impl"].nunique()


# ---------------------------------------------------------------- the declaration

def test_the_battery_runs_with_every_parameter_the_chapter_declares(monkeypatch):
    """driver.battery passes each Params field (names aside: the list a run builds) to run_battery, by name."""
    import dataclasses
    import inspect

    from cipherlab.experiments.variant.chapter import VARIANTS

    run = VARIANTS.run("quick", {"trail_rounds": 5})
    seen = {}
    monkeypatch.setattr(driver, "run_battery", lambda variant, **kw: seen.update(kw, variant=variant) or {})
    driver.battery(run, "aes-4-rounds")
    counts = {f.name: getattr(run.params, f.name) for f in dataclasses.fields(run.params) if f.name != "names"}
    assert seen == {**counts, "variant": "aes-4-rounds", "profile": "quick", "seed": run.seed}
    assert seen["trail_rounds"] == 5
    monkeypatch.undo()
    # and run_battery takes each of them (a renamed keyword fails here, not in the pipeline)
    assert set(counts) <= set(inspect.signature(driver.run_battery).parameters)


@pytest.mark.parametrize("overrides, key", [
    ({"names": ["aes-4-rounds", "aes-4-rounds"]}, "names"), ({"names": ["../x"]}, "names"),
    ({"names": ["no-such-variant"]}, "variant.names"), ({"trail_rounds": 21}, "trail_rounds"),
    ({"speed_bytes": 24}, "speed_bytes"), ({"speed_trials": 1}, "speed_trials"),
    ({"speed_processes": 65}, "speed_processes"), ({"keystream_bytes": 1000}, "keystream_bytes"),
    ({"serial_m": 1}, "serial_m"), ({"lambda_sets": 0}, "lambda_sets"), ({"bogus": 1}, "bogus"),
])
def test_the_variant_section_refuses_what_the_battery_cannot_run(overrides, key):
    from cipherlab.experiments.variant.chapter import VARIANTS

    with pytest.raises(ValueError, match=key):
        VARIANTS.run("quick", overrides)


def test_a_shipped_runs_book_reads_the_speed_trials_instead_of_timing(monkeypatch, tmp_path):
    """In the tree of a shipped run's book, battery() takes the run's speed trials (through the one raw reader:
    measured with these parameters and seed, of this variant) and never times; another configuration is refused."""
    from cipherlab.experiments.variant.chapter import VARIANTS
    from cipherlab.pipeline import paths
    from cipherlab.pipeline.provenance import run_metadata
    from cipherlab.pipeline.results import RawDataError, save_raw

    monkeypatch.setattr(paths, "TREES_DIR", tmp_path)
    monkeypatch.setenv(paths.TREE_ENV, "runs/some-box-2026-11-27")
    run = VARIANTS.run("quick")
    trials = pd.DataFrame({"case": ["aes"], "seconds": [0.1]})
    meta = run_metadata(profile="quick", seed=run.seed, config=run.config, variant="aes-4-rounds")
    save_raw(trials, "variant_aes-4-rounds_speed", run.profile, meta=meta)
    seen = {}
    monkeypatch.setattr(driver, "run_battery", lambda variant, **kw: seen.update(kw) or {})
    monkeypatch.setattr(driver.speed, "measure_speed", lambda *a, **k: pytest.fail("a shipped run's book timed"))
    driver.battery(run, "aes-4-rounds")
    assert seen["speed_raw"].equals(trials)
    other = VARIANTS.run("quick", {"speed_trials": run.params.speed_trials + 1})
    with pytest.raises(RawDataError, match="other parameters.*speed_trials"):
        driver.battery(other, "aes-4-rounds")
