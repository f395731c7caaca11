"""AES in every mode, style and key size against PyCryptodome (Hypothesis); every documented error path of
``cipherlab.new`` and of its cipher objects raises ValueError naming the parameter."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from Crypto.Cipher import AES as PyAES
from Crypto.Util.Padding import pad
from hypothesis import given, settings, strategies as st

import cipherlab
from cipherlab.ciphers.modes import pkcs7_pad, pkcs7_unpad
from conftest import AES_STYLES

STYLES = AES_STYLES
KEY = bytes(16)
IV = bytes(16)


def pycryptodome(key, mode, iv):
    # a fresh object per message: our objects treat each call as one message
    if mode == "ecb":
        return PyAES.new(key, PyAES.MODE_ECB)
    if mode == "cbc":
        return PyAES.new(key, PyAES.MODE_CBC, iv=iv)
    return PyAES.new(key, PyAES.MODE_CTR, nonce=b"", initial_value=iv)


keys = st.sampled_from((16, 24, 32)).flatmap(lambda n: st.binary(min_size=n, max_size=n))


@pytest.mark.parametrize("impl", STYLES)
@pytest.mark.parametrize("mode", cipherlab.MODES)
@settings(max_examples=20, deadline=None)
@given(key=keys, iv=st.binary(min_size=16, max_size=16), data=st.binary(max_size=2000))
def test_matches_pycryptodome(mode, impl, key, iv, data):
    iv = None if mode == "ecb" else iv
    ours = cipherlab.new(key, "aes", mode, iv=iv, impl=impl)
    expected = pycryptodome(key, mode, iv).encrypt(data if mode == "ctr" else pad(data, 16))
    assert ours.encrypt(data) == expected
    assert ours.decrypt(expected) == data


@pytest.mark.parametrize("impl", STYLES)
@pytest.mark.parametrize("mode", cipherlab.MODES)
@pytest.mark.parametrize("size", (16, 24, 32))
def test_large_parallel_input_matches_pycryptodome(mode, impl, size):
    rng = np.random.default_rng(size)
    key, iv = rng.bytes(size), rng.bytes(16)
    data = rng.bytes(20_000 if impl == "reference" else 300_000)  # several parallel chunks
    iv = None if mode == "ecb" else iv
    ours = cipherlab.new(key, "aes", mode, iv=iv, impl=impl, padding=False)
    n = len(data) - len(data) % 16 if mode != "ctr" else len(data)
    expected = pycryptodome(key, mode, iv).encrypt(data[:n])
    assert ours.encrypt(data[:n]) == expected
    assert ours.decrypt(expected) == data[:n]


@pytest.mark.parametrize("impl", ["table", "reference"])
def test_threaded_and_serial_kernels_agree_across_chunks_and_the_counter_carry(impl):
    """Short inputs and one thread run the serial kernels, the rest the parallel ones: both give
    PyCryptodome's output over several chunks, with the counter's low word wrapping in the second."""
    from cipherlab.ciphers._kernels import CHUNK_BLOCKS
    from cipherlab.ciphers.modes import _PARALLEL_MIN_BYTES, max_threads
    rng = np.random.default_rng(7)
    key, data = rng.bytes(16), rng.bytes(_PARALLEL_MIN_BYTES + 8 * CHUNK_BLOCKS + 5)
    iv = bytes(8) + (2**64 - CHUNK_BLOCKS - 3).to_bytes(8, "big")
    for mode in cipherlab.MODES:
        m_iv = None if mode == "ecb" else iv
        n = len(data) if mode == "ctr" else len(data) - len(data) % 16
        expected = pycryptodome(key, mode, m_iv).encrypt(data[:n])
        for threads in {1, max_threads()}:
            c = cipherlab.new(key, "aes", mode, iv=m_iv, impl=impl, padding=False, threads=threads)
            assert c.encrypt(data[:n]) == expected
            assert c.decrypt(expected) == data[:n]


@settings(max_examples=50, deadline=None)
@given(data=st.binary(max_size=100))
def test_pkcs7_round_trip(data):
    arr = np.frombuffer(data, dtype=np.uint8)
    padded = pkcs7_pad(arr)
    assert padded.tobytes() == pad(data, 16)
    assert pkcs7_unpad(padded).tobytes() == data


def test_each_call_is_one_message():
    c = cipherlab.new(bytes(16), mode="ctr", iv=bytes(16))
    assert c.encrypt(b"abc") == c.encrypt(b"abc")
    c = cipherlab.new(bytes(16), mode="cbc", iv=bytes(16))
    assert c.encrypt(b"abc") == c.encrypt(b"abc")


def test_padding_off_block_exact():
    c = cipherlab.new(bytes(16), mode="cbc", iv=bytes(16), padding=False)
    assert len(c.encrypt(bytes(32))) == 32
    assert c.decrypt(b"") == b""


_CONVERT = {bytes: bytes, bytearray: bytearray, memoryview: lambda b: memoryview(bytes(b)),
            np.ndarray: lambda b: np.frombuffer(b, np.uint8).copy()}


def _round_trip(ours, key, mode, iv, padding, kind, data):
    """``data`` given as ``kind`` through ``ours`` and back: each result of that kind and equal to a fresh
    PyCryptodome object's answer (PKCS#7 padded where ``padding``); returns ``(ct, expected, pt, data)``."""
    expected = pycryptodome(key, mode, iv).encrypt(data if mode == "ctr" or not padding else pad(data, 16))
    ct = ours.encrypt(_CONVERT[kind](data))
    assert type(ct) is kind and bytes(ct) == expected, len(data)
    pt = ours.decrypt(_CONVERT[kind](expected))
    assert type(pt) is kind and bytes(pt) == data, len(data)
    return ct, expected, pt, data


