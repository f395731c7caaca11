"""The hardware style (AES-NI kernels): bit-identical to the reference style for every
cipher, option and round count; CTR wrap; feature detection; Cipher object hygiene."""
from __future__ import annotations

import subprocess
import sys
import tracemalloc

import numpy as np
import pytest
from Crypto.Cipher import AES as PyAES
from hypothesis import given, settings, strategies as st

import cipherlab
from cipherlab.ciphers import _threads as T
from cipherlab.ciphers.cpu import has_aesni
from cipherlab.ciphers.modes import Cipher

needs_aesni = pytest.mark.skipif(not has_aesni(), reason="no AES-NI on this CPU / JIT target")

# every round shape of the kernels: MixColumns, IV folded into the key, second S-box
# (affine itself, or affine after the AES S-box)
VARIANTS = {
    "aes": ("aes", {}),
    "aes-2sbox": ("aes-2sbox", {}),
    "aes-2sbox-xor-sbox": ("aes-2sbox", {"construction": "xor-sbox", "xor_byte": 0x3C}),
    "maes-1": ("maes-1", {}),
    "maes-2-keyexp": ("maes-2", {"iv_source": "keyexp"}),
}


pytestmark = pytest.mark.usefixtures("quiet_research_warning")


def _pair(key, variant, mode, iv, **extra):
    cipher, options = VARIANTS[variant]
    iv = None if mode == "ecb" else iv
    return (cipherlab.new(key, cipher, mode, iv=iv, impl="aesni", **options, **extra),
            cipherlab.new(key, cipher, mode, iv=iv, impl="reference", **options, **extra))


def _key_for_rounds(rounds):
    return bytes(range(16 if rounds <= 10 else 24 if rounds <= 12 else 32))


@needs_aesni
@pytest.mark.parametrize("rounds", range(1, 15))
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_round_count_matches_reference(variant, rounds):
    hw, ref = _pair(_key_for_rounds(rounds), variant, "ecb", None, rounds=rounds, padding=False)
    data = bytes(range(256)) * 2  # 32 blocks: the four-block path and nothing left over
    assert hw.encrypt(data) == ref.encrypt(data)
    assert hw.decrypt(data) == ref.decrypt(data)


@needs_aesni
@pytest.mark.parametrize("mode", cipherlab.MODES)
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=15, deadline=None)
@given(size=st.sampled_from((16, 24, 32)), seed=st.binary(min_size=32, max_size=32), data=st.binary(max_size=300))
def test_random_keys_and_data_match_reference(variant, mode, size, seed, data):
    key, iv = (seed * 2)[:size], seed[:16]
    hw, ref = _pair(key, variant, mode, iv)
    ct = hw.encrypt(data)
    assert ct == ref.encrypt(data)
    assert hw.decrypt(ct) == data


@needs_aesni
@settings(max_examples=25, deadline=None)
@given(xor_byte=st.integers(0, 255), construction=st.sampled_from(("xor-index", "xor-sbox")),
       block=st.binary(min_size=16, max_size=16))
def test_any_second_sbox_matches_reference(xor_byte, construction, block):
    kw = dict(xor_byte=xor_byte, construction=construction)
    hw = cipherlab.new(bytes(16), "aes-2sbox", impl="aesni", **kw)
    ref = cipherlab.new(bytes(16), "aes-2sbox", impl="reference", **kw)
    assert hw.encrypt_block(block) == ref.encrypt_block(block)
    assert hw.decrypt_block(block) == ref.decrypt_block(block)


@needs_aesni
@pytest.mark.parametrize("sha3, chain", [("sha3_224", "iv"), ("sha3_512", "digest")])
@pytest.mark.parametrize("cipher", ("maes-1", "maes-2"))
def test_maes_iv_options_match_reference(cipher, sha3, chain):
    kw = dict(sha3=sha3, sha3_chain=chain)
    data = bytes(range(200))
    hw = cipherlab.new(bytes(32), cipher, "cbc", iv=bytes(16), impl="aesni", **kw)
    assert hw.encrypt(data) == cipherlab.new(bytes(32), cipher, "cbc", iv=bytes(16), impl="reference", **kw).encrypt(data)


