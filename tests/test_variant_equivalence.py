"""Structural equivalence to AES (cipherlab.experiments.variant.equivalence): S(x) ^ c is AES with transformed round
keys, decided from the structure and confirmed by encrypting; the S-box over many keys
(cipherlab.experiments.variant.keys); the key avalanche and the SP 800-22 pass rate a random source reaches."""
from __future__ import annotations

import math

import numpy as np
import pytest
import yaml
from hypothesis import given, settings, strategies as st

import naive
from cipherlab.ciphers.variant_files import encrypt_with_round_keys, register_variant_file
from cipherlab.experiments.variant import equivalence, keys, randomness, structure
from cipherlab.pipeline.paths import variant_file

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")


def _register(folder, name, blocks):
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"name": name, "summary": name, "key_bytes": 16, **blocks}), encoding="utf-8")
    return register_variant_file(path).name


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    folder = tmp_path_factory.mktemp("equivalence")
    mix = {"linear": {"kind": "mixcolumns"}}
    return {
        "xor": _register(folder, "sbox-xor-5a", {"sbox": {"kind": "derived", "steps": [{"xor": {"value": 0x5A}}]},
                                                 **mix}),
        "keyed": _register(folder, "sbox-xor-key", {"sbox": {"kind": "derived", "from": "key",
                                                             "steps": [{"xor": {"byte": 3}}]}, **mix}),
        "additional": _register(folder, "sbox-xor-extra", {"additional_key": 7, "sbox": {
            "kind": "derived", "steps": [{"xor": {"byte": "additional"}}]}, **mix}),
        "input": _register(folder, "sbox-input-rotate", {"sbox": {"kind": "derived", "from": "key",
                                                                  "steps": [{"rotate": {"byte": 0}}]}, **mix}),
        "random": _register(folder, "sbox-random", {"sbox": {"kind": "random", "seed": 1}, **mix}),
        "shift": _register(folder, "shift-fixed", {"sbox": {"kind": "rijndael"}, "shift_rows": {
            "kind": "permutation", "permutation": list(range(16))}, **mix}),
        "matrix": _register(folder, "matrix-xor", {"sbox": {"kind": "derived", "steps": [{"xor": {"value": 1}}]},
                                                  "linear": {"matrix": [[1, 1, 1, 2], [2, 1, 1, 1], [1, 2, 1, 1],
                                                                        [1, 1, 2, 1]]}}),
    }


@settings(max_examples=30, deadline=None)
@given(d=st.integers(0, 255), c=st.integers(0, 255))
def test_translation_finds_the_xor_on_either_side(d, c):
    table = [naive.SBOX[x ^ d] ^ c for x in range(256)]
    assert equivalence.translation(table) == (d, c)


def test_translation_of_a_table_that_is_not_rijndaels_up_to_xors():
    assert equivalence.translation(np.random.default_rng(0).permutation(256)) is None


@settings(max_examples=15, deadline=None)
@given(key=st.binary(min_size=16, max_size=16), block=st.binary(min_size=16, max_size=16), c=st.integers(1, 255))
def test_sbox_xor_c_is_aes_with_c_in_every_round_key_but_the_first_in_the_naive_reference(key, block, c):
    """The test case of issue 37, from tests/naive.py alone: ShiftRows and MixColumns carry a constant state to
    itself (each row of MixColumns' matrix sums to 1), so the XOR after SubBytes joins the round key."""
    sboxes = [[v ^ c for v in naive.SBOX]] * 10
    variant = naive.encrypt_block_rounds(key, block, sboxes, [naive.AES_PERM] * 10)
    rk = naive.round_keys(key)
    s = [a ^ b for a, b in zip(block, rk[0])]
    for r in range(1, 11):
        s = naive._shift_rows([naive.SBOX[b] for b in s])
        if r < 10:
            s = naive._mix_columns(s)
        s = [a ^ b ^ c for a, b in zip(s, rk[r])]
    assert bytes(s) == variant
    assert naive._mix_columns([c] * 16) == [c] * 16


