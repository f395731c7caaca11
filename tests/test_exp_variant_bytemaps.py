"""Tests of the variant battery: byte maps: which S-boxes are affine (experiments.variant.bytemaps)."""

from __future__ import annotations

import numpy as np
import pytest

from cipherlab.ciphers.sboxes import rijndael_sbox, second_sbox
from cipherlab.experiments.variant import bytemaps

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")


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
