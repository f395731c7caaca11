"""Every registered cipher x style x mode x key size: round trips, cross-checks, options.

The ``cipher`` and ``cipher_style`` fixtures (``conftest.py``) run each test over the
cipher registry: a newly registered cipher is tested here without an edit.  The helpers the
ciphers share (key expansion, MAES IVs, the step functions) are checked against ``naive.py``,
their error paths raising ValueError naming the parameter.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import numba
from Crypto.Cipher import AES as PyAES

import cipherlab
import naive
from cipherlab import InsecureCipherWarning
from cipherlab.ciphers.aes import expand_key, inv_mix_columns_blocks, key_from_round_key, mix_columns_blocks
from cipherlab.ciphers.aes_2sbox import inv_sub_bytes_xor_blocks, sub_bytes_xor_blocks
from cipherlab.ciphers.maes import maes_ivs, xor_iv_blocks
from cipherlab.ciphers.registry import cipher_names, lookup
from conftest import OWN_STYLES

CIPHERS = cipher_names(families=True)
SIZES = (16, 24, 32)
LENGTHS = (0, 1, 15, 16, 17, 31, 33, 4095, 4096 + 7, 3 * 16384 + 5)
KEY = bytes(16)

pytestmark = pytest.mark.usefixtures("quiet_research_warning")


def _styles(cipher):
    return [s for s in lookup(cipher).styles if s in OWN_STYLES]


def _iv(mode):
    return None if mode == "ecb" else bytes(range(100, 116))


@pytest.mark.parametrize("mode", cipherlab.MODES)
@pytest.mark.parametrize("size", SIZES)
def test_round_trip_and_styles_agree(cipher_style, size, mode):
    cipher, impl = cipher_style
    rng = np.random.default_rng([size, len(cipher), len(mode)])
    key = rng.bytes(size)
    for n in LENGTHS:
        data = rng.bytes(n)
        c = cipherlab.new(key, cipher, mode, iv=_iv(mode), impl=impl)
        ct = c.encrypt(data)
        expected_len = n if mode == "ctr" else (n // 16 + 1) * 16
        assert len(ct) == expected_len
        assert c.decrypt(ct) == data
        other = cipherlab.new(key, cipher, mode, iv=_iv(mode), impl="table" if impl == "reference" else "reference")
        assert other.encrypt(data) == ct, "reference and table styles disagree"


@pytest.mark.parametrize("size", SIZES)
def test_block_matches_naive_reference(cipher, size):
    rng = np.random.default_rng([7, size, len(cipher)])
    for rounds in (None, 1, 2, 5):
        key, block = rng.bytes(size), rng.bytes(16)
        expected = naive.encrypt_block(key, block, cipher, rounds=rounds)
        for impl in _styles(cipher):
            c = cipherlab.new(key, cipher, impl=impl, rounds=rounds)
            assert c.encrypt_block(block) == expected, (impl, rounds)
            assert c.decrypt_block(expected) == block
        assert naive.decrypt_block(key, expected, cipher, rounds=rounds) == block


OPTION_SETS = [
    ("aes-2sbox", {"xor_byte": 0x00}),
    ("aes-2sbox", {"xor_byte": 0xA5, "construction": "xor-sbox"}),
    ("maes-1", {"iv_source": "keyexp"}),
    ("maes-2", {"iv_source": "keyexp"}),
    ("maes-2", {"sha3": "sha3_512", "sha3_chain": "digest"}),
    ("maes-1", {"sha3": "sha3_224"}),
    ("maes", {"approach": 1, "iv_source": "keyexp"}),
    ("maes", {"approach": 2, "sha3": "sha3_384"}),
]


@pytest.mark.parametrize("cipher,options", OPTION_SETS)
def test_options_match_naive_reference(cipher, options):
    rng = np.random.default_rng(11)
    for size in SIZES:
        key, block = rng.bytes(size), rng.bytes(16)
        expected = naive.encrypt_block(key, block, cipher, **options)
        for impl in _styles(cipher):
            c = cipherlab.new(key, cipher, impl=impl, **options)
            assert c.encrypt_block(block) == expected
            assert c.decrypt_block(expected) == block
            assert c.options == {**c.options, **options}


def test_options_change_the_cipher():
    key, block = bytes(16), bytes(range(16))
    outs = {cipherlab.new(key, "aes-2sbox", xor_byte=x).encrypt_block(block) for x in (0, 1, 0x7F)}
    outs.add(cipherlab.new(key, "aes-2sbox", construction="xor-sbox").encrypt_block(block))
    assert len(outs) == 4
    m = {cipherlab.new(key, c, iv_source=s).encrypt_block(block) for c in ("maes-1", "maes-2") for s in ("sha3", "keyexp")}
    assert len(m) == 4


def test_maes_variants_are_maes_with_the_approach_fixed():
    key, block = bytes(range(16)), bytes(16)
    for approach in (1, 2):
        variant = cipherlab.new(key, f"maes-{approach}", iv_source="keyexp")
        family = cipherlab.new(key, "maes", approach=approach, iv_source="keyexp")
        assert variant.encrypt_block(block) == family.encrypt_block(block)
        assert family.options["approach"] == approach and "approach" not in variant.options
    assert cipherlab.new(key, "maes").encrypt_block(block) == cipherlab.new(key, "maes-2").encrypt_block(block)


@settings(max_examples=25, deadline=None)
@given(key=st.sampled_from(SIZES).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       data=st.binary(max_size=300), cipher=st.sampled_from(CIPHERS), mode=st.sampled_from(cipherlab.MODES),
       impl=st.sampled_from(OWN_STYLES), iv=st.binary(min_size=16, max_size=16))
def test_round_trip_property(key, data, cipher, mode, impl, iv):
    c = cipherlab.new(key, cipher, mode, iv=None if mode == "ecb" else iv, impl=impl)
    assert c.decrypt(c.encrypt(data)) == data


def test_encryption_is_a_permutation_with_padding_off(cipher):
    # distinct plaintext blocks give distinct ciphertext blocks under one key
    blocks = np.arange(4096 * 16, dtype=np.uint32).astype(np.uint8)
    blocks[::16] = np.arange(4096) & 0xFF
    blocks[1::16] = np.arange(4096) >> 8
    ct = cipherlab.new(bytes(16), cipher, padding=False).encrypt(blocks).reshape(-1, 16)
    assert len({row.tobytes() for row in ct}) == 4096


@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview, np.ndarray])
def test_input_kind_is_returned(kind):
    data = bytes(range(40))
    arg = np.frombuffer(data, dtype=np.uint8).copy() if kind is np.ndarray else kind(data)
    c = cipherlab.new(bytes(16), mode="ctr", iv=bytes(16))
    out = c.encrypt(arg)
    assert type(out) is kind
    back = c.decrypt(out)
    assert type(back) is kind and bytes(back) == data


@pytest.mark.parametrize("threads", [1, None])
def test_threads_do_not_change_output_and_are_restored(threads):
    before = numba.get_num_threads()
    data = np.random.default_rng(3).integers(0, 256, 200_000, dtype=np.uint8)
    outs = set()
    for mode in cipherlab.MODES:
        c = cipherlab.new(bytes(16), "aes", mode, iv=_iv(mode), threads=threads)
        outs.add((mode, c.encrypt(data).tobytes()))
        assert numba.get_num_threads() == before
    ref = {(m, cipherlab.new(bytes(16), "aes", m, iv=_iv(m), impl="pycryptodome").encrypt(data).tobytes()) for m in cipherlab.MODES}
    assert outs == ref


def test_ctr_counter_carries_across_words_and_wraps():
    key = bytes(range(16))
    data = bytes(16 * 5)
    for iv in (bytes.fromhex("00000000ffffffffffffffffffffffff"), bytes.fromhex("000000000000000000000000fffffffe")):
        ref = PyAES.new(key, PyAES.MODE_CTR, nonce=b"", initial_value=iv).encrypt(data)
        for impl in OWN_STYLES:
            assert cipherlab.new(key, mode="ctr", iv=iv, impl=impl).encrypt(data) == ref
    # wrap modulo 2^128 (PyCryptodome refuses to wrap; compare with explicit blocks)
    iv = bytes([0xFF] * 16)
    for impl in OWN_STYLES:
        ks = cipherlab.new(key, mode="ctr", iv=iv, impl=impl).encrypt(bytes(32))
        ecb = cipherlab.new(key, padding=False, impl=impl)
        assert ks == ecb.encrypt_block(iv) + ecb.encrypt_block(bytes(16))


def test_insecure_warning(cipher):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        c = cipherlab.new(bytes(16), cipher)
    relevant = [w for w in caught if issubclass(w.category, InsecureCipherWarning)]
    if not lookup(cipher).research:
        assert relevant == [] and c.secure
    else:
        assert len(relevant) == 1 and not c.secure
        assert "NOT secure" in str(relevant[0].message) and cipher in str(relevant[0].message)
        assert issubclass(InsecureCipherWarning, UserWarning)


def test_round_reduced_aes_warns():
    with pytest.warns(InsecureCipherWarning, match="4 of 10 rounds"):
        cipherlab.new(bytes(16), rounds=4)


def test_expand_key_matches_fips197_appendix_a():
    rk = expand_key(bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"))
    assert rk.shape == (11, 16) and rk.dtype == np.uint8
    assert rk[10].tobytes().hex() == "d014f9a8c9ee2589e13f0cc8b6630ca6"  # w[40..43], FIPS-197 A.1
    assert [bytes(r) for r in rk] == [bytes(r) for r in naive.round_keys(bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"))]


def test_maes_ivs_shapes_and_naive():
    key = bytes(range(24))
    for approach, n in ((1, 1), (2, 12)):
        for source in ("sha3", "keyexp"):
            ivs = maes_ivs(key, approach, source)
            assert ivs.shape == (n, 16) and ivs.dtype == np.uint8
            assert [list(r) for r in ivs] == naive.maes_ivs(key, approach, source)
    # keyexp continues the schedule: its first IV follows the last round key
    assert not np.array_equal(maes_ivs(key, 1, "keyexp")[0], expand_key(key)[-1])


@pytest.mark.parametrize("impl", ("reference", "table"))
def test_step_functions(impl):
    rng = np.random.default_rng(9)
    states = rng.integers(0, 256, (50, 16), dtype=np.uint8)
    mixed = mix_columns_blocks(states, impl)
    for s, m in zip(states, mixed):
        assert list(m) == naive._mix_columns(list(s))
    assert np.array_equal(inv_mix_columns_blocks(mixed, impl), states)
    iv = rng.bytes(16)
    assert np.array_equal(xor_iv_blocks(states, iv, impl), states ^ np.frombuffer(iv, dtype=np.uint8))
    sub = sub_bytes_xor_blocks(states, impl)
    assert np.array_equal(sub, cipherlab.second_sbox()[0][states])
    assert np.array_equal(inv_sub_bytes_xor_blocks(sub, impl), states)
    # FIPS-197 Appendix B, round 1: after ShiftRows -> after MixColumns (first column)
    col = np.frombuffer(bytes.fromhex("d4bf5d30" + "e0b452ae" + "b84111f1" + "1e2798e5"), dtype=np.uint8).reshape(1, 16)
    assert mix_columns_blocks(col, impl)[0, :4].tobytes().hex() == "046681e5"


@settings(max_examples=50, deadline=None)
@given(key=st.binary(min_size=16, max_size=16), index=st.integers(1, 10))
def test_key_from_round_key_runs_the_schedule_backwards(key, index):
    assert key_from_round_key(expand_key(key)[index].tobytes(), index) == key


@pytest.mark.parametrize("args, match", [((bytes(16), 0), "round_index"), ((bytes(16), 11), "round_index"),
                                         ((bytes(24), 3), "key must be 16 bytes"), ((bytes(16), True), "round_index")])
def test_key_from_round_key_refuses_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        key_from_round_key(*args)


# -- the helpers' error paths raise ValueError naming the parameter ------------------------------------------

def test_helper_errors():
    with pytest.raises(ValueError, match="key must be 16, 24 or 32"):
        expand_key(bytes(5))
    with pytest.raises(ValueError, match="approach must be one of"):
        maes_ivs(KEY, approach=3)
    with pytest.raises(ValueError, match="iv_source must be one of"):
        maes_ivs(KEY, iv_source="x")
    with pytest.raises(ValueError, match="impl must be one of"):
        mix_columns_blocks(np.zeros((1, 16), dtype=np.uint8), impl="aesni")
    with pytest.raises(ValueError, match="state_blocks must be a uint8 array of shape"):
        mix_columns_blocks(np.zeros((1, 15), dtype=np.uint8))
    with pytest.raises(ValueError, match="iv must be 16 bytes"):
        xor_iv_blocks(np.zeros((1, 16), dtype=np.uint8), bytes(3))