@pytest.fixture(params=("measured", "always shared"))
def sharing(request, monkeypatch):
    """The threads share a message where the measured speed and hand-off say so, or always (the pieces'
    split is then exercised whatever the machine's load)."""
    if request.param == "always shared":
        monkeypatch.setattr(T, "shares", lambda kernel, n_bytes: True)
    return request.param


@needs_aesni
@pytest.mark.parametrize("threads", (1, 2))
@pytest.mark.parametrize("mode", cipherlab.MODES)
def test_threaded_ranges_match_pycryptodome(mode, threads, sharing):
    # 300001 bytes: several pieces with a partial last block (CTR)
    rng = np.random.default_rng(11)
    key, iv, data = rng.bytes(16), rng.bytes(16), rng.bytes(300_001)
    n = len(data) if mode == "ctr" else len(data) // 16 * 16
    c = cipherlab.new(key, "aes", mode, iv=None if mode == "ecb" else iv, impl="aesni", padding=False,
                      threads=min(threads, cipherlab.ciphers.modes.max_threads()))
    if mode == "ecb":
        ref = PyAES.new(key, PyAES.MODE_ECB)
    elif mode == "cbc":
        ref = PyAES.new(key, PyAES.MODE_CBC, iv=iv)
    else:
        ref = PyAES.new(key, PyAES.MODE_CTR, nonce=b"", initial_value=iv)
    expected = ref.encrypt(data[:n])
    assert c.encrypt(data[:n]) == expected
    assert c.decrypt(expected) == data[:n]


@pytest.mark.parametrize("impl", ("reference", "table") + ("aesni",) * has_aesni())
@pytest.mark.parametrize("iv_hex", ("0000000000000000fffffffffffffffd", "00000000000000fffffffffffffffffe",
                                    "7ffffffffffffffffffffffffffffffe"))
def test_ctr_carries_at_2_64(impl, iv_hex):
    iv, data = bytes.fromhex(iv_hex), bytes(range(256)) * 300  # also across threaded ranges
    ref = PyAES.new(bytes(16), PyAES.MODE_CTR, nonce=b"", initial_value=iv).encrypt(data)
    assert cipherlab.new(bytes(16), mode="ctr", iv=iv, impl=impl).encrypt(data) == ref


@pytest.mark.parametrize("impl", ("reference", "table") + ("aesni",) * has_aesni())
def test_ctr_wraps_at_2_128(impl):
    # PyCryptodome refuses to wrap: compare with the counter blocks encrypted one by one
    iv = bytes.fromhex("fffffffffffffffffffffffffffffffe")
    ks = cipherlab.new(bytes(16), mode="ctr", iv=iv, impl=impl).encrypt(bytes(48))
    ecb = cipherlab.new(bytes(16), impl=impl, padding=False)
    blocks = (iv, bytes([0xFF] * 16), bytes(16))
    assert ks == b"".join(ecb.encrypt_block(b) for b in blocks)


def _run(code, **env):
    import os

    return subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=300)


def test_generic_jit_target_gives_a_clean_error_not_an_abort():
    run = _run("import cipherlab; cipherlab.new(bytes(16), impl='aesni').encrypt(b'x')", NUMBA_CPU_NAME="generic")
    assert run.returncode == 1, (run.returncode, run.stderr[-500:])  # 134 would be LLVM's abort
    assert "ValueError: impl 'aesni' is not available" in run.stderr and "'generic'" in run.stderr


def test_auto_falls_back_to_table_without_aesni():
    run = _run("import cipherlab; c = cipherlab.new(bytes(16), impl='auto'); print(c.impl, c.encrypt(b'x').hex())",
               NUMBA_CPU_FEATURES="-aes")
    assert run.returncode == 0, run.stderr[-500:]
    impl, ct = run.stdout.split()
    assert impl == "table" and ct == cipherlab.new(bytes(16), impl="table").encrypt(b"x").hex()


