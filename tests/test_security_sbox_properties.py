"""Tests of cipherlab.experiments.security.sbox_properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cipherlab.experiments.security import sbox_properties as sp
from cipherlab.ciphers.sboxes import rijndael_sbox, second_sbox

from naive import ddt_naive, degree_naive, lat_entry_naive, rijndael_sbox_naive

RIJNDAEL = np.array(rijndael_sbox_naive())


# ---------------------------------------------------------------- S-boxes

def test_naive_rijndael_matches_core():
    assert np.array_equal(RIJNDAEL, rijndael_sbox())


def test_rijndael_known_properties():
    # Daemen & Rijmen, The Design of Rijndael: NL 112, DU 4, max |LAT| 16
    # (bias 2^-4), degree 7, no fixed or opposite fixed points.
    p = sp.sbox_properties(RIJNDAEL)
    assert p["bijective"]
    assert p["nonlinearity"] == 112
    assert p["differential_uniformity"] == 4
    assert p["max_lat_abs"] == 16 and p["max_linear_bias"] == 1 / 16
    assert p["algebraic_degree"] == 7
    assert p["fixed_points"] == 0 and p["opposite_fixed_points"] == 0
    assert p["bic_nonlinearity"] == 112
    assert abs(p["sac_mean"] - 0.5048828125) < 1e-12  # 1034 flips of 2048


def test_ddt_matches_naive():
    assert np.array_equal(sp.difference_distribution_table(RIJNDAEL), np.array(ddt_naive(list(RIJNDAEL))))


def test_lat_matches_naive_on_sampled_masks():
    lat = sp.linear_approximation_table(RIJNDAEL)
    rng = np.random.default_rng(3)
    for a, b in rng.integers(0, 256, size=(40, 2)):
        assert lat[a, b] == lat_entry_naive(list(RIJNDAEL), int(a), int(b))


def test_degree_matches_naive():
    assert sp.algebraic_degree(RIJNDAEL) == degree_naive(list(RIJNDAEL)) == 7


@settings(max_examples=15, deadline=None)
@given(st.permutations(list(range(256))))
def test_properties_of_random_permutations_match_naive(perm):
    s = np.array(perm)
    ddt = sp.difference_distribution_table(s)
    assert np.array_equal(ddt, np.array(ddt_naive(perm)))
    assert ddt.sum(axis=1).tolist() == [256] * 256
    lat = sp.linear_approximation_table(s)
    assert lat[0, 0] == 128 and lat[5, 9] == lat_entry_naive(perm, 5, 9)
    # Parseval: sum of squared Walsh coefficients per component is 2^16
    w = sp.walsh_spectrum(s)
    assert ((w.astype(np.int64) ** 2).sum(axis=1) == 256 * 256).all()
    assert sp.is_bijective(s)


def test_affine_sbox_is_detected():
    # the identity and any affine map: nonlinearity 0, degree 1, DU 256
    ident = np.arange(256)
    assert sp.nonlinearity(ident) == 0
    assert sp.algebraic_degree(ident) == 1
    assert sp.differential_uniformity(ident) == 256
    assert sp.fixed_points(ident).size == 256
    assert sp.opposite_fixed_points(ident ^ 0xFF).size == 256
    assert not sp.is_bijective(np.zeros(256, dtype=int))


def test_sbox_validation():
    with pytest.raises(ValueError, match="sbox"):
        sp.as_sbox(np.arange(255))
    with pytest.raises(ValueError, match="sbox"):
        sp.as_sbox(np.arange(256) + 1)


def test_the_real_second_sbox_is_affine():
    s2 = second_sbox(0x7F, "xor-index")[0]
    assert sp.nonlinearity(s2) == 0 and sp.algebraic_degree(s2) == 1
