"""S-boxes: computed from definitions, bijective, inverses invert, published tables."""
from __future__ import annotations

import numpy as np
import pytest

import naive
from cipherlab.analysis import paper
from cipherlab.ciphers.sboxes import (SECOND_SBOX_CONSTRUCTIONS, gf_inverse, gf_mul, rijndael_inverse_sbox,
                              rijndael_sbox, second_sbox)


def test_gf_mul_examples_from_fips197():
    # FIPS-197 section 4.2: {57} * {83} = {c1}, {57} * {13} = {fe}
    assert gf_mul(0x57, 0x83) == 0xC1
    assert gf_mul(0x57, 0x13) == 0xFE


def test_gf_inverse_is_inverse():
    assert gf_inverse(0) == 0
    for a in range(1, 256):
        assert gf_mul(a, gf_inverse(a)) == 1


def test_rijndael_sbox_matches_naive_and_fips_examples():
    s = rijndael_sbox()
    assert s.dtype == np.uint8 and s.shape == (256,)
    assert list(s) == naive.SBOX
    # FIPS-197 Figure 7 examples: S(53) = ED, S(00) = 63
    assert s[0x53] == 0xED and s[0x00] == 0x63
    inv = rijndael_inverse_sbox()
    assert np.array_equal(inv[s], np.arange(256))
    assert np.array_equal(s[inv], np.arange(256))


@pytest.mark.parametrize("construction", SECOND_SBOX_CONSTRUCTIONS)
def test_second_sbox_bijective_for_every_xor_byte(construction):
    for xor_byte in range(256):
        fwd, inv = second_sbox(xor_byte, construction)
        assert fwd.dtype == np.uint8 and inv.dtype == np.uint8
        assert np.array_equal(np.sort(fwd), np.arange(256))
        assert np.array_equal(inv[fwd], np.arange(256))
        assert np.array_equal(fwd[inv], np.arange(256))
        ref_fwd, ref_inv = naive.second_sbox(xor_byte, construction)
        assert list(fwd) == ref_fwd and list(inv) == ref_inv


def test_second_sbox_returns_copies():
    a, _ = second_sbox()
    a[0] ^= 1
    assert second_sbox()[0][0] != a[0]


def _published_grid(paper_id: str, table: str) -> dict[tuple[int, int], int]:
    frame = paper.published(paper_id, table)
    assert len(frame) == 256, f"{paper_id} {table}: expected 256 transcribed cells, got {len(frame)}"
    return {(int(r, 16), int(c, 16)): int(v, 16) for r, c, v in zip(frame["row"], frame["column"], frame["value"])}


def _differing(grid, sbox) -> set[tuple[int, int]]:
    return {(r, c) for (r, c), v in grid.items() if int(sbox[16 * r + c]) != v}


@pytest.mark.parametrize("paper_id", ["000", "001"])
def test_published_table1_cell_by_cell(paper_id):
    """Exactly one cell differs: row 1, column 7 printed BE; the construction gives BF.

    BE is also printed at row 5, column D, and the published inverse (Table 2)
    maps BF back to 17, so the printed Table 1 cell is a misprint.
    """
    grid = _published_grid(paper_id, "Table 1")
    fwd, _ = second_sbox(0x7F)
    assert _differing(grid, fwd) == {(1, 7)}
    assert grid[(1, 7)] == 0xBE and fwd[0x17] == 0xBF and grid[(5, 0xD)] == 0xBE


@pytest.mark.parametrize("paper_id", ["000", "001"])
def test_published_table2_cell_by_cell(paper_id):
    grid = _published_grid(paper_id, "Table 2")
    _, inv = second_sbox(0x7F)
    assert _differing(grid, inv) == set()


def test_prose_reading_does_not_reproduce_the_tables():
    grid = _published_grid("000", "Table 1")
    fwd, _ = second_sbox(0x7F, construction="xor-sbox")
    assert len(_differing(grid, fwd)) == 256


@pytest.mark.parametrize("bad", [-1, 256, 1.5, "7F", None, True])
def test_second_sbox_rejects_bad_xor_byte(bad):
    with pytest.raises(ValueError, match="xor_byte"):
        second_sbox(bad)


def test_second_sbox_rejects_unknown_construction():
    with pytest.raises(ValueError, match="construction.*xor-index"):
        second_sbox(0x7F, construction="prose")
