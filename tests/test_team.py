"""A message shared natively by a team of threads (``cipherlab.ciphers._team`` and the VAES entry points'
``team``/``serve`` pair): the shared output is the one-thread output and PyCryptodome's, bit for bit, for
every mode, key size, round shape, length and counter; claims cover every block once from both ends; a
claim, a seat or a wait of another message fails; a busy box or an over-long message runs alone; a forked
child shares with helpers of its own."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest
from Crypto.Cipher import AES as PyAES
from hypothesis import HealthCheck, given, settings, strategies as st

from cipherlab.ciphers import _aesni as HW
from cipherlab.ciphers import _team as T
from cipherlab.ciphers import _threads as TH
from cipherlab.ciphers import _vaes_kernels as V
from cipherlab.ciphers.cpu import has_vaes, has_zmm
from cipherlab.ciphers.modes import new

NO_VAES = "skipped: this CPU has no VAES"
SKIP = {256: "" if has_vaes() else NO_VAES, 512: "" if has_zmm() else "skipped: this CPU has no AVX-512 VAES"}
WIDTHS = [pytest.param(w, marks=pytest.mark.skipif(bool(SKIP[w]), reason=SKIP[w] or "runs"), id=f"{w}-bit")
          for w in (256, 512)]
needs_vaes = pytest.mark.skipif(not has_vaes(), reason=NO_VAES)
pytestmark = pytest.mark.usefixtures("quiet_research_warning")


@pytest.fixture(params=WIDTHS)
def width(request):
    previous = HW.use_width(request.param)
    TH.start(2)
    yield request.param
    HW.use_width(previous)


def _plan(cipher: str, key: bytes, iv: bytes, mode: str):
    c = new(key, cipher, mode, iv=None if mode == "ecb" else iv, impl="aesni", padding=False, threads=1)
    return c, c._enc


def _shared(plan, mode: str, width: int, inp: np.ndarray, out: np.ndarray, iv: np.ndarray, threads: int = 2) -> None:
    """``inp`` through the team of ``mode`` (every block shared; asserts the team ran it)."""
    n_blocks = (inp.shape[0] + 15) // 16
    args = (inp, out, iv, 0, n_blocks, plan.rk) if mode == "ctr" else (inp, out, 0, n_blocks, plan.rk)
    helped = TH.team_share(plan.wide.team(mode, width), args, n_blocks, threads)
    assert helped is not None and 0 <= helped <= 1


def _alone(plan, mode: str, width: int, inp: np.ndarray, iv: np.ndarray) -> np.ndarray:
    out = np.empty_like(inp)
    kernel = plan.wide.get(mode, width)
    n_blocks = (inp.shape[0] + 15) // 16
    kernel(*((inp, out, iv, 0, n_blocks, plan.rk) if mode == "ctr" else (inp, out, 0, n_blocks, plan.rk)))
    return out


# lengths: under a unit, a unit, units and a partial block, several hundred units (the guided pieces)
LENGTHS = (16, 16 * T.UNIT, 16 * T.UNIT * 3 + 16 * 5 + 7, 16 * T.UNIT * 37 + 48, 3 * 1024 * 1024 + 16 * 11)


# Every mode on AES-128; each other key size and round shape in one mode (the claim loop is the same code for
# all; each pair compiles a team of its own, seconds each in a fresh clone).
@pytest.mark.parametrize("cipher, key_bytes, mode", [("aes", 16, "ctr"), ("aes", 16, "ecb-encrypt"),
                                                     ("aes", 16, "ecb-decrypt"), ("aes", 24, "ctr"),
                                                     ("aes", 32, "ecb-decrypt"), ("maes-1", 16, "ctr"),
                                                     ("maes-2", 32, "ecb-encrypt")])
def test_a_shared_message_is_the_one_thread_message(width, cipher, key_bytes, mode):
    rng = np.random.default_rng(key_bytes * 7 + len(cipher))
    key, iv = rng.bytes(key_bytes), bytes.fromhex("00000000000000fffffffffffffffff0")  # carries inside the message
    c, plan = _plan(cipher, key, iv, "ctr" if mode == "ctr" else "ecb")
    if mode == "ecb-decrypt":
        plan = c._decryption()
    iv_array = np.frombuffer(iv, np.uint8)
    for n in LENGTHS:
        n = n if mode == "ctr" else n // 16 * 16
        inp = rng.integers(0, 256, n, dtype=np.uint8)
        for _ in range(3):  # the helper spinning, then woken again
            out = np.full_like(inp, 0xA5)
            _shared(plan, mode, width, inp, out, iv_array)
            assert np.array_equal(out, _alone(plan, mode, width, inp, iv_array)), (n, mode)


def test_a_shared_ecb_message_may_be_encrypted_in_place(width):
    rng = np.random.default_rng(3)
    key = rng.bytes(16)
    _, plan = _plan("aes", key, b"", "ecb")
    data = rng.integers(0, 256, 16 * T.UNIT * 9, dtype=np.uint8)
    expected = np.frombuffer(PyAES.new(key, PyAES.MODE_ECB).encrypt(data.tobytes()), np.uint8)
    _shared(plan, "ecb-encrypt", width, data, data, np.empty(0, np.uint8))
    assert np.array_equal(data, expected)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key_bytes=st.sampled_from((16, 24, 32)), seed=st.binary(min_size=48, max_size=48),
       length=st.integers(1, 16 * T.UNIT * 12), wrap=st.booleans())
def test_a_shared_ctr_message_matches_pycryptodome(width, key_bytes, seed, length, wrap):
    key, iv = seed[:key_bytes], bytearray(seed[32:])
    if wrap:
        iv[8:] = b"\xff" * 7 + iv[15:]
    data = np.frombuffer((seed * (length // 48 + 1))[:length], np.uint8)
    _, plan = _plan("aes", key, bytes(iv), "ctr")
    out = np.empty_like(data)
    _shared(plan, "ctr", width, data, out, np.frombuffer(bytes(iv), np.uint8))
    expected = PyAES.new(key, PyAES.MODE_CTR, nonce=b"", initial_value=bytes(iv)).encrypt(data.tobytes())
    assert out.tobytes() == expected


def _posted(box, seq, start, stop, helpers=1):
    inp, keys = np.zeros(16 * stop, np.uint8), np.zeros((11, 2), np.uint64)
    T.post(box, 7, seq, inp, inp, 0, keys, start, stop, helpers)
    return inp, keys


def test_claims_cover_every_block_once_the_caller_from_the_front_helpers_from_the_back():
    box = T.new_box()
    start, stop = 3 * T.UNIT, 3 * T.UNIT + 41 * T.UNIT + 5  # a partial unit at the end
    keep = _posted(box, 9, start, stop)
    front, back = [], []
    for turn in range(1000):
        piece = T.claim(box, 9, turn % 3 != 0)
        if piece == (0, 0):
            break
        (front if turn % 3 != 0 else back).append(piece)
    covered = np.zeros(stop, np.int64)
    for a, b in front + back:
        assert start <= a < b <= stop and (a - start) % T.UNIT == 0
        covered[a:b] += 1
    assert (covered[start:] == 1).all() and not covered[:start].any()
    assert [a for a, _ in front] == sorted(a for a, _ in front) and front[0][0] == start
    assert [a for a, _ in back] == sorted((a for a, _ in back), reverse=True) and back[0][1] == stop
    assert front[0][1] - front[0][0] >= front[-1][1] - front[-1][0]  # guided: large pieces first
    assert T.claim(box, 9, True) == (0, 0) and keep


def test_a_claim_a_seat_and_a_wait_of_another_message_fail():
    box = T.new_box()
    keep = _posted(box, 5, 0, 4 * T.UNIT, helpers=2)
    assert T.claim(box, 4, True) == (0, 0)           # a helper still at the message before
    assert T.seat(box, 4) is False
    assert T.seat(box, 5) and T.seat(box, 5) and not T.seat(box, 5)  # two seats, then none
    assert not T.wait_done(box, 4 * T.UNIT, 100)     # nothing done yet
    a, b = T.claim(box, 5, True)
    keep2 = _posted(box, 6, 0, 4 * T.UNIT)              # the box moves on: message 5's claims fail
    assert T.claim(box, 5, False) == (0, 0) and a < b and keep and keep2
    box[T.DONE] = 4 * T.UNIT
    assert T.wait_done(box, 4 * T.UNIT, 1)


def test_the_spin_sees_a_post_or_a_python_job_or_gives_up():
    box = T.new_box()
    assert T.spin(box, 0, 0, 1000) == 0
    box[T.WAKE] = 1
    assert T.spin(box, 0, 0, 1 << 62) == 2
    keep = _posted(box, 3, 0, T.UNIT)
    assert T.spin(box, 0, 1, 1 << 62) == 1 and keep


@needs_vaes
def test_a_busy_box_or_an_over_long_message_is_left_to_the_caller_alone():
    """Another user thread's message holds the box: this one is not posted (None), and the caller runs
    it on its own; so is a message of more units than the claim word holds."""
    _, plan = _plan("aes", bytes(16), bytes(16), "ctr")
    team = plan.wide.team("ctr", HW.kernel_width())
    data = np.zeros(16 * T.UNIT * 2, np.uint8)
    args = (data, np.empty_like(data), np.zeros(16, np.uint8), 0, 2 * T.UNIT, plan.rk)
    with TH._BOX_LOCK[0]:
        assert TH.team_share(team, args, 2 * T.UNIT, 2) is None
    assert TH.team_share(team, args, T.MAX_UNITS * T.UNIT + 1, 2) is None
    assert 0 <= TH.team_share(team, args, 2 * T.UNIT, 2) <= 1


@needs_vaes
def test_two_user_threads_sharing_at_once_each_get_their_own_message_right():
    """Two user threads with two-thread objects: one message holds the box at a time, the other runs
    alone meanwhile; every output is the one-thread output."""
    rng = np.random.default_rng(11)
    key, iv = rng.bytes(16), rng.bytes(16)
    data = [rng.integers(0, 256, 16 * T.UNIT * 20 + 9, dtype=np.uint8) for _ in range(2)]
    expected = [new(key, "aes", "ctr", iv=iv, impl="aesni", threads=1).encrypt(d) for d in data]
    errors = []

    def user(i):
        c = new(key, "aes", "ctr", iv=iv, impl="aesni", threads=2)
        for _ in range(40):
            if not np.array_equal(c.encrypt(data[i]), expected[i]):
                errors.append(i)

    users = [threading.Thread(target=user, args=(i,)) for i in range(2)]
    for u in users:
        u.start()
    for u in users:
        u.join(120)
    assert not errors and not any(u.is_alive() for u in users)


FORK_SCRIPT = textwrap.dedent("""\
    import os, signal
    import numpy as np
    from cipherlab.ciphers import _aesni as HW, _threads as TH
    from cipherlab.ciphers.modes import new
    c = new(bytes(16), "aes", "ctr", iv=bytes(16), impl="aesni", threads=1)
    plan, width = c._enc, HW.kernel_width()
    team = plan.wide.team("ctr", width)
    data = np.arange(1 << 20, dtype=np.uint64).astype(np.uint8)
    expected = c.encrypt(data)

    def shared():
        out = np.empty_like(data)
        n = data.shape[0] // 16
        assert TH.team_share(team, (data, out, c._iv_array, 0, n, plan.rk), n, 2) is not None
        return out

    assert np.array_equal(shared(), expected)
    parent_box = TH._BOX[0]
    pid = os.fork()
    if pid == 0:
        signal.alarm(60)
        ok = np.array_equal(shared(), expected) and TH._BOX[0] is not parent_box and len(TH._HELPERS) == 1
        os._exit(0 if ok else 3)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, status
    assert np.array_equal(shared(), expected)
    print("fork ok", flush=True)
