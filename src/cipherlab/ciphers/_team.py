"""Native code for threads sharing one message without the GIL: the words of the team's mailbox, the
atomic operations on them, and the claim loop's pieces.

A message shared by a team (the caller's thread and its helpers, :mod:`cipherlab.ciphers._threads`) is
posted natively, after the caller has released the GIL: :func:`post` writes the message's arrays (their
addresses), its block range and its sequence number into :data:`MAILBOX` words of a long-lived ``int64``
array, the *box*, and releases :data:`POST`. A helper spinning natively on that word (:func:`spin`) sees it
within nanoseconds and runs the same claim loop as the caller (``*_claims`` in
:mod:`cipherlab.ciphers._vaes_kernels`) on arrays made from those addresses (:func:`u8_array`): no thread
ever waits for the GIL to start, claim or finish a piece, and a halted vCPU is never woken on the hot path.

Claims are compare-and-swap on one word, :data:`CLAIM`, that holds the message's sequence number above its
next unclaimed block (:func:`claim`): a helper that read the box of an earlier message fails its claim
(the number moved on), so it never writes with stale addresses. The caller returns only once every claimed
piece is done (:data:`DONE`, :func:`wait_done`), which keeps the arrays alive while any thread writes them.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import carray, types
from numba.extending import intrinsic

from cipherlab.ciphers._numba import jit

__all__ = ["BOX_WORDS", "POST", "WAKE", "KIND", "INP", "OUT", "IV", "KEYS", "N_BYTES", "N_KEYS", "START", "STOP",
           "SEATS", "CLAIM", "DONE", "HELPED", "SEQ_BITS", "UNIT", "MAX_UNITS", "new_box", "load", "store", "fetch_add",
           "exchange", "cas", "spin", "post", "seat", "claim", "wait_done", "u8_array", "u64_keys"]

# The box's words (indices into an int64 array). The words written by different threads at different times
# are eight words (a cache line) apart: the posts, the caller's message, the helpers' seats,
# the claim word, the done counts.
POST = 0       # the sequence number of the last message posted natively (helpers spin on it)
WAKE = 1       # counts jobs handed to helpers from Python (``beside``, the 128-bit kernels' pieces)
KIND = 8       # which entry point posted the message (:func:`cipherlab.ciphers._vaes_kernels.kind_of`)
INP, OUT, IV, KEYS = 9, 10, 11, 12  # addresses of the message's arrays (IV 0 for ECB)
N_BYTES, N_KEYS, START, STOP = 13, 14, 15, 16  # the input's length, the round keys' count, its block range
SEATS = 24     # sequence number << SEQ_SHIFT | the seats left for helpers (the caller's threads less one)
CLAIM = 32     # sequence number << SEQ_SHIFT | the units left: first << 20 | end (see :func:`claim`)
DONE = 40      # blocks done of this message (each piece adds its count when its output is written)
HELPED = 41    # of those, the blocks the helpers did (how much of the message they shared; for the trace)
BOX_WORDS = 48
#: The claim word keeps the units left in its low 40 bits (the first and the end, 20 bits each: a message
#: of up to :data:`MAX_UNITS` units), the message's sequence number above them.
SEQ_SHIFT = 40
SEQ_BITS = 63 - SEQ_SHIFT
_BLOCK_MASK = (1 << SEQ_SHIFT) - 1
_HALF = 20
_UNITS_MASK = (1 << _HALF) - 1
#: Blocks per unit of a claim (16 KiB: under a microsecond at 40 GB/s; a claim costs a compare-and-swap
#: between cores, tens of nanoseconds), and the most units a message may have (16 GiB; a longer one is not
#: posted).
UNIT = 1024
MAX_UNITS = _UNITS_MASK
_I64 = ir.IntType(64)


def new_box() -> np.ndarray:
    """A team's mailbox: :data:`BOX_WORDS` zeroed ``int64`` words."""
    return np.zeros(BOX_WORDS, np.int64)


def _word(context, builder, ary_type, ary, index):
    data = context.make_array(ary_type)(context, builder, ary).data
    return builder.gep(builder.bitcast(data, _I64.as_pointer()), [index])


@intrinsic
def load(typingctx, box, index):
    """``box[index]`` read with acquire ordering (a load the compiler may not hoist out of a wait loop)."""
    def codegen(context, builder, sig, args):
        return builder.load_atomic(_word(context, builder, sig.args[0], args[0], args[1]), "acquire", 8)
    return types.int64(box, types.intp), codegen


@intrinsic
def store(typingctx, box, index, value):
    """``box[index] = value`` with release ordering (the writes before it are seen by a thread that loads it)."""
    def codegen(context, builder, sig, args):
        builder.store_atomic(args[2], _word(context, builder, sig.args[0], args[0], args[1]), "release", 8)
        return context.get_dummy_value()
    return types.void(box, types.intp, types.int64), codegen


@intrinsic
def fetch_add(typingctx, box, index, value):
    """Atomically add ``value`` to ``box[index]``; the value before (sequentially consistent)."""
    def codegen(context, builder, sig, args):
        return builder.atomic_rmw("add", _word(context, builder, sig.args[0], args[0], args[1]), args[2], "seq_cst")
    return types.int64(box, types.intp, types.int64), codegen