def test_sbox_xor_c_is_found_equivalent_and_confirmed(variants):
    row = equivalence.equivalence_table(variants["xor"], n_keys=3, n_blocks=16).iloc[0]
    assert row["equivalent_to"] == equivalence.DISGUISED and row["confirmed"] and not row["key_dependent"]
    assert row["transformation"] == "k'_0 = k_0, and k'_r = k_r ^ 0x5A in every byte for r = 1..10"
    assert row["blocks_equal"] == row["blocks_confirmed"] == 48
    assert "each row of its matrix sums to 1" in row["decided_from"]


@pytest.mark.parametrize("which", ["keyed", "additional"])
def test_a_key_derived_xor_is_aes_under_a_key_dependent_transformation(variants, which):
    row = equivalence.equivalence_table(variants[which], n_keys=4, n_blocks=8).iloc[0]
    assert row["equivalent_to"] == equivalence.DISGUISED and row["confirmed"] and row["key_dependent"]
    # a constant drawn with the key as its additional byte is named as that byte, not as a function of the key
    said = ("with c the additional key byte itself" if which == "additional" else
            "with a byte c that depends on the key")
    assert said in row["transformation"]


def test_the_equivalence_is_decided_for_every_key_size_and_names_the_side_of_the_xor(tmp_path):
    name = register_variant_file(variant_file("al-mamun-2017")).name   # key_bytes 16, 24 and 32
    row = equivalence.equivalence_table(name, n_keys=2, n_blocks=8).iloc[0]
    assert row["confirmed"] and row["key_sizes"] == "16, 24, 32 B"
    assert row["keys_confirmed"] == 6 and row["blocks_equal"] == row["blocks_confirmed"] == 48
    assert row["sbox_xor"] == "its output" and "up to an XOR on its output, which" in row["decided_from"]
    assert "r = 1..R (R = 10, 12, 14 by key size)" in row["transformation"]
    assert row["rounds"] == row["aes_rounds"] == "10, 12, 14"      # one number per key size, not the smallest's
    # the bytes decided are listed once, in the table; every other text names the transformation without them
    assert "the byte drawn with each key decided: c = 0x" in row["transformation"]
    short = equivalence.short_transformation(row["transformation"])
    assert short.endswith("with c the additional key byte itself") and "0x" not in short
    assert equivalence.xor_sides([[0, 3]], [[0, 0]]) == "its input"
    assert equivalence.xor_sides([[1]], [[2]]) == "its input and output"
    assert equivalence.xor_sides([[0]], [[0]]) == ""


def test_an_input_rotation_by_a_key_byte_is_not_a_translation(variants):
    row = equivalence.equivalence_table(variants["input"], n_keys=2, n_blocks=8).iloc[0]
    assert row["equivalent_to"] == equivalence.NONE_FOUND


@pytest.mark.parametrize("which, reason", [
    ("random", "is not Rijndael's up to an XOR"), ("shift", "ShiftRows is not AES's"),
    ("matrix", "linear layer is matrix, not AES's MixColumns")])
def test_what_is_not_aes_is_not_found_equivalent_and_says_why(variants, which, reason):
    row = equivalence.equivalence_table(variants[which], n_keys=2, n_blocks=8).iloc[0]
    assert row["equivalent_to"] == equivalence.NONE_FOUND and reason in row["decided_from"]
    assert row["blocks_confirmed"] == 0 and not row["confirmed"]


def test_aes_and_round_reduced_aes_are_recognised():
    assert equivalence.equivalence_table("aes", n_keys=2, n_blocks=8).iloc[0]["equivalent_to"] == "AES"
    name = register_variant_file(variant_file("aes-4-rounds")).name
    row = equivalence.equivalence_table(name, n_keys=2, n_blocks=8).iloc[0]
    assert row["equivalent_to"] == "AES reduced to 4 of its 10 rounds" and row["confirmed"]


