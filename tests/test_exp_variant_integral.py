"""Tests of the variant battery: the integral property and the square attack (experiments.variant.integral)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cipherlab.ciphers.sboxes import rijndael_sbox
from cipherlab.experiments.security.driver import attack_targets
from cipherlab.experiments.variant import driver
from cipherlab.ciphers.aes import expand_key
from cipherlab.experiments.variant import affinity, integral, structure
from cipherlab.pipeline.paths import variant_file

import naive

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")


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