@intrinsic
def exchange(typingctx, box, index, value):
    """Atomically set ``box[index]`` to ``value`` (sequentially consistent: no access after it moves before)."""
    def codegen(context, builder, sig, args):
        builder.atomic_rmw("xchg", _word(context, builder, sig.args[0], args[0], args[1]), args[2], "seq_cst")
        return context.get_dummy_value()
    return types.void(box, types.intp, types.int64), codegen


@intrinsic
def cas(typingctx, box, index, expected, new):
    """Atomically set ``box[index]`` to ``new`` if it holds ``expected``; whether it did."""
    def codegen(context, builder, sig, args):
        pair = builder.cmpxchg(_word(context, builder, sig.args[0], args[0], args[1]), args[2], args[3],
                               "seq_cst", "seq_cst")
        return builder.extract_value(pair, 1)
    return types.boolean(box, types.intp, types.int64, types.int64), codegen


@intrinsic
def _u8_pointer(typingctx, address):
    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], ir.IntType(8).as_pointer())
    return types.CPointer(types.uint8)(types.int64), codegen


@intrinsic
def _u64_pointer(typingctx, address):
    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], _I64.as_pointer())
    return types.CPointer(types.uint64)(types.int64), codegen


@jit
def u8_array(address, n):
    """The ``uint8`` array of ``n`` bytes at ``address`` (a posted message's array)."""
    return carray(_u8_pointer(address), n)


@jit
def u64_keys(address, n_keys):
    """The round keys at ``address``: ``uint64[n_keys, 2]``."""
    return carray(_u64_pointer(address), (n_keys, 2))


@jit
def spin(box, seen, woken, limit):
    """Wait (without the GIL) until a message is posted past ``seen`` or a Python job past ``woken``, or
    ``limit`` reads have passed; 1 (posted), 2 (a Python job) or 0 (the bound reached)."""
    for _ in range(limit):
        if load(box, POST) != seen:
            return 1
        if load(box, WAKE) != woken:
            return 2
    return 0


@jit
def post(box, kind, seq, inp, out, iv_address, keys, start, stop, helpers):
    """Post a message (on the caller's thread, the GIL released): its arrays, range and ``helpers`` seats,
    the claim word (every unit left), then :data:`POST` (release: a helper that sees it sees the rest).

    The claim word moves to ``seq`` first, with no block claimable (a full fence): a helper still at the
    previous message fails every claim from then on, so it never pairs that message's number with this
    message's words."""
    exchange(box, CLAIM, (seq << SEQ_SHIFT) | _BLOCK_MASK)
    box[KIND] = kind
    box[INP] = inp.ctypes.data
    box[OUT] = out.ctypes.data
    box[IV] = iv_address
    box[KEYS] = keys.ctypes.data
    box[N_BYTES] = inp.shape[0]
    box[N_KEYS] = keys.shape[0]
    box[START] = start
    box[STOP] = stop
    store(box, SEATS, (seq << SEQ_SHIFT) | helpers)
    store(box, DONE, 0)
    store(box, HELPED, 0)
    store(box, CLAIM, (seq << SEQ_SHIFT) | ((stop - start + UNIT - 1) // UNIT))
    store(box, POST, seq)


@jit
def seat(box, seq):
    """Take one of message ``seq``'s seats for a helper; whether one was left."""
    while True:
        word = load(box, SEATS)
        if word >> SEQ_SHIFT != seq or not word & _BLOCK_MASK:
            return False
        if cas(box, SEATS, word, word - 1):
            return True


@jit
def claim(box, seq, front):
    """The next piece of message ``seq``, ``(start, stop)`` in blocks, or ``(0, 0)`` when none is left or
    the box has moved on to another message. The caller's thread claims from the front (``front``), the
    helpers from the back, a quarter of what is left at a time (guided: large pieces first, one
    :data:`UNIT` at the end): each thread keeps to its end of the message from one message to the next,
    so the bytes it wrote last time are still in its core's caches."""
    start, stop = box[START], box[STOP]
    while True:
        word = load(box, CLAIM)
        if word >> SEQ_SHIFT != seq:
            return 0, 0
        lo, hi = (word >> _HALF) & _UNITS_MASK, word & _UNITS_MASK
        if lo >= hi:
            return 0, 0
        size = max(1, (hi - lo) // 4)
        if front:
            a, b = lo, lo + size
            new = (seq << SEQ_SHIFT) | (b << _HALF) | hi
        else:
            a, b = hi - size, hi
            new = (seq << SEQ_SHIFT) | (lo << _HALF) | a
        if cas(box, CLAIM, word, new):
            return start + a * UNIT, min(stop, start + b * UNIT)


@jit
def wait_done(box, total, limit):
    """Wait (without the GIL, at most ``limit`` reads) until ``total`` blocks are done; whether they are."""
    for _ in range(limit):
        if load(box, DONE) >= total:
            return True
    return load(box, DONE) >= total
