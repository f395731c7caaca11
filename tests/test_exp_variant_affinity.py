"""Tests of the variant battery: the affinity test and attack, and the GF(2) algebra they rest on (experiments.variant.affinity)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cipherlab.experiments.security.driver import attack_targets
from cipherlab.experiments.variant import driver
from cipherlab.experiments.variant import affinity

from naive import gf2_apply_naive, gf2_inverse_naive

from variant_toys import invertible_matrix, toy_affine

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")


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


def test_a_bad_mode_is_one_line_at_each_public_door():
    """run_affine_attack checks its mode itself, before encrypting: against AES the model cannot decrypt, so
    decrypt_with_model (which checks it for a direct caller) is never reached and would not say it."""
    line = r"^mode must be one of \('ecb', 'cbc'\), got 'ctr'$"
    with pytest.raises(ValueError, match=line):
        affinity.run_affine_attack("aes", bytes(16), bytes(32), "ctr")
    with pytest.raises(ValueError, match=line):
        affinity.decrypt_with_model(None, b"", mode="ctr")
