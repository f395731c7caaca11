"""The hardware style's plumbing: cipher schedules as AES-NI kernel arguments, mode runners.

:func:`plan` turns a cipher module's key schedule (the same one the table
style uses, so every cipher option carries over unchanged) into the
arguments of :mod:`cipherlab.ciphers._aesni_kernels`: the round keys as a tuple of
blocks and the round shape (``mix``, ``nib``, ``pre``; see that module).

AES-2SBox's second S-box must be a *byte-wise affine* map to run as two
``pshufb`` nibble lookups, possibly after one more S-box layer:

* ``construction="xor-index"``: ``second(x) = affine(x ^ b)`` is affine itself;
* ``construction="xor-sbox"``: ``second(x) = affine(S(x) ^ b)`` is an affine
  map after the AES S-box, so the round runs ``aesenclast`` twice (the second
  one as a plain SubBytes layer); its inverse an affine map then ``InvS``.

A second S-box of any other shape raises ``ValueError`` (none exists today).
"""
from __future__ import annotations

import os
import resource
import threading
import time
from collections import deque
from contextlib import contextmanager
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from cipherlab.ciphers import _aesni_kernels as H
from cipherlab.ciphers import _vaes_kernels as V  # importing compiles nothing: the kernels compile on first call
from cipherlab.ciphers import _kernels as K
from cipherlab.ciphers import probe
from cipherlab.ciphers._numba import jit, max_threads
from cipherlab.ciphers._schedule import kernel_round_keys
from cipherlab.ciphers.cpu import has_vaes, has_zmm
from cipherlab.ciphers.sboxes import rijndael_inverse_sbox, rijndael_sbox

__all__ = ["HwPlan", "plan", "counter", "ecb", "cbc_encrypt", "cbc_decrypt", "ctr", "kernel_width", "use_width",
           "available_widths", "wide_kernel", "ZMM_MIN_GAIN", "PARALLEL_MIN_BYTES", "shares", "SHARE_GAIN",
           "EXPLORE_EVERY", "EXPLORE_MAX", "SAMPLES", "PIECE_MIN_BYTES", "share", "trace", "Call"]

