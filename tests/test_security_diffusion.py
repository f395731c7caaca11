"""Tests of cipherlab.experiments.security.diffusion."""

from __future__ import annotations

import pytest

from cipherlab.experiments.security import diffusion


# --------------------------------------------------------------- diffusion

@pytest.mark.parametrize("cipher", ["aes-2sbox", "maes-1", "maes-2"])
def test_variants_are_byte_local(cipher):
    dep = diffusion.byte_dependency_matrix(cipher, n_keys=2, n_plaintexts=16, seed=1)
    assert (dep.sum(axis=0) == 1).all() and (dep.sum(axis=1) == 1).all()


def test_aes_full_dependency_and_rounds():
    dep = diffusion.byte_dependency_matrix("aes", n_keys=2, n_plaintexts=16, seed=1)
    assert dep.all()
    table = diffusion.rounds_to_full_diffusion("aes", max_rounds=3, n_keys=1, n_plaintexts=16)
    assert table.dependent_pairs.tolist() == [16, 64, 256]
    assert diffusion.first_full_diffusion_round(table) == 3


def test_avalanche_sac_shapes_and_values():
    hist, sac = diffusion.avalanche_sac("aes-2sbox", n_keys=1, n_plaintexts=8, seed=2)
    assert hist.sum() == 8 * 128 and sac.shape == (128, 128)
    assert hist[9:].sum() == 0  # one flipped bit never leaves its byte
    hist, sac = diffusion.avalanche_sac("aes", n_keys=1, n_plaintexts=8, seed=2)
    s = diffusion.avalanche_summary(hist, sac, "aes")
    assert 45 < s["avalanche_mean_percent"] < 55


def test_diffusion_validation():
    with pytest.raises(ValueError, match="cipher"):
        diffusion.byte_change_rates("des")
    # the runners' one cipher check: one name per distinct cipher, so the family "maes" (which new() takes,
    # with a default approach) is refused too; a key size that is not AES's is named, not a KeyError
    with pytest.raises(ValueError, match=r"^cipher must be one of \(.*'maes-1'.*\), got 'maes'$"):
        diffusion.byte_change_rates("maes")
    with pytest.raises(ValueError, match=r"^key_bytes must be one of \(16, 24, 32\), got 20$"):
        diffusion.rounds_to_full_diffusion("aes", key_bytes=20)
    with pytest.raises(ValueError, match="n_keys"):
        diffusion.byte_change_rates("aes", n_keys=0)