""")


@needs_vaes
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_a_forked_child_shares_with_helpers_and_a_box_of_its_own():
    env = dict(os.environ, NUMBA_NUM_THREADS="2")
    proc = subprocess.run([sys.executable, "-c", FORK_SCRIPT], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0 and "fork ok" in proc.stdout, (proc.stdout + proc.stderr)[-3000:]


def test_every_entry_point_posts_under_its_own_number():
    numbers = {V.kind_of(mode, width, n_keys, mix) for mode in V.MODES for width in (256, 512)
               for n_keys in (11, 13, 15, 20) for mix in (False, True)}
    assert len(numbers) == len(V.MODES) * 2 * 4 * 2


@needs_vaes
def test_a_trace_shows_the_helpers_share_of_each_message_shared_natively():
    """In a stream of shared messages the helper thread joins: the trace gives the fraction of each
    message's blocks it did (between 0 and 1; above 0 for some message within two seconds of messages)."""
    rng = np.random.default_rng(5)
    key, iv = rng.bytes(16), rng.bytes(16)
    c = new(key, "aes", "ctr", iv=iv, impl="aesni", threads=2)
    data = rng.integers(0, 256, 16 * T.UNIT * 64, dtype=np.uint8)
    expected = new(key, "aes", "ctr", iv=iv, impl="aesni", threads=1).encrypt(data)
    seen = []
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and not any(h > 0 for h in seen):
        TH._SPEED.clear()  # the next two messages: one thread, then shared (the learning order)
        with TH.trace() as calls:
            for _ in range(2):
                assert np.array_equal(c.encrypt(data), expected)
        seen += [call.helped for call in calls if call.shared]
        assert all(np.isnan(call.helped) for call in calls if not call.shared)
    assert seen and all(0 <= h <= 1 for h in seen) and any(h > 0 for h in seen)