# ShiftRows as a gather (out[i] = in[_SR[i]]) in FIPS byte order r + 4c, and its inverse
_SR = np.array([(i % 4) + 4 * ((i // 4 + i % 4) % 4) for i in range(16)], dtype=np.uint8)
_INV_SR = np.argsort(_SR).astype(np.uint8)

# Below this many bytes (or with one thread) the serial kernels run: thread
# start-up would cost more than it saves at 10 GB/s.
PARALLEL_MIN_BYTES = 1 << 16


class HwPlan(NamedTuple):
    rk: object      # see _round_keys: the kernels compile once per form (and per full round count)
    mix: object
    nib: object
    pre: object
    wide: object = None  # the VAES entry points (_vaes_kernels.Entries) where the round shape has them


_new_tuple = tuple.__new__
#: A key block's two lanes (a dtype object: a dtype by name is parsed on every call).
_LANES = np.dtype("<u8")
#: ``marker`` arguments of the array entry points (``_aesni_kernels.key_blocks``): a tuple of n zeros
_MARKERS = {n: (0,) * n for n in range(2, 17)}


def _args(p: HwPlan) -> tuple:
    """The kernel's trailing arguments: ``(keys, marker, mix, nib, pre)`` for the array form (the
    ``*_k`` entry points), ``(rk, mix, nib, pre)`` for the padded form."""
    if isinstance(p.rk, np.ndarray):
        return (p.rk, _MARKERS[p.rk.shape[0]], p.mix, p.nib, p.pre)
    return (p.rk, p.mix, p.nib, p.pre)


def block(b16) -> tuple:
    """16 bytes as a kernel block: two little-endian uint64 lanes."""
    lanes = np.frombuffer(bytes(b16), dtype="<u8")
    return (lanes[0], lanes[1])


def _nibble_tables(f: np.ndarray):
    """``(lo, hi)`` blocks with ``f[x] == lo[x & 15] ^ hi[x >> 4]``, or None if ``f`` has no such form."""
    f = np.asarray(f, dtype=np.uint8)
    lo = f[:16]
    hi = f[np.arange(16) << 4] ^ f[0]
    x = np.arange(256)
    if not np.array_equal(lo[x & 15] ^ hi[x >> 4], f):
        return None
    return block(lo.tobytes()), block(hi.tobytes())


def _second_sbox_map(table: np.ndarray, decrypt: bool):
    """``(nib, pre)`` for one direction of the second S-box (see the module docstring)."""
    nib = _nibble_tables(table)
    if nib is not None:
        return nib, None
    if decrypt:  # table == InvS o g  =>  g = S o table
        nib, pre = _nibble_tables(rijndael_sbox()[table]), _SR
    else:  # table == g o S  =>  g = table o InvS
        nib, pre = _nibble_tables(table[rijndael_inverse_sbox()]), _INV_SR
    if nib is None:
        raise ValueError("impl 'aesni': this second S-box is neither a byte-wise affine map nor one after the AES "
                         "S-box, so it has no AES-NI form; use impl 'table' or 'reference'")
    return nib, block(pre.tobytes())


#: Round counts that get a kernel of their own with every key in a register (AES-128/192/256);
#: a cipher's ``own_rounds`` (a described variant's round count) gets one too.
FULL_ROUNDS = (10, 12, 14)


def _round_keys(keys: np.ndarray, own_rounds: "int | None" = None):
    """The kernels' round-key argument: for the full round counts and the cipher's own count the
    keys as ``uint64[rounds + 1, 2]`` (made a tuple of blocks inside the kernel, every key in a
    register), else the padded form (one compiled kernel for every other count, several times
    slower per round: the research ``rounds`` option)."""
    rounds = keys.shape[0] - 1
    if rounds in FULL_ROUNDS or rounds == own_rounds:
        return np.ascontiguousarray(keys).view(_LANES)
    blocks = _key_blocks(keys)
    middle = blocks[1:-1]
    if len(middle) > H.MIDDLE_SLOTS:
        raise ValueError(f"impl 'aesni': at most {H.MIDDLE_SLOTS + 1} rounds, got {rounds}")
    zero = (np.uint64(0), np.uint64(0))
    return (blocks[0], tuple(middle) + (zero,) * (H.MIDDLE_SLOTS - len(middle)), np.int64(len(middle)), blocks[-1])


@lru_cache(maxsize=256)
def _second_sbox_map_cached(table: bytes, decrypt: bool):
    return _second_sbox_map(np.frombuffer(table, dtype=np.uint8), decrypt)


def _key_blocks(keys: np.ndarray) -> list:
    """``uint8[n, 16]`` round keys as kernel blocks (pairs of ``np.uint64`` lanes)."""
    lanes = iter(np.ascontiguousarray(keys).view("<u8").reshape(-1))
    return list(zip(lanes, lanes))


def plan(spec, decrypt: bool) -> HwPlan:
    """Kernel arguments of cipher ``spec`` (an ``AES``, ``AES2SBox`` or ``MAES``) for one direction.

    The round keys are the table style's, in use order (:func:`~cipherlab.ciphers._schedule.kernel_round_keys`);
    the second S-box's nibble tables depend on the cipher's options only and are made once per process.
    """
    mix_kind = spec.mix_kind
    if not decrypt and mix_kind != K.MIX_XOR_IV:  # the keys in their own order: no copy
        keys = spec.round_keys
    else:
        keys = kernel_round_keys(spec.round_keys, mix_kind, decrypt, spec._extra().get("ivs"))
    rk = _round_keys(keys, spec.own_rounds)
    fixed = isinstance(rk, np.ndarray)
    if mix_kind == K.MIX_COLUMNS:  # AES: the common case first (tuple.__new__: half the NamedTuple call's time)
        return _new_tuple(HwPlan, (rk, True, None, None, V.entries(rk.shape[0], True) if fixed else None))
    nib = pre = None
    if mix_kind == K.MIX_SECOND_SBOX:
        table = np.asarray(spec.second[1 if decrypt else 0], dtype=np.uint8)
        nib, pre = _second_sbox_map_cached(table.tobytes(), bool(decrypt))
        return HwPlan(rk, None, nib, pre)
    return HwPlan(rk, None, nib, pre, V.entries(rk.shape[0], False) if fixed else None)


def counter(iv: bytes) -> tuple:
    """The 16-byte big-endian initial counter block as the CTR kernel's ``(hi, lo)`` words."""
    return np.uint64(int.from_bytes(iv[:8], "big")), np.uint64(int.from_bytes(iv[8:], "big"))


@intrinsic
def _load_acquire(typingctx, flag):
    """``flag[0]`` (an int64 array) read with acquire ordering: a load the compiler may not hoist out
    of a wait loop, so a store by another thread is seen. (No ``pause``: inline assembly aborts Numba's
    object cache.)"""
    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        return builder.load_atomic(builder.bitcast(ary.data, ir.IntType(64).as_pointer()), "acquire", 8)
    return types.int64(flag), codegen



@jit
def _spin(flag, seen, limit):
    """Wait (without the GIL) until ``flag[0] != seen`` or ``limit`` reads have passed; ``flag[0]``."""
    for _ in range(limit):
        value = _load_acquire(flag)
        if value != seen:
            return value
    return _load_acquire(flag)


#: How long a helper thread stays awake after its last piece (seconds), spinning in native code without
#: the GIL: a stream of messages hands the next one to a thread already running instead of waking a
#: halted vCPU (tens of microseconds to a millisecond on a VM) each time; then it sleeps.
SPIN_SECONDS = 2e-4
#: The reads of :func:`_spin` that last :data:`SPIN_SECONDS` (measured on first use, per process).
_SPIN_READS: list = [None]


def spin_reads() -> int:
    """The spin's bound in reads: :data:`SPIN_SECONDS` at the rate measured once (a hundred thousand reads)."""
    if _SPIN_READS[0] is None:
        flag = np.zeros(1, np.int64)
        _spin(flag, 0, 1)  # compile or load from the cache, untimed
        reads = 100_000
        t0 = time.perf_counter()
        _spin(flag, 0, reads)
        _SPIN_READS[0] = max(1, int(SPIN_SECONDS * reads / max(time.perf_counter() - t0, 1e-9)))
    return _SPIN_READS[0]


class _Helper:
    """A thread that runs the jobs handed to it (:meth:`give`): after each it spins for
    :func:`spin_reads` on its flag (posted jobs count it up), then sleeps on a condition until the next."""

    def __init__(self, index: int):
        self.flag = np.zeros(1, np.int64)
        self.job = None
        self.cond = threading.Condition()
        self.spins = 0     # jobs taken while spinning (awake), for trace and tests
        self.sleeps = 0    # jobs taken after sleeping
        self.thread = threading.Thread(target=self._run, name=f"cipherlab-aesni-{index}", daemon=True)
        self.thread.start()

    def give(self, job) -> None:
        with self.cond:
            self.job = job
            self.flag[0] += 1
            self.cond.notify()

    def _run(self) -> None:
        flag, cond, reads = self.flag, self.cond, spin_reads()
        seen = 0
        while True:
            if _spin(flag, seen, reads) != seen:
                self.spins += 1
            else:
                self.sleeps += 1
                with cond:
                    while flag[0] == seen:
                        cond.wait()
            with cond:
                seen, job, self.job = int(flag[0]), self.job, None
            if job is not None:
                job.work()
                job = None  # the message's arrays are not kept alive while waiting


_HELPERS: list = []


def _helpers(count: int) -> list:
    """``count`` helper threads (made on first use, kept for the process)."""
    while len(_HELPERS) < count:
        _HELPERS.append(_Helper(len(_HELPERS)))
    return _HELPERS[:count]


def _forget_helpers_in_child() -> None:
    """A forked child inherits the helpers' objects but not their threads (work handed to them would
    never run): the child starts without them and makes its own on first use, and measures its own
    times (its cores may be shared differently)."""
    _HELPERS.clear()
    _SPEED.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_helpers_in_child)


#: The least a thread claims at a time (bytes) where threads share a message: a claim costs a kernel call
#: (about a microsecond), this much work about 6 us at 20 GB/s.
PIECE_MIN_BYTES = 1 << 17
#: Guided scheduling's divisor: a claim takes the larger of the least piece and what is left over this
#: times the thread count.
GUIDE = 2


class _Shared:
    """One message's blocks shared by the threads that run it: each claims a piece at a time, the next
    ``max(least, left // (2 * threads))`` blocks (guided scheduling: large pieces first, small at the end),
    so a thread that starts late (a worker must be woken: tens of microseconds on an idle vCPU) takes
    fewer, and no thread waits for one that has not started."""
    __slots__ = ("kernel", "args_for", "n_blocks", "threads", "least", "group", "next", "left", "lock", "done",
                 "error")

    def __init__(self, kernel, args_for, n_blocks: int, threads: int, group: int):
        self.kernel, self.args_for, self.n_blocks, self.threads, self.group = kernel, args_for, n_blocks, threads, group
        self.least = max(group, (PIECE_MIN_BYTES // 16) // group * group)
        self.next = 0
        self.left = n_blocks  # blocks not yet done
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.error = None

    def work(self) -> None:
        """Claim and run pieces until none is left (on any thread; the caller's included)."""
        lock, n = self.lock, self.n_blocks
        try:
            while True:
                with lock:
                    start = self.next
                    if start >= n:
                        return
                    size = max(self.least, (n - start) // (GUIDE * self.threads))
                    size += -size % self.group
                    stop = self.next = min(n, start + size)
                self.kernel(*self.args_for(start, stop))
                with lock:
                    self.left -= stop - start
                    if not self.left:
                        self.done.set()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, raised there
            self.error = exc
            self.done.set()


#: A size class's choice between one thread and the threads sharing: sharing is chosen where its measured
#: time per byte is at least this many times shorter than one thread's (so two threads are never slower).
SHARE_GAIN = 1.1
#: Each way's figure is the median of its last this-many timed messages (one disturbed call, a first call's
#: page faults say, does not decide); until both ways have that many, the calls alternate, one thread first.
SAMPLES = 3
#: Once both figures stand, the way not chosen runs again after this many calls of the size class, so that
#: both follow the machine's load (a second core taken by another process makes sharing slower than one
#: thread; freed, faster again). Each time that call confirms the choice the wait doubles, up to
#: :data:`EXPLORE_MAX` (on a loaded machine a shared call can wait a whole time slice for a preempted
#: helper: rarely tried, it costs little); a call that changes the choice brings the wait back to this.
EXPLORE_EVERY = 16
EXPLORE_MAX = 1024
#: ``(kernel, size class) -> [one thread's s/B, shared s/B, calls until the other way runs, that wait,
#: the choice]`` (size class: the message length's bit length, a factor of two; each figure a deque of the
#: last :data:`SAMPLES` timings; the choice made again at each call of the other way), timed from the
#: messages themselves: no extra work is run.
_SPEED: dict = {}


def _size_class(kernel, n_bytes: int) -> tuple:
    return kernel, int(n_bytes).bit_length()


def _median(figures) -> float:
    return sorted(figures)[len(figures) // 2]


def _choice(speed) -> "bool | None":
    """The faster way of a size class's figures (True: shared), None while a way has fewer than SAMPLES."""
    one, shared = speed[0], speed[1]
    if len(one) < SAMPLES or len(shared) < SAMPLES:
        return None
    return _median(one) >= SHARE_GAIN * _median(shared)


def shares(kernel, n_bytes: int) -> bool:
    """Whether ``kernel`` runs a message of ``n_bytes`` on more than one thread: the first messages of its
    size class alternate, one thread first, until each way has :data:`SAMPLES` timings; from then on the
    faster of the two measured figures decides (sharing only where it is :data:`SHARE_GAIN` times faster),
    except a call now and then (:data:`EXPLORE_EVERY`) that runs the other way to keep its figure current."""
    speed = _SPEED.get(_size_class(kernel, n_bytes))
    if speed is None:
        return False
    choice = speed[4]
    if choice is None:
        return len(speed[1]) < len(speed[0])
    return choice if speed[2] > 0 else not choice


def _record(kernel, n_bytes: int, shared: bool, seconds: float) -> None:
    """Add one timed message to its size class's figures (see :func:`shares`)."""
    key = _size_class(kernel, n_bytes)
    speed = _SPEED.get(key)
    if speed is None:
        speed = _SPEED[key] = [deque(maxlen=SAMPLES), deque(maxlen=SAMPLES), EXPLORE_EVERY, EXPLORE_EVERY, None]
    speed[shared].append(seconds / max(n_bytes, 1))
    before = speed[4]
    if before is None:  # still alternating
        speed[4] = _choice(speed)
    elif speed[2] > 0 or shared == before:  # the chosen way
        speed[2] -= 1
    else:  # the other way's call: choose again
        speed[4] = _choice(speed)
        speed[3] = min(EXPLORE_MAX, 2 * speed[3]) if speed[4] == before else EXPLORE_EVERY
        speed[2] = speed[3]


#: Where :func:`trace` collects each long message's record while it is on (None: off, the usual case).
_TRACE: list = [None]


class Call(NamedTuple):
    """One long message as :func:`_ranges` ran it (see :func:`trace`)."""
    kernel: str
    n_bytes: int
    shared: bool     # run by the threads sharing it (False: one thread)
    seconds: float
    faults: int      # minor page faults the process took during it (fresh output pages: > 0)


@contextmanager
def trace():
    """Collect a :class:`Call` for each message :func:`_ranges` times (one thread or shared) while the
    block runs: which way each call took, its time and the page faults taken meanwhile (a fresh output
    array faults its pages in; a reused one takes none). A debugging aid, off in the hot path otherwise::

        with trace() as calls:
            c.encrypt(data)
        calls[0].shared
    """
    calls: list = []
    previous, _TRACE[0] = _TRACE[0], calls
    try:
        yield calls
    finally:
        _TRACE[0] = previous


def _faults() -> int:
    return resource.getrusage(_RUSAGE).ru_minflt


_RUSAGE = resource.RUSAGE_SELF  # the helper threads' faults too


def _ranges(kernel, n_bytes: int, threads: int, args_for, group: int = 4) -> None:
    """Run ``kernel(*args_for(start, stop))`` over the message's blocks on ``threads`` threads, this one
    included (:class:`_Shared`); the kernels release the GIL (``nogil``), so the pieces run in parallel.
    Each piece but the last is a whole number of the kernel's groups of ``group`` blocks in flight.
    ``threads == 1`` and small inputs run serially here; a longer message runs on one thread or shared as
    :func:`shares` decides from this size class's measured times, and is timed for it (two clock reads).
    The output is the same bytes either way: every block's result depends on its index only.
    """
    n_blocks = (n_bytes + 15) // 16
    if threads == 1 or n_bytes < PARALLEL_MIN_BYTES:
        kernel(*args_for(0, n_blocks))
        return
    both = shares(kernel, n_bytes)
    calls = _TRACE[0]
    if calls is not None:
        faults = _faults()
    t0 = time.perf_counter()
    if both:
        share(kernel, n_bytes, threads, args_for, group)
    else:
        kernel(*args_for(0, n_blocks))
    seconds = time.perf_counter() - t0
    _record(kernel, n_bytes, both, seconds)
    if calls is not None:
        calls.append(Call(getattr(kernel, "__name__", repr(kernel)), n_bytes, both, seconds, _faults() - faults))


def share(kernel, n_bytes: int, threads: int, args_for, group: int = 4) -> None:
    """Run ``kernel(*args_for(start, stop))`` over the message's blocks on ``threads`` threads sharing
    its pieces (:class:`_Shared`), whatever its length. :func:`_ranges` decides when to; the sweep's
    plain-copy ceiling calls it."""
    job = _Shared(kernel, args_for, (n_bytes + 15) // 16, threads, group)
    for helper in _helpers(min(threads, max_threads()) - 1):
        helper.give(job)
    job.work()
    if job.left and job.error is None:
        job.done.wait()
    if job.error is not None:
        raise job.error


def _readonly(inp: np.ndarray) -> np.ndarray:
    """``inp`` as a read-only view: read-only and writable arrays are two Numba types, and one compile serves both."""
    if not inp.flags.writeable:
        return inp
    view = inp.view()
    view.flags.writeable = False
    return view


# -- VAES: two or four blocks per instruction where the CPU has it --------------------------------
#: The AES units must do at least this many times the block-rounds per cycle on zmm as on ymm (the
#: probe's chains, ``probe.zmm_gain``) for the 512-bit kernels to be used: a full 512-bit datapath
#: gives 2, a double-pumped one 1; the margin keeps the choice the same from one process to the next.
ZMM_MIN_GAIN = 1.25
#: The register width (bits) of the ECB and CTR kernels of AES's and MAES's round shapes in this
#: process; None until the first use decides it (:func:`kernel_width`), :func:`use_width` sets it.
_WIDTH: list = [None]


def available_widths() -> tuple:
    """The register widths this process may run: 128 (AES-NI), 256 (VAES), 512 (VAES with AVX-512)."""
    return (128,) + (256,) * has_vaes() + (512,) * has_zmm()


def kernel_width() -> int:
    """The register width (bits) ECB and CTR run at for AES's and MAES's round shapes: 512 where the
    CPU has AVX-512 and VAES and the probe shows its AES units doing at least :data:`ZMM_MIN_GAIN`
    times the block-rounds per cycle on zmm as on ymm (decided once per process, a few milliseconds),
    else 256 where it has VAES, else 128 (the AES-NI kernels of ``_aesni_kernels``, as every other
    round shape and mode)."""
    if _WIDTH[0] is None:
        if has_zmm() and probe.zmm_gain() >= ZMM_MIN_GAIN:
            _WIDTH[0] = 512
        else:
            _WIDTH[0] = 256 if has_vaes() else 128
    return _WIDTH[0]


def use_width(bits: "int | None") -> int:
    """Run ECB and CTR at register width ``bits`` (one of :func:`available_widths`; None: decide from
    the CPU and the probe again), for a comparison or a test; returns the previous width."""
    previous = kernel_width()
    if bits is not None and bits not in available_widths():
        raise ValueError(f"bits must be one of {available_widths()} on this CPU / JIT target, got {bits!r}")
    _WIDTH[0] = bits
    return previous


def wide_kernel(p: HwPlan, mode: str):
    """The VAES entry point of ``mode`` (``"ecb-encrypt"``, ``"ecb-decrypt"``, ``"ctr"``) for plan ``p`` at
    the current width (compiled on first use), or None where ``p`` runs on the 128-bit kernels. Its
    arguments: ``(inp, out, start, stop, keys)`` for ECB, ``(inp, out, iv, start, stop, keys)`` for CTR,
    ``keys`` being ``p.rk``; blocks ``start .. stop - 1``, on the calling thread."""
    width = _wide(p)
    if not width:
        return None
    return p.wide.kernels[mode].get(width) or p.wide.get(mode, width)


def _wide(p: HwPlan) -> int:
    """The register width plan ``p`` runs ECB and CTR at (0: the 128-bit AES-NI kernels)."""
    if p.wide is None:
        return 0
    width = _WIDTH[0] or kernel_width()
    return width if width > 128 else 0


def ecb(inp, out, p: HwPlan, decrypt: bool, threads: int) -> None:
    """ECB over whole blocks on ``threads`` threads (in place allowed)."""
    width = _wide(p)
    if width:
        mode = "ecb-decrypt" if decrypt else "ecb-encrypt"
        kernel = p.wide.kernels[mode].get(width) or p.wide.get(mode, width)
        keys = p.rk
        if threads == 1 or inp.shape[0] < PARALLEL_MIN_BYTES:  # the short path: no closure, no pool
            kernel(inp, out, 0, inp.shape[0] >> 4, keys)
            return
        _ranges(kernel, inp.shape[0], threads, lambda a, b: (inp, out, a, b, keys), V.GROUP_BLOCKS[width])
        return
    if inp.flags.writeable:
        inp = _readonly(inp)
    args = _args(p)
    kernel = H.ecb_range_k if len(args) == 5 else H.ecb_range
    _ranges(kernel, inp.shape[0], threads, lambda a, b: (inp, out, a, b, decrypt, *args))


def cbc_encrypt(inp, out, iv: tuple, p: HwPlan) -> None:
    """CBC encryption (sequential); ``iv`` a block (see :func:`block`)."""
    args = _args(p)
    (H.cbc_encrypt_k if len(args) == 5 else H.cbc_encrypt)(_readonly(inp), out, iv, *args)


def cbc_decrypt(inp, out, iv: tuple, p: HwPlan, threads: int) -> None:
    """CBC decryption on ``threads`` threads (``inp`` and ``out`` distinct)."""
    inp = _readonly(inp)
    args = _args(p)
    kernel = H.cbc_decrypt_range_k if len(args) == 5 else H.cbc_decrypt_range
    _ranges(kernel, inp.shape[0], threads, lambda a, b: (inp, out, iv, a, b, *args))


def ctr(inp, out, iv: np.ndarray, p: HwPlan, threads: int) -> None:
    """CTR from the initial counter block ``iv`` (``uint8[16]``, big-endian), wrapping modulo 2^128."""
    width = _wide(p)
    if width:
        kernel = p.wide.kernels["ctr"].get(width) or p.wide.get("ctr", width)
        keys = p.rk
        if threads == 1 or inp.shape[0] < PARALLEL_MIN_BYTES:  # the short path: no closure, no pool
            kernel(inp, out, iv, 0, (inp.shape[0] + 15) >> 4, keys)
            return
        _ranges(kernel, inp.shape[0], threads, lambda a, b: (inp, out, iv, a, b, keys), V.GROUP_BLOCKS[width])
        return
    if inp.flags.writeable:
        inp = _readonly(inp)
    args = _args(p)
    if len(args) == 5:  # the array entry point reads the counter from iv itself
        _ranges(H.ctr_range_k, inp.shape[0], threads, lambda a, b: (inp, out, iv, a, b, *args))
    else:
        hi, lo = counter(iv.tobytes())
        _ranges(H.ctr_range, inp.shape[0], threads, lambda a, b: (inp, out, hi, lo, a, b, *args))