@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview, np.ndarray])
@pytest.mark.parametrize("mode, padding", [("ctr", False), ("ecb", False), ("ecb", True), ("cbc", True)])
@pytest.mark.parametrize("impl", STYLES)
def test_a_reused_object_gives_each_message_alone_in_every_input_kind(impl, mode, padding, kind):
    """One object, many messages of every length up to a few groups, each input kind: the answer of a
    fresh PyCryptodome object per message, returned as the kind given (the hardware style runs ECB and
    CTR as one kernel call per message: its one-call path, made on the first message)."""
    rng = np.random.default_rng(len(mode) + padding)
    key, iv = rng.bytes(16), rng.bytes(16)
    iv = None if mode == "ecb" else iv
    ours = cipherlab.new(key, "aes", mode, iv=iv, impl=impl, padding=padding, threads=1)
    for n in (0, 1, 15, 16, 17, 100, 255, 256, 513, 1024):
        if not padding and mode != "ctr" and n % 16:
            continue
        _round_trip(ours, key, mode, iv, padding, kind, rng.bytes(n))
    if padding:
        with pytest.raises(ValueError, match="bad PKCS#7 padding"):
            ours.decrypt(bytes(32))


@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview, np.ndarray])
@pytest.mark.parametrize("mode, padding", [("ctr", False), ("ecb", False), ("ecb", True), ("cbc", True)])
@pytest.mark.parametrize("threads", [1, 2])
def test_long_messages_of_every_kind_match_pycryptodome_and_never_share_memory(mode, padding, threads, kind):
    """Messages at and around the sizes that go through the thread's scratch output (bytes, bytearray,
    memoryview from SCRATCH_MIN_BYTES up), on one and two threads, each the answer of PyCryptodome in the
    kind given; a result stays what it was after later calls (no result lives in the scratch), and a
    decryption that fails on bad padding leaves the next call right."""
    from cipherlab.ciphers.modes import SCRATCH_MIN_BYTES
    rng = np.random.default_rng(threads + len(mode) + padding)
    key, iv = rng.bytes(16), rng.bytes(16)
    iv = None if mode == "ecb" else iv
    ours = cipherlab.new(key, "aes", mode, iv=iv, impl="aesni" if "aesni" in STYLES else "table",
                         padding=padding, threads=min(threads, cipherlab.ciphers.modes.max_threads()))
    kept = []
    for n in (SCRATCH_MIN_BYTES - 16, SCRATCH_MIN_BYTES, SCRATCH_MIN_BYTES + 1, 300_017, 1 << 18):
        n -= 0 if padding or mode == "ctr" else n % 16
        kept.append(_round_trip(ours, key, mode, iv, padding, kind, rng.bytes(n)))
        if padding:
            with pytest.raises(ValueError, match="bad PKCS#7 padding"):
                ours.decrypt(_CONVERT[kind](bytes(n - n % 16 + 16)))
    for ct, expected, pt, data in kept:
        assert bytes(ct) == expected and bytes(pt) == data


def test_a_call_made_while_the_scratch_is_out_gets_its_own_array():
    """The scratch array is out of the thread's keeping between the kernel and the copy: a second
    _output meanwhile (a signal handler's call, say) gets a different array."""
    from cipherlab.ciphers.modes import SCRATCH_MIN_BYTES, _output, _same_kind
    first = _output(SCRATCH_MIN_BYTES, bytes)
    second = _output(SCRATCH_MIN_BYTES, bytes)
    assert not np.shares_memory(first, second)
    first[:] = 1
    second[:] = 2
    assert _same_kind(second, bytes) == bytes([2]) * SCRATCH_MIN_BYTES
    assert _same_kind(first, bytes) == bytes([1]) * SCRATCH_MIN_BYTES
    assert _output(16, np.ndarray).base is None and _output(16, bytes).base is None


# -- every documented error path raises ValueError naming the parameter -------------------------------------

