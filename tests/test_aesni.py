"""The hardware style (AES-NI kernels): bit-identical to the reference style for every
cipher, option and round count; CTR wrap; feature detection; Cipher object hygiene."""
from __future__ import annotations

import subprocess
import sys
import time
import tracemalloc

import numpy as np
import pytest
from Crypto.Cipher import AES as PyAES
from hypothesis import given, settings, strategies as st

import cipherlab
from cipherlab.ciphers import _aesni as HW
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
        monkeypatch.setattr(HW, "shares", lambda kernel, n_bytes: True)
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


def test_shared_pieces_cover_every_block_once_and_a_helpers_error_reaches_the_caller(monkeypatch):
    """The guided pieces of a shared message cover each block exactly once, on two threads, in whole
    groups but the last; an exception in any piece is raised on the caller's thread."""
    monkeypatch.setattr(HW, "shares", lambda kernel, n_bytes: True)
    n_blocks = 100_003
    seen = np.zeros(n_blocks, np.int64)
    pieces = []

    def kernel(start, stop):
        seen[start:stop] += 1
        pieces.append((start, stop))

    HW._ranges(kernel, 16 * n_blocks, 2, lambda a, b: (a, b), group=8)
    assert (seen == 1).all()
    assert all(a % 8 == 0 for a, _ in pieces) and len(pieces) > 2

    def failing(start, stop):
        if start:
            raise RuntimeError("piece failed")

    with pytest.raises(RuntimeError, match="piece failed"):
        HW._ranges(failing, 16 * n_blocks, 2, lambda a, b: (a, b))


def test_threads_share_a_size_class_only_where_sharing_was_measured_faster(monkeypatch):
    """A size class's first long messages alternate, one thread first, until each way has SAMPLES timings;
    then the faster measured way runs (sharing only SHARE_GAIN times faster), every EXPLORE_EVERY-th call
    the other. Either way covers each block exactly once."""
    monkeypatch.setattr(HW, "_SPEED", {})
    n = 1 << 20
    pieces = []

    def kernel(start, stop):
        pieces.append((start, stop))

    ways = []
    for _ in range(2 * HW.SAMPLES):
        ways.append(HW.shares(kernel, n))
        HW._ranges(kernel, n, 2, lambda a, b: (a, b))
        seen = np.zeros(n // 16, np.int64)
        for a, b in pieces:
            seen[a:b] += 1
        assert (seen == 1).all() and (len(pieces) > 1) == ways[-1]
        pieces.clear()
    assert ways == [False, True] * HW.SAMPLES
    key = HW._size_class(kernel, n)
    one, shared, wait, _, _ = HW._SPEED[key]
    assert len(one) == len(shared) == HW.SAMPLES and wait == HW.EXPLORE_EVERY and min(one) > 0 and min(shared) > 0
    # synthetic figures: which way each call takes
    HW._SPEED[key] = [[1.0, 9.0, 1.0], [1.0 / HW.SHARE_GAIN] * HW.SAMPLES, 5, 16, True]  # medians: one disturbed call ignored
    assert HW.shares(kernel, n) and not HW.shares(kernel, 2 * n)  # another size class starts on one thread
    speed = [[1.0] * HW.SAMPLES, [1.01 / HW.SHARE_GAIN] * HW.SAMPLES, 5, 16, None]  # not faster enough
    HW._SPEED[key] = speed[:4] + [HW._choice(speed)]
    assert not HW.shares(kernel, n)
    HW._SPEED[key][2] = 0  # the wait is over: the other way runs once
    assert HW.shares(kernel, n)


def test_a_call_of_the_other_way_that_confirms_the_choice_doubles_the_wait_for_the_next(monkeypatch):
    """One thread chosen: each chosen call counts the wait down; the shared call at its end, slower again,
    doubles the wait (up to EXPLORE_MAX); one that turns out faster changes the choice and resets the wait."""
    monkeypatch.setattr(HW, "_SPEED", {})
    n = 1 << 20
    for _ in range(HW.SAMPLES):  # one thread: 1 s per message, shared: 2 s
        HW._record(len, n, False, 1.0)
        HW._record(len, n, True, 2.0)
    key = HW._size_class(len, n)
    for wait in (HW.EXPLORE_EVERY, 2 * HW.EXPLORE_EVERY, 4 * HW.EXPLORE_EVERY):
        assert HW._SPEED[key][2:4] == [wait, wait]
        for _ in range(wait):
            assert not HW.shares(len, n)
            HW._record(len, n, False, 1.0)
        assert HW.shares(len, n)
        HW._record(len, n, True, 2.0)
    HW._SPEED[key][3] = HW.EXPLORE_MAX
    HW._SPEED[key][2] = 0
    HW._record(len, n, True, 2.0)
    assert HW._SPEED[key][2:4] == [HW.EXPLORE_MAX, HW.EXPLORE_MAX]
    for _ in range(2):  # sharing got faster (the other core freed): the second such call turns the median
        HW._SPEED[key][2] = 0
        HW._record(len, n, True, 0.5)
    assert HW.shares(len, n) and HW._SPEED[key][2:4] == [HW.EXPLORE_EVERY, HW.EXPLORE_EVERY]


def test_a_timed_call_keeps_the_last_samples_of_its_way(monkeypatch):
    monkeypatch.setattr(HW, "_SPEED", {})
    for seconds in (1.0, 3.0, 2.0, 5.0):
        HW._record(len, 100, False, seconds)
    HW._record(len, 100, True, 0.5)
    one, shared, *_ = HW._SPEED[HW._size_class(len, 100)]
    assert list(one) == pytest.approx([0.03, 0.02, 0.05][-HW.SAMPLES:]) and list(shared) == [0.005]


def test_the_helpers_spin_is_bounded_and_sees_a_posted_job():
    """The helper's wait reads the flag until it changes or its bound of reads has passed, then returns
    what it read: an unchanged flag after the bound (it goes to sleep), a posted value at once."""
    flag = np.zeros(1, np.int64)
    assert HW._spin(flag, 0, 1000) == 0
    assert HW._spin(flag, 0, 0) == 0
    flag[0] = 7
    assert HW._spin(flag, 0, 1 << 62) == 7  # no bound reached: the value was already there
    assert HW.spin_reads() >= 1


def test_a_helper_runs_jobs_given_awake_or_asleep_and_a_trace_counts_each_way(monkeypatch):
    """Jobs handed to a helper run whether it was still spinning or had gone to sleep; every block is
    covered once; a trace records each long message's way and time."""
    monkeypatch.setattr(HW, "_SPEED", {})
    n_blocks = 50_000
    seen = np.zeros(n_blocks, np.int64)

    def kernel(start, stop):
        seen[start:stop] += 1

    with HW.trace() as calls:
        for pause in (0.0, 0.05, 0.0, 0.05, 0.0, 0.05, 0.0):  # 50 ms: past the spin, the helper sleeps
            time.sleep(pause)
            HW.share(kernel, 16 * n_blocks, 2, lambda a, b: (a, b), group=8)
        for _ in range(2 * HW.SAMPLES):
            HW._ranges(kernel, 16 * n_blocks, 2, lambda a, b: (a, b), group=8)
    assert (seen == 7 + 2 * HW.SAMPLES).all()
    assert [c.shared for c in calls] == [False, True] * HW.SAMPLES
    assert all(c.n_bytes == 16 * n_blocks and c.seconds > 0 and c.kernel == "kernel" for c in calls)
    helper = HW._helpers(1)[0]
    assert helper.sleeps >= 1 and helper.thread.is_alive()
