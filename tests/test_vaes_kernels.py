"""The hardware style's VAES kernels (two blocks per instruction on ymm, four on zmm with AVX-512, picked
at run time where the CPU has them): bit-identical to the reference style in ECB and CTR for every key
size, on AES and MAES, around every group length; the FIPS-197 and SP 800-38A answers at every width;
PyCryptodome's AES on random keys, counters and lengths (Hypothesis); the choice of width; the entry
points' arguments; the clean fallback without VAES or AVX-512."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from Crypto.Cipher import AES as PyAES
from hypothesis import HealthCheck, given, settings, strategies as st
from numba import types

import cipherlab
from cipherlab.ciphers import _aesni as HW
from cipherlab.ciphers import _vaes_kernels as V
from cipherlab.ciphers import cpu, probe, vectors
from cipherlab.ciphers._numba import max_threads
from cipherlab.ciphers.cpu import has_aesni, has_vaes, has_zmm

pytestmark = [pytest.mark.usefixtures("quiet_research_warning"),
              pytest.mark.skipif(not has_aesni(), reason="no AES-NI on this CPU / JIT target")]

#: Why a width's tests skip here (nothing where it runs).
SKIP = {128: "", 256: "" if has_vaes() else "skipped: this CPU has no VAES",
        512: "" if has_zmm() else "skipped: this CPU has no AVX-512 VAES"}
WIDTHS = [pytest.param(w, marks=pytest.mark.skipif(bool(SKIP[w]), reason=SKIP[w] or "runs"), id=f"{w}-bit")
          for w in (128, 256, 512)]
# lengths around every group (8 blocks on xmm, 16 on ymm, 32 on zmm), a partial CTR block, threaded ranges
LENGTHS = (16, 112, 128, 144, 16 * 23 + 5, 16 * 31, 16 * 32, 16 * 33 + 7, 16 * 64, 70_000, 300_001)


#: The ``width`` fixture holds one width for every example of a Hypothesis test (what it is for).
ONE_WIDTH = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(params=WIDTHS)
def width(request):
    previous = HW.use_width(request.param)
    yield request.param
    HW.use_width(previous)


@pytest.mark.parametrize("cipher, options", [("aes", {}), ("maes-1", {}), ("maes-2", {}),
                                             ("maes-2", {"iv_source": "keyexp"})])
@pytest.mark.parametrize("key_bytes", (16, 24, 32))
@pytest.mark.parametrize("mode", ("ecb", "ctr"))
def test_every_width_matches_reference(width, cipher, options, key_bytes, mode):
    assert HW.kernel_width() == width
    rng = np.random.default_rng(key_bytes)
    key, iv = rng.bytes(key_bytes), bytes.fromhex("00000000000000fffffffffffffffffa")  # carries inside a group
    for n in LENGTHS:
        data = rng.bytes(n if mode == "ctr" else n // 16 * 16)
        kw = dict(iv=None if mode == "ecb" else iv, padding=False, **options)
        hw = cipherlab.new(key, cipher, mode, impl="aesni", **kw)
        ref = cipherlab.new(key, cipher, mode, impl="reference", **kw)
        ct = hw.encrypt(data)
        assert ct == ref.encrypt(data), (n, cipher, mode)
        assert hw.decrypt(ct) == data
        assert HW._wide(hw._enc) == (width if width > 128 else 0)


@pytest.mark.parametrize("case", vectors.load("fips197")["cases"], ids=lambda c: c["name"])
def test_fips197_at_every_width(width, case):
    key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
    c = cipherlab.new(key, impl="aesni", padding=False)
    assert c.encrypt(pt) == ct and c.decrypt(ct) == pt
    assert c.encrypt(pt * 40) == ct * 40  # several groups and a tail on every width


@pytest.mark.parametrize("case", [c for c in vectors.load("sp800_38a")["cases"] if c["mode"] in ("ecb", "ctr")],
                         ids=lambda c: c["name"])
def test_sp800_38a_at_every_width(width, case):
    key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
    iv = bytes.fromhex(case["iv"]) if case["iv"] else None
    c = cipherlab.new(key, mode=case["mode"], iv=iv, impl="aesni", padding=False)
    assert c.encrypt(pt) == ct and c.decrypt(ct) == pt


@pytest.mark.parametrize("name", ("maes_1", "maes_2"))
def test_research_known_answers_at_every_width(width, name):
    """The frozen MAES answers (from ``tests/naive.py``) hold on the wide kernels too (ECB and CTR)."""
    data = vectors.load(name)
    cases = [c for c in data["cases"] if c["mode"] in ("ecb", "ctr")]
    assert cases, f"{name}: no ECB or CTR case"
    for case in cases:
        key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
        iv = bytes.fromhex(case["iv"]) if case.get("iv") else None
        c = cipherlab.new(key, name.replace("_", "-"), case["mode"], iv=iv, impl="aesni", padding=case["padding"],
                          **case.get("options", {}))
        assert c.encrypt(pt) == ct and c.decrypt(ct) == pt, case.get("name")


def _counter_block(draw_bytes: bytes, wrap: str) -> bytes:
    """A counter block whose low bytes are about to wrap (``wrap``: ``"byte"``, ``"2^64"``, ``"2^128"``) or not."""
    iv = bytearray(draw_bytes)
    if wrap == "byte":
        iv[15] = 0xF0 | iv[15] & 0x0F
    elif wrap == "2^64":
        iv[8:15] = b"\xff" * 7
    elif wrap == "2^128":
        iv[:15] = b"\xff" * 15
    return bytes(iv)


@settings(max_examples=40, **ONE_WIDTH)
@given(key_bytes=st.sampled_from((16, 24, 32)), seed=st.binary(min_size=48, max_size=48),
       wrap=st.sampled_from(("none", "byte", "2^64")), length=st.integers(0, 3000), threads=st.sampled_from((1, 2)))
def test_aes_ctr_matches_pycryptodome(width, key_bytes, seed, wrap, length, threads):
    key, iv = seed[:key_bytes], _counter_block(seed[32:], wrap)
    data = (seed * (length // 48 + 1))[:length]
    c = cipherlab.new(key, "aes", "ctr", iv=iv, impl="aesni", threads=min(threads, max_threads()))
    expected = PyAES.new(key, PyAES.MODE_CTR, nonce=b"", initial_value=iv).encrypt(data)
    assert c.encrypt(data) == expected
    assert c.decrypt(expected) == data


@settings(max_examples=40, **ONE_WIDTH)
@given(key_bytes=st.sampled_from((16, 24, 32)), seed=st.binary(min_size=32, max_size=32), length=st.integers(0, 3000),
       padding=st.booleans())
def test_aes_ecb_matches_pycryptodome(width, key_bytes, seed, length, padding):
    key, data = seed[:key_bytes], (seed * (length // 32 + 1))[:length]
    if not padding:
        data = data[: len(data) // 16 * 16]
    padded = data + bytes([16 - len(data) % 16]) * (16 - len(data) % 16) if padding else data
    c = cipherlab.new(key, "aes", "ecb", impl="aesni", padding=padding)
    ct = c.encrypt(data)
    assert ct == PyAES.new(key, PyAES.MODE_ECB).encrypt(padded)
    assert c.decrypt(ct) == data


@settings(max_examples=25, **ONE_WIDTH)
@given(cipher=st.sampled_from(("maes-1", "maes-2")), mode=st.sampled_from(("ecb", "ctr")),
       key_bytes=st.sampled_from((16, 24, 32)), seed=st.binary(min_size=48, max_size=48),
       wrap=st.sampled_from(("none", "byte", "2^128")), length=st.integers(0, 1500))
def test_maes_matches_reference(width, cipher, mode, key_bytes, seed, wrap, length):
    key, iv = seed[:key_bytes], _counter_block(seed[32:], wrap)
    data = (seed * (length // 48 + 1))[:length]
    kw = dict(iv=None if mode == "ecb" else iv)
    ct = cipherlab.new(key, cipher, mode, impl="aesni", **kw).encrypt(data)
    assert ct == cipherlab.new(key, cipher, mode, impl="reference", **kw).encrypt(data)
    assert cipherlab.new(key, cipher, mode, impl="aesni", **kw).decrypt(ct) == data


def test_wide_kernels_serve_aes_and_maes_only():
    aes = cipherlab.new(bytes(16), "aes", impl="aesni")
    sbox2 = cipherlab.new(bytes(16), "aes-2sbox", impl="aesni")
    reduced = cipherlab.new(bytes(16), "aes", impl="aesni", rounds=7)
    assert aes._enc.wide is not None
    assert sbox2._enc.wide is None and reduced._enc.wide is None  # pshufb rounds; the padded key form
    assert HW._wide(aes._enc) == (HW.kernel_width() if HW.kernel_width() > 128 else 0)


def test_the_width_follows_the_cpu_and_the_probe(monkeypatch):
    """512 only with AVX-512 VAES and a probe gain of at least ZMM_MIN_GAIN; else 256 with VAES; else 128."""
    previous = HW.use_width(None)
    try:
        for gain in (1.0, HW.ZMM_MIN_GAIN, 2.0):
            monkeypatch.setattr(probe, "zmm_gain", lambda gain=gain: gain)
            HW.use_width(None)
            expected = 512 if has_zmm() and gain >= HW.ZMM_MIN_GAIN else 256 if has_vaes() else 128
            assert HW.kernel_width() == expected, gain
        monkeypatch.setattr(HW, "has_zmm", lambda: False)
        monkeypatch.setattr(HW, "has_vaes", lambda: False)
        HW.use_width(None)
        assert HW.kernel_width() == 128 and HW.available_widths() == (128,)
    finally:
        monkeypatch.undo()
        HW.use_width(previous)


def test_use_width_refuses_a_width_this_cpu_lacks():
    with pytest.raises(ValueError, match=r"bits must be one of \(128"):
        HW.use_width(1024)
    if not has_zmm():
        with pytest.raises(ValueError, match="bits must be one of"):
            HW.use_width(512)


@pytest.mark.parametrize("mode", V.MODES)
def test_entry_points_take_arrays_and_integers_only(width, mode):
    """One compiled signature per entry point, of arrays and integers only (Numba's dispatcher types
    those on its fast path: the per-call cost of a short message); a writable input array is passed
    as the read-only one it was compiled for, never compiled again."""
    if width == 128:
        pytest.skip("the 128-bit width runs the AES-NI kernels of _aesni_kernels")
    kernel = V.entries(11, True).get(mode, width)
    (signature,) = kernel.signatures
    assert all(isinstance(t, (types.Array, types.Integer)) for t in signature), signature
    c = cipherlab.new(bytes(16), "aes", "ctr" if mode == "ctr" else "ecb", iv=bytes(16) if mode == "ctr" else None,
                      impl="aesni", padding=False)
    data = np.arange(64, dtype=np.uint8)
    assert c.encrypt(data).tobytes() == c.encrypt(data.tobytes())  # writable array, then read-only bytes
    assert len(kernel.signatures) == 1


def test_wide_kernels_off_for_any_jit_target_override():
    """An overridden JIT target (NUMBA_CPU_NAME / NUMBA_CPU_FEATURES) never meets a VAES intrinsic:
    the 128-bit kernels run (their results: the ``width`` tests above)."""
    for status in (cpu._vaes_status, cpu._zmm_status):
        assert "overridden" in status(None, "+aes,+ssse3,-vaes")
        assert status("generic", None) != ""
    assert cpu.ZMM_FEATURES[:len(cpu.VAES_FEATURES)] == cpu.VAES_FEATURES and "avx512f" in cpu.ZMM_FEATURES


def test_generic_target_runs_the_128_bit_kernels_or_says_why():
    """``NUMBA_CPU_FEATURES`` keeping AES-NI but not VAES: the hardware style runs on the AES-NI
    kernels, the probe measures xmm alone and says why not the others; no abort."""
    code = ("import cipherlab; from cipherlab.ciphers import _aesni as HW, probe; "
            "c = cipherlab.new(bytes(16), 'aes', 'ctr', iv=bytes(16), impl='aesni'); "
            "print(HW.kernel_width(), c.encrypt(bytes(100)).hex()[:8], probe.measure(repeats=1).widths[512].status)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "NUMBA_CPU_FEATURES": "+aes,+ssse3,+sse4.1"})
    assert run.returncode == 0, run.stderr[-800:]
    width, head, status = run.stdout.split(maxsplit=2)
    assert width == "128" and head == PyAES.new(bytes(16), PyAES.MODE_CTR, nonce=b"", initial_value=bytes(16)).encrypt(
        bytes(100)).hex()[:8]
    assert status.startswith("not measured: the JIT target is overridden")


def test_entry_points_load_from_numba_cache_in_a_new_process():
    """The closures' constants (key count, width, shape) are part of Numba's cache key: a second process
    loads each entry point from the cache, distinct ones distinct (right answers), compiling nothing."""
    widths = [w for w in (256, 512) if not SKIP[w]]
    if not widths:
        pytest.skip(SKIP[256])
    code = f"""
import cipherlab
from Crypto.Cipher import AES as PyAES
from cipherlab.ciphers import _aesni as HW, _vaes_kernels as V
for width in {widths}:
    HW.use_width(width)
    for n in (16, 32):
        c = cipherlab.new(bytes(range(n)), "aes", "ctr", iv=bytes(16), impl="aesni")
        assert c.encrypt(bytes(1000)) == PyAES.new(bytes(range(n)), PyAES.MODE_CTR, nonce=b"",
                                                   initial_value=bytes(16)).encrypt(bytes(1000))
        stats = V.entries(n // 4 + 7, True).kernels["ctr"][width].stats
        print(width, n, len(stats.cache_hits), len(stats.cache_misses))
"""
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr[-800:]
    for line in runs[1].stdout.split("\n")[:-1]:
        width, n, hits, misses = line.split()
        assert (hits, misses) == ("1", "0"), line