@pytest.mark.parametrize("kwargs,match", [
    (dict(key=bytes(15)), "key must be 16, 24 or 32 bytes"),
    (dict(key=bytes(33)), "key must be 16, 24 or 32 bytes"),
    (dict(key="0" * 16), "key must be bytes-like"),
    (dict(key=np.zeros(16, dtype=np.int32)), "key must be bytes"),
    (dict(cipher="des"), "cipher must be one of .*aes-2sbox"),
    (dict(mode="gcm"), "mode must be one of .*ecb"),
    (dict(impl="fast"), "impl must be one of .*reference"),
    (dict(mode="cbc"), "iv is required for mode 'cbc'"),
    (dict(mode="ctr"), "iv is required for mode 'ctr'"),
    (dict(mode="cbc", iv=bytes(8)), "iv must be exactly 16 bytes"),
    (dict(mode="ctr", iv=bytes(17)), "iv must be exactly 16 bytes"),
    (dict(mode="cbc", iv="x" * 16), "iv must be 16 bytes"),
    (dict(iv=IV), "iv must be None for mode 'ecb'"),
    (dict(padding="yes"), "padding must be True or False"),
    (dict(threads=0), r"threads must be None .* 1\.\."),
    (dict(threads=10_000), r"threads must be None .* 1\.\."),
    (dict(threads=1.5), r"threads must be None"),
    (dict(rounds=0), r"rounds must be an integer in 1\.\.10"),
    (dict(rounds=11), r"rounds must be an integer in 1\.\.10"),
    (dict(key=bytes(32), rounds=15), r"rounds must be an integer in 1\.\.14"),
    (dict(colour="red"), r"unknown option\(s\) \['colour'\] for cipher 'aes'; allowed options: \('rounds',\)"),
    (dict(xor_byte=1), r"unknown option\(s\) \['xor_byte'\] for cipher 'aes'"),
    (dict(cipher="maes-1", xor_byte=1), r"unknown option\(s\) \['xor_byte'\] for cipher 'maes-1'"),
    (dict(cipher="aes-2sbox", xor_byte=300), "xor_byte must be an integer in 0..255"),
    (dict(cipher="aes-2sbox", construction="x"), "construction must be one of"),
    (dict(cipher="maes-2", iv_source="rng"), "iv_source must be one of"),
    (dict(cipher="maes-2", sha3="sha256"), "sha3 must be one of"),
    (dict(cipher="maes-2", sha3_chain="x"), "sha3_chain must be one of"),
    (dict(cipher="aes-2sbox", impl="pycryptodome"),
     r"impl 'pycryptodome' is not a style of cipher 'aes-2sbox': its styles are \('reference', 'table', 'aesni'\)"),
    (dict(cipher="maes-3"), "cipher must be one of .*maes-1.*maes-2"),
    (dict(cipher="maes", approach=3), r"approach must be one of \(1, 2\)"),
    (dict(cipher="maes", approach=True), r"approach must be one of \(1, 2\)"),
    (dict(cipher="maes-1", approach=2), r"unknown option\(s\) \['approach'\] for cipher 'maes-1'.*fixed by the name"),
    (dict(impl="pycryptodome", rounds=5), "rounds: impl 'pycryptodome'"),
])
def test_new_rejects(kwargs, match):
    kwargs = {"key": KEY, **kwargs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=match):
            cipherlab.new(**kwargs)


@pytest.mark.parametrize("impl", ("reference", "table", "aesni", "pycryptodome"))
def test_data_errors(impl):
    ecb = cipherlab.new(KEY, impl=impl, padding=False)
    with pytest.raises(ValueError, match="whole number of 16-byte blocks when padding=False"):
        ecb.encrypt(bytes(17))
    with pytest.raises(ValueError, match="whole number of 16-byte blocks"):
        ecb.decrypt(bytes(17))
    padded = cipherlab.new(KEY, impl=impl)
    with pytest.raises(ValueError, match="non-empty whole number"):
        padded.decrypt(b"")
    with pytest.raises(ValueError, match="bad PKCS#7 padding"):
        padded.decrypt(ecb.encrypt(bytes(15) + b"\x00"))  # last byte 0: invalid
    with pytest.raises(ValueError, match="bad PKCS#7 padding"):
        padded.decrypt(ecb.encrypt(bytes(14) + b"\x01\x02"))  # inconsistent run
    with pytest.raises(ValueError, match="data must be bytes"):
        padded.encrypt("text")
    with pytest.raises(ValueError, match="data must be bytes"):
        padded.encrypt(np.zeros(16, dtype=np.int16))
    with pytest.raises(ValueError, match="data must be bytes"):
        padded.encrypt(np.zeros((2, 16), dtype=np.uint8))
    with pytest.raises(ValueError, match="data must be bytes"):
        padded.encrypt(np.zeros(64, dtype=np.uint8)[::2])
    with pytest.raises(ValueError, match="block must be exactly 16 bytes"):
        padded.encrypt_block(bytes(15))
    with pytest.raises(ValueError, match="block must be exactly 16 bytes"):
        padded.decrypt_block(bytes(32))


def test_cbc_wrong_key_is_a_padding_error_not_a_crash():
    ct = cipherlab.new(KEY, mode="cbc", iv=IV).encrypt(b"secret message")
    with pytest.raises(ValueError, match="padding"):
        for k in range(1, 50):  # a wrong key gives valid padding ~1/256 of the time
            cipherlab.new(bytes([k]) + bytes(15), mode="cbc", iv=IV).decrypt(ct)