def test_auto_picks_the_fastest_available():
    assert cipherlab.new(bytes(16), impl="auto").impl == ("aesni" if has_aesni() else "table")


@pytest.mark.parametrize("args, match", [
    ((bytes(16), "aes", "ecb", None, "table", True, 0), "threads must be"),
    ((bytes(16), "aes", "cbc", None, "table"), "iv is required"),
    ((bytes(15),), "key must be 16, 24 or 32 bytes"),
    ((bytes(16), "aes", "ecb", None, "fast"), "impl must be one of"),
    ((bytes(16), "aes", "ecb", None, "table", "yes"), "padding must be True or False"),
    ((bytes(16), "aes", "ecb", None, "table", True, None, {"rounds": 0}), "rounds must be"),
    ((bytes(16), "aes", "ecb", None, "table", True, None, {"xor_byte": 1}), "unknown option"),
])
def test_direct_construction_is_validated(args, match):
    with pytest.raises(ValueError, match=match):
        Cipher(*args)


@pytest.mark.parametrize("name", ("cipher", "mode", "impl", "iv", "padding", "threads", "key_size", "rounds",
                                  "secure", "options", "_enc"))
def test_attributes_are_read_only(name):
    c = cipherlab.new(bytes(16), mode="cbc", iv=bytes(16))
    with pytest.raises(AttributeError, match="read-only"):
        setattr(c, name, 0)
    c.options["rounds"] = 1  # a copy: the object is unchanged
    assert c.rounds == 10 and c.encrypt(b"abc") == cipherlab.new(bytes(16), mode="cbc", iv=bytes(16)).encrypt(b"abc")


@pytest.mark.parametrize("op", ("encrypt", "decrypt"))
@pytest.mark.parametrize("mode", ("ecb", "cbc"))
@pytest.mark.parametrize("impl", ("table",) + ("aesni",) * has_aesni())
def test_peak_memory_at_most_twice_the_input(impl, mode, op):
    n = 4 << 20
    c = cipherlab.new(bytes(16), mode=mode, iv=None if mode == "ecb" else bytes(16), impl=impl)
    data = bytes(n - 1) if op == "encrypt" else c.encrypt(bytes(n - 1))
    c.decrypt(c.encrypt(data[:1 << 16]))  # compile outside the measurement (the threaded kernels: >= 16 KiB)
    tracemalloc.start()
    try:
        getattr(c, op)(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= 2 * len(data) + (64 << 10), peak / len(data)


@pytest.mark.parametrize("impl", ("reference", "table") + ("aesni",) * has_aesni())
@pytest.mark.parametrize("mode", cipherlab.MODES)
def test_decryption_schedule_is_made_on_first_decrypt(impl, mode):
    """An object that only encrypts never builds the decryption schedule; the first decryption does,
    once, and gives the inverse (a fresh object per message is cheap: issue 24)."""
    c = cipherlab.new(bytes(range(16)), "aes", mode, iv=None if mode == "ecb" else bytes(16), impl=impl)
    ct = c.encrypt(b"sixteen byte msg" * 3)
    assert c._dec is None
    assert c.decrypt(ct) == b"sixteen byte msg" * 3
    made = c._dec
    assert (made is None) == (mode == "ctr")  # CTR decrypts with the encryption schedule
    assert c.decrypt(ct) == b"sixteen byte msg" * 3 and c._dec is made


def test_cipher_parts_are_shared_between_objects():
    """Tables and S-boxes depend on the cipher and its options only: two keys share them."""
    a = cipherlab.new(bytes(16), impl="table")._enc
    b = cipherlab.new(bytes(range(16)), impl="table")._enc
    assert a.tables is b.tables and a.sboxes is b.sboxes and a.params is b.params
    assert not np.array_equal(a.rk32, b.rk32)