def test_encrypt_with_round_keys_is_aes_for_aes_round_keys():
    from cipherlab.ciphers.aes import expand_key
    key = bytes(range(16))
    blocks = np.frombuffer(bytes(range(32)), dtype=np.uint8).reshape(2, 16)
    want = [naive.encrypt_block(key, bytes(b)) for b in blocks]
    assert [bytes(r) for r in encrypt_with_round_keys(expand_key(key), blocks)] == want
    with pytest.raises(ValueError, match="round_keys must be a uint8 array"):
        encrypt_with_round_keys(np.zeros((1, 16), np.uint8), blocks)
    with pytest.raises(ValueError, match="blocks must be a uint8 array"):
        encrypt_with_round_keys(expand_key(key), np.zeros((2, 15), np.uint8))


# --- the S-box over many keys ----------------------------------------------------------------------

def test_a_key_derived_xor_leaves_every_sbox_measure_at_aes_value(variants):
    samples = keys.sbox_samples(variants["keyed"], n_keys=6, seed=1)
    ours = samples[samples["cipher"] != keys.CONTROL]
    assert len(ours) == 6 and ours["key_dependent"].all()
    summary = keys.sbox_key_summary(samples).set_index("measure")
    for m in ("nonlinearity", "differential_uniformity", "algebraic_degree", "sac_mean", "sac_max_deviation",
              "bic_nonlinearity"):
        assert summary.loc[m, "equal_to_aes"] == 1.0, m
    assert summary.loc["nonlinearity", "aes"] == 112 and summary.loc["differential_uniformity", "aes"] == 4


def test_a_fixed_sbox_is_one_sample_and_a_shuffled_one_a_distribution(tmp_path):
    fixed = keys.sbox_samples("aes", n_keys=5, seed=0)
    assert len(fixed[fixed["cipher"] != keys.CONTROL]) == 1
    name = _register(tmp_path, "round-shuffle", {"sbox": {"kind": "derived", "from": "round-key",
                                                           "steps": [{"shuffle": {"bytes": "all"}}]},
                                                  "linear": {"kind": "mixcolumns"}})
    samples = keys.sbox_samples(name, n_keys=2, seed=0)
    ours = samples[samples["cipher"] != keys.CONTROL]
    assert len(ours) == 20 and set(ours["sample"]) == {0, 1}   # ten rounds, each its own S-box
    assert (ours["nonlinearity"] < 112).all()


# --- the key avalanche, the pass rate of a random source ---------------------------------------------

def test_the_key_avalanche_of_aes_is_about_half_the_bits():
    hist = structure.key_avalanche("aes", n_keys=1, n_plaintexts=4, seed=0)
    assert hist.sum() == 128 * 4
    mean, low, high = structure.mean_interval(hist)
    assert low < 50 < high and 45 < mean < 55


@pytest.mark.parametrize("n", [2, 8, 16, 100])
def test_the_expected_pass_probability_is_the_binomial_tail(n):
    need = math.ceil(n * ((1 - 0.01) - 3 * math.sqrt(0.01 * 0.99 / n)) - 1e-9)
    want = sum(math.comb(n, k) * 0.99 ** k * 0.01 ** (n - k) for k in range(need, n + 1))
    assert randomness.expected_pass_probability(n) == pytest.approx(want, rel=1e-9)
    assert randomness.expected_pass_probability(8) == pytest.approx(0.99 ** 8)


@pytest.mark.parametrize("rounds, text", [([3], "3"), ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "1-10"),
                                          ([2, 4, 6, 7, 8, 9], "2, 4, 6-9"), ([1, 3], "1, 3")])
def test_the_rounds_of_a_reason_are_all_named_consecutive_ones_as_a_range(rounds, text):
    from cipherlab.experiments.variant.equivalence import _rounds_text
    assert _rounds_text(rounds) == text
