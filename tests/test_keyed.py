"""The families of cipherlab.ciphers.keyed: each derivation step and ShiftRows method against tests/naive.py,
every derived S-box a permutation, and the one-line refusals of derivations that are not."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import naive
from cipherlab.ciphers.keyed import (AES_SHIFT_ROWS, SBoxPlan, gf2_rank, is_permutation, parse_shift_rows,
                                     parse_steps)
from cipherlab.ciphers.sboxes import rijndael_sbox

KEY = st.binary(min_size=16, max_size=16)
RIJNDAEL = rijndael_sbox().tobytes()


def _plan(steps, source="key", additional=False, base=RIJNDAEL):
    return SBoxPlan(base, source, parse_steps("v.yaml", "sbox.steps", steps, source, 16, additional))


def test_aes_shift_rows_is_fips197s():
    assert list(AES_SHIFT_ROWS) == naive._shift_rows(list(range(16)))
    assert list(AES_SHIFT_ROWS) == naive.AES_PERM == naive.row_offsets_perm_naive([0, 1, 2, 3])


@settings(max_examples=25, deadline=None)
@given(key=KEY)
def test_shuffle_is_rc4s_key_scheduling_over_the_table(key):
    got = _plan([{"shuffle": {"bytes": "all"}}]).table(np.frombuffer(key, np.uint8))
    assert got.tolist() == naive.ksa_shuffle_naive(naive.SBOX, key)
    some = _plan([{"shuffle": {"bytes": [3, 0, 9]}}]).table(np.frombuffer(key, np.uint8))
    assert some.tolist() == naive.ksa_shuffle_naive(naive.SBOX, [key[3], key[0], key[9]])


@settings(max_examples=25, deadline=None)
@given(key=KEY, index=st.integers(0, 15))
def test_rotate_xor_and_affine_steps_match_the_naive_ones(key, index):
    src = np.frombuffer(key, np.uint8)
    xor_all = 0
    for b in key:
        xor_all ^= b
    assert _plan([{"rotate": {"byte": index}}]).table(src).tolist() == naive.rotate_table_naive(naive.SBOX, key[index])
    assert _plan([{"xor": {"byte": "xor-all"}}]).table(src).tolist() == [v ^ xor_all for v in naive.SBOX]
    assert _plan([{"xor": {"value": 0x5A}}], source=None).table().tolist() == [v ^ 0x5A for v in naive.SBOX]
    rot = _plan([{"affine": {"matrix": "rotate", "matrix_byte": index, "constant_byte": 15 - index}}]).table(src)
    assert rot.tolist() == naive.affine_table_naive(naive.SBOX, rotate=key[index], constant=key[15 - index])
    rows = [0xF1, 0xE3, 0xC7, 0x8F, 0x1F, 0x3E, 0x7C, 0xF8]   # FIPS-197's affine matrix, invertible
    fixed = _plan([{"affine": {"matrix": rows, "constant": 0x63}}], source=None).table()
    assert fixed.tolist() == naive.affine_table_naive(naive.SBOX, rows=rows, constant=0x63)


def test_the_fips197_affine_map_of_the_inverse_is_rijndaels_sbox():
    """An independent check of the affine step's bit order: FIPS-197's affine map applied to GF(2^8) inversion."""
    inverse = bytes(naive.gf_inverse(x) for x in range(256))
    rows = [0xF1, 0xE3, 0xC7, 0x8F, 0x1F, 0x3E, 0x7C, 0xF8]
    got = _plan([{"affine": {"matrix": rows, "constant": 0x63}}], source=None, base=inverse).table()
    assert got.tolist() == naive.SBOX


@settings(max_examples=30, deadline=None)
@given(key=KEY, additional=st.integers(0, 255))
def test_every_derived_sbox_is_a_permutation(key, additional):
    plan = _plan([{"shuffle": None}, {"rotate": {"byte": 2}}, {"affine": {"matrix": "rotate", "matrix_byte": 1,
                                                                           "constant_byte": 4}},
                  {"xor": {"byte": "additional"}}], additional=True)
    assert is_permutation(plan.table(np.frombuffer(key, np.uint8), additional))


@settings(max_examples=25, deadline=None)
@given(key=KEY)
def test_shift_rows_methods_match_the_naive_ones(key):
    rk = np.frombuffer(key * 2, np.uint8).reshape(2, 16)
    offsets = parse_shift_rows("v.yaml", {"kind": "derived", "from": "key", "method": "row-offsets",
                                          "bytes": [1, 5, "xor-all", 15]}, 16)
    x = 0
    for b in key:
        x ^= b
    want = naive.row_offsets_perm_naive([key[1] % 4, key[5] % 4, x % 4, key[15] % 4])
    assert offsets.perms(key, rk)[0].tolist() == want
    shuffle = parse_shift_rows("v.yaml", {"kind": "derived", "from": "round-key", "method": "shuffle"}, 16)
    assert shuffle.perms(key, rk)[0].tolist() == naive.shuffle_perm_naive(key)
    assert sorted(shuffle.perms(key, rk)[0].tolist()) == list(range(16))


def test_round_key_plans_give_one_table_per_round():
    round_keys = np.arange(11 * 16, dtype=np.uint8).reshape(11, 16)
    plan = _plan([{"rotate": {"byte": 0}}], source="round-key")
    tables = plan.tables(bytes(16), round_keys)
    assert tables.shape == (10, 256)
    assert [t.tolist() for t in tables] == [naive.rotate_table_naive(naive.SBOX, int(round_keys[r, 0]))
                                            for r in range(1, 11)]
    assert plan.round_dependent and plan.key_dependent
    fixed = SBoxPlan(per_round=(RIJNDAEL, bytes(range(256))))
    assert [t[:3].tolist() for t in fixed.tables(bytes(16), round_keys[:4])] == [[0x63, 0x7C, 0x77], [0, 1, 2],
                                                                              [0x63, 0x7C, 0x77]]


def test_gf2_rank_matches_naive_inversion():
    rng = np.random.default_rng(5)
    for _ in range(50):
        rows = [int(v) for v in rng.integers(0, 256, 8)]
        bits = [[(r >> j) & 1 for j in range(8)] for r in rows]
        assert (gf2_rank(rows) == 8) == (naive.gf2_inverse_naive(bits) is not None)


@pytest.mark.parametrize("steps, source, additional, message", [
    ([{"affine": {"matrix": "circulant", "matrix_byte": 0}}], "key", False,
     r"v.yaml: key 'sbox.steps\[0\].affine': the circulant matrix of a key byte is singular over GF\(2\) for 128 of "
     r"the 256 values that byte takes \(first 0x00\), so for those keys the derived S-box is not a permutation"),
    ([{"affine": {"matrix": [1, 2, 4, 8, 16, 32, 64, 64]}}], None, False,
     r"key 'sbox.steps\[0\].affine': the matrix .* is singular over GF\(2\) \(rank 7 of 8\), so the derived S-box "
     r"is not a permutation"),
    ([{"xor": {"byte": 0, "value": 1}}], "key", False, r"give exactly one of 'byte'"),
    ([{"xor": {"byte": 16}}], "key", False, r"byte index 16 is outside the 16 bytes of the shortest key"),
    ([{"xor": {"byte": 3}}], None, False, r"reads key bytes \(3\); say where they come from with 'from'"),
    ([{"xor": {"byte": "additional"}}], "key", False, r"needs the variant's 'additional_key'"),
    ([{"affine": {"matrix": "circulant"}}], "key", False, r"matrix 'circulant' needs 'matrix_byte'"),
])
def test_a_derivation_that_is_not_always_a_permutation_is_refused_in_one_line(steps, source, additional, message):
    with pytest.raises(ValueError, match=message) as err:
        parse_steps("v.yaml", "sbox.steps", steps, source, 16, additional)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("spec, message", [
    ({"kind": "permutation", "permutation": [0] * 16}, r"must hold each of 0..15 once .* missing \[1, 2"),
    ({"kind": "derived", "from": "key", "method": "row-offsets", "bytes": [0, 1]}, r"takes four byte selectors"),
    ({"kind": "derived", "from": "key", "method": "shuffle", "bytes": ["additional"]}, r"for S-box steps only"),
    ({"kind": "derived", "from": "round-key", "method": "shuffle", "bytes": [16]}, r"byte index 16 is outside"),
])
def test_bad_shift_rows_are_refused_in_one_line(spec, message):
    with pytest.raises(ValueError, match=message) as err:
        parse_shift_rows("v.yaml", spec, 16)
    assert "\n" not in str(err.value)
