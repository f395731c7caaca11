"""Private Numba kernels of the hardware style on CPUs with VAES: several blocks per AES instruction.

VAES (``vaesenc ymm`` / ``zmm`` and friends, flag ``vaes``) runs one AES round on each 128-bit
lane of a 256-bit register (two blocks) or, with AVX-512, of a 512-bit register (four blocks),
each lane with its own key. Here every lane carries the same round key, so one instruction
advances two or four blocks. The kernels keep a group of registers in flight (:data:`REGISTERS`:
sixteen blocks on ymm, thirty-two on zmm), emitted through ``llvm.x86.aesni.aes*.256`` / ``.512``
as the 128-bit kernels of :mod:`cipherlab.ciphers._aesni_kernels` emit theirs.

One code for every width: a register is a tuple of ``uint64`` lanes (little-endian; block ``i``
of the register in lanes ``2i, 2i + 1``), two per block, and the intrinsics below take the
width from the tuple's length (2: xmm, 4: ymm, 8: zmm), so the mode loops are written once.
A group of blocks is one intrinsic from its load to its store (:func:`ecb_group`, :func:`ctr_group`),
so LLVM sees vectors only between them.

Which ciphers: the round shapes that are AES instructions alone, AES (``mix``: ``aesenc``)
and MAES (``mix`` None: ``aesenclast`` with the IV folded into the key), with the round keys
in the fixed form (AES's 10/12/14 rounds, a variant's own count). ECB (both directions) and
CTR. Everything else (AES-2SBox's ``pshufb`` rounds, CBC, the padded ``rounds`` form) stays
on the 128-bit kernels. :mod:`cipherlab.ciphers._aesni` decides which width runs; never call a
width the CPU lacks (:func:`cipherlab.ciphers.cpu.has_vaes`, :func:`~cipherlab.ciphers.cpu.has_zmm`):
LLVM aborts the interpreter on a target without the instruction.

Entry points (:func:`entries`): one pair (ECB, CTR) per width, key count and round shape,
taking arrays and integers only, compiled for one signature (a writable input array is passed
as the read-only type the kernel was compiled for, never compiled twice). Numba's dispatcher
types such arguments on its fast path; a tuple argument would cost a few hundred nanoseconds per
call, which is what a 16-byte message takes to encrypt.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from cipherlab.ciphers import _team as T
from cipherlab.ciphers._numba import jit

__all__ = ["WIDTHS", "REGISTERS", "GROUP_BLOCKS", "Entries", "entries", "ecb_group", "ctr_group", "splat_keys",
           "group_shape", "marker_lanes", "aes_function", "kind_of", "team_claims", "team_serve"]

#: Register widths in bits -> uint64 lanes per register.
WIDTHS = {128: 2, 256: 4, 512: 8}
#: Registers in flight per width (a group): enough independent AES instructions to cover their latency
#: times their throughput (Zen 4: 4 cycles x 2 per cycle on xmm and ymm, x 1 on zmm), few enough that
#: the group and AES-256's fifteen keys fit the 32 vector registers of AVX-512.
REGISTERS = {128: 8, 256: 8, 512: 8}
#: Blocks per group of registers, per width: the unit of work of the kernels (and of a thread's range).
GROUP_BLOCKS = {width: REGISTERS[width] * lanes // 2 for width, lanes in WIDTHS.items()}
#: Lanes per register -> the suffix of LLVM's AES intrinsics of that width (``llvm.x86.aesni.aesenc.512``).
_SUFFIX = {2: "", 4: ".256", 8: ".512"}
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)


def _lanes(ty) -> "int | None":
    """The lane count of a register type (a tuple of 2, 4 or 8 ``uint64``), else None."""
    if isinstance(ty, types.UniTuple) and ty.dtype == types.uint64 and ty.count in _SUFFIX:
        return ty.count
    return None


def marker_lanes(ty) -> "int | None":
    """The lane count a ``lanes`` marker (any tuple of 2, 4 or 8 integers) stands for."""
    if isinstance(ty, types.UniTuple) and ty.count in _SUFFIX:
        return ty.count
    return None


def aes_function(builder, op: str, w: int):
    """LLVM's AES instruction ``op`` (``aesenc``, ``aesenclast``, ``aesdec``, ``aesdeclast``) on a vector
    of ``w`` 64-bit lanes: the 128-, 256- or 512-bit form (AES-NI, VAES, VAES with AVX-512)."""
    vt = ir.VectorType(_I64, w)
    return cgutils.get_or_insert_function(builder.module, ir.FunctionType(vt, [vt, vt]),
                                          f"llvm.x86.aesni.{op}{_SUFFIX[w]}")


def _vec(builder, tup, n):
    v = ir.Constant(ir.VectorType(_I64, n), ir.Undefined)
    for i in range(n):
        v = builder.insert_element(v, builder.extract_value(tup, i), ir.Constant(_I32, i))
    return v


def group_shape(ty) -> "tuple[int, int] | None":
    """``(registers, lanes)`` a group's ``shape`` marker stands for: a tuple of ``registers`` tuples of
    ``lanes`` integers (2, 4 or 8 lanes: xmm, ymm, zmm), else None."""
    if isinstance(ty, types.UniTuple) and isinstance(ty.dtype, types.UniTuple) and ty.dtype.count in _SUFFIX:
        return ty.count, ty.dtype.count
    return None


@intrinsic
def splat_keys(typingctx, keys, marker, shape):
    """Rows ``0 .. len(marker) - 1`` of ``keys`` (``uint64[>= n, 2]``, C order), each copied to every block
    of a register of the group ``shape``: a tuple of round keys, every one kept in a register. The
    counts are known when compiling (``marker``: a tuple of ``n`` integers; ``shape``: :func:`group_shape`)."""
    n, dims = (marker.count if isinstance(marker, types.UniTuple) else None), group_shape(shape)
    if n is None or dims is None:
        return None
    w = dims[1]
    reg = types.UniTuple(types.uint64, w)
    ret = types.UniTuple(reg, n)

    def codegen(context, builder, sig, args):
        a = context.make_array(sig.args[0])(context, builder, args[0])
        out = []
        for i in range(n):
            lo, hi = (builder.load(builder.gep(a.data, [ir.Constant(_I64, 2 * i + j)])) for j in range(2))
            out.append(context.make_tuple(builder, reg, [lo, hi] * (w // 2)))
        return context.make_tuple(builder, ret, out)
    return ret(keys, marker, shape), codegen


# -- LLVM code of a group: every register a vector from its load to its store ------------------
# One intrinsic per step of a loop (a group of ECB blocks, a group of CTR blocks, a group of keystream),
# each emitting the whole group: the registers never become Numba tuples between the counters, the
# rounds and the memory, so LLVM sees vector data flow only (a tuple between two intrinsics is taken
# apart lane by lane, and LLVM then rebuilds the lanes it can prove with blends and broadcasts).


def _splat(builder, x, n):
    """``x`` (an i64) in every lane of an ``n``-lane vector."""
    undef = ir.Constant(ir.VectorType(_I64, n), ir.Undefined)
    return builder.shuffle_vector(builder.insert_element(undef, x, ir.Constant(_I32, 0)), undef,
                                  ir.Constant(ir.VectorType(_I32, n), [0] * n))


def _bswap(builder, v, n):
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(v.type, [v.type]),
                                        f"llvm.bswap.v{n}i64" if n > 1 else "llvm.bswap.i64")
    return builder.call(fn, [v])


def _counters_any(builder, hi, lo, start, regs, w):
    """The counter blocks ``(hi, lo) + start + i`` of a group, any carry: per register the low words
    one vector add, the carry into the high word a vector compare (the sum below ``lo``), each half
    byte-swapped (shuffles, which compete with the AES units for their ports)."""
    blocks = w // 2
    vt = ir.VectorType(_I64, blocks)
    order = ir.Constant(ir.VectorType(_I32, w), [k // 2 + (blocks if k % 2 else 0) for k in range(w)])
    out = []
    for j in range(regs):
        first = builder.add(lo, builder.add(start, ir.Constant(_I64, blocks * j)))
        low = builder.add(_splat(builder, first, blocks), ir.Constant(vt, list(range(blocks))))
        carry = builder.zext(builder.icmp_unsigned("<", low, _splat(builder, lo, blocks)), vt)
        high = builder.add(_splat(builder, hi, blocks), carry)
        out.append(_bswap(builder, builder.shuffle_vector(high, low, order), w))  # high_0, low_0, high_1 ...
    return out


def _counters_aligned(builder, hi, lo, start, regs, w):
    """The counter blocks of a group whose first counter's last byte is a multiple of the group's blocks
    (a divisor of 256), so that neither that byte nor the low 64-bit word wraps inside it: the first
    block byte-swapped into every block of a register, then ``k`` added to block ``k``'s last byte (the
    top byte of its second lane). One vector add per register, no shuffle."""
    low = builder.add(lo, start)
    high = builder.add(hi, builder.zext(builder.icmp_unsigned("<", low, lo), _I64))
    pair = ir.Constant(ir.VectorType(_I64, 2), ir.Undefined)
    pair = builder.insert_element(pair, _bswap(builder, high, 1), ir.Constant(_I32, 0))
    pair = builder.insert_element(pair, _bswap(builder, low, 1), ir.Constant(_I32, 1))
    first = builder.shuffle_vector(pair, pair, ir.Constant(ir.VectorType(_I32, w), [0, 1] * (w // 2)))
    vt = ir.VectorType(_I64, w)
    return [builder.add(first, ir.Constant(vt, [0 if k % 2 == 0 else ((w // 2) * j + k // 2) << 56 for k in range(w)]))
            for j in range(regs)]


_MIDDLE = {(False, True): "aesenc", (False, False): "aesenclast", (True, True): "aesdec", (True, False): "aesdeclast"}


def _rounds(builder, state, keys, decrypt: bool, shaped: bool, w: int):
    """Registers ``state`` through every round with ``keys`` (vectors, in use order): the whitening XOR
    with ``keys[0]``, a middle round per key ``keys[1] .. keys[n - 2]`` (``aesenc``, or for the MAES
    shape, ``shaped`` False, ``aesenclast`` with the IV in the key; their inverses with ``decrypt``),
    the last round with ``keys[n - 1]``: one straight run of AES instructions, every key in a register."""
    middle = aes_function(builder, _MIDDLE[decrypt, shaped], w)
    last = aes_function(builder, "aesdeclast" if decrypt else "aesenclast", w)
    state = [builder.xor(v, keys[0]) for v in state]
    for key in keys[1:-1]:
        state = [builder.call(middle, [v, key]) for v in state]
    return [builder.call(last, [v, keys[-1]]) for v in state]


def _pointer(context, builder, arr_type, arr, off, w):
    data = context.make_array(arr_type)(context, builder, arr).data
    return builder.bitcast(builder.gep(data, [off]), ir.VectorType(_I64, w).as_pointer())


def _group_types(rk, shape, mix):
    """``(registers, lanes, n_keys, shaped)`` of a group step's arguments, or None if they do not fit."""
    dims = group_shape(shape)
    if dims is None or not (isinstance(rk, types.UniTuple) and _lanes(rk.dtype) == dims[1] and rk.count >= 2
                            and isinstance(mix, (types.NoneType, types.Boolean))):
        return None
    return dims[0], dims[1], rk.count, isinstance(mix, types.Boolean)


@intrinsic
def ecb_group(typingctx, inp, out, off, rk, decrypt, shape, mix):
    """One group of ECB blocks: the registers at ``inp[off:]`` through every round (:func:`_rounds`),
    stored at ``out[off:]`` (in place allowed). ``decrypt`` is a boolean constant when compiling; ``mix``
    True (AES) or None (MAES); ``rk`` from :func:`splat_keys`; ``shape``: :func:`group_shape`."""
    dims = _group_types(rk, shape, mix)
    if dims is None or not isinstance(decrypt, types.BooleanLiteral):
        return None
    regs, w, n, shaped = dims

    def codegen(context, builder, sig, args):
        keys = [_vec(builder, builder.extract_value(args[3], j), w) for j in range(n)]
        src = _pointer(context, builder, sig.args[0], args[0], args[2], w)
        state = [builder.load(builder.gep(src, [ir.Constant(_I64, i)]), align=1) for i in range(regs)]
        dst = _pointer(context, builder, sig.args[1], args[1], args[2], w)
        for i, v in enumerate(_rounds(builder, state, keys, decrypt.literal_value, shaped, w)):
            builder.store(v, builder.gep(dst, [ir.Constant(_I64, i)]), align=1)
        return context.get_dummy_value()
    return types.void(inp, out, types.intp, rk, decrypt, shape, mix), codegen


@intrinsic
def ctr_group(typingctx, inp, out, off, hi, lo, b, aligned, rk, shape, mix):
    """One group of CTR blocks from block ``b`` on (the counter ``(hi, lo)`` is the initial counter
    block): the keystream of the group's counters XORed with the registers at ``inp[off:]`` and stored
    at ``out[off:]``. ``aligned`` (a boolean constant when compiling) picks :func:`_counters_aligned`
    (the group's first counter has its last byte a multiple of the group) or :func:`_counters_any`."""
    dims = _group_types(rk, shape, mix)
    if dims is None or not isinstance(aligned, types.BooleanLiteral):
        return None
    regs, w, n, shaped = dims

    def codegen(context, builder, sig, args):
        keys = [_vec(builder, builder.extract_value(args[7], j), w) for j in range(n)]
        make = _counters_aligned if aligned.literal_value else _counters_any
        stream = _rounds(builder, make(builder, args[3], args[4], args[5], regs, w), keys, False, shaped, w)
        src = _pointer(context, builder, sig.args[0], args[0], args[2], w)
        dst = _pointer(context, builder, sig.args[1], args[1], args[2], w)
        for i, k in enumerate(stream):
            v = builder.load(builder.gep(src, [ir.Constant(_I64, i)]), align=1)
            builder.store(builder.xor(v, k), builder.gep(dst, [ir.Constant(_I64, i)]), align=1)
        return context.get_dummy_value()
    return (types.void(inp, out, types.intp, types.uint64, types.uint64, types.intp, aligned, rk, shape, mix),
            codegen)


# -- the mode loops ------------------------------------------------------------------------------


@jit
def ecb_blocks(inp, out, start, stop, decrypt, keys, marker, shape, mix):
    """ECB over blocks ``start .. stop - 1``, a group of registers at a time (:func:`group_shape`; in
    place allowed); the blocks left over (fewer than a group) go through one more group on a copy.

    The loop calls nothing (every step is an intrinsic, emitted in place): a call inside it would
    make LLVM keep the round keys on the stack rather than in registers."""
    rk = splat_keys(keys, marker, shape)
    group = len(shape) * len(shape[0]) // 2  # blocks per group
    b = start
    while b + group <= stop:
        ecb_group(inp, out, 16 * b, rk, decrypt, shape, mix)
        b += group
    if b < stop:
        o, n = 16 * b, 16 * (stop - b)
        tmp = np.zeros(16 * group, dtype=np.uint8)
        tmp[:n] = inp[o:o + n]
        ecb_group(tmp, tmp, 0, rk, decrypt, shape, mix)
        out[o:o + n] = tmp[:n]


@jit
def _ctr_through_copy(inp, out, hi, lo, b, stop, rk, shape, mix):
    """CTR over blocks ``b .. stop - 1`` (at most a group; the last may be partial) from one group of
    keystream made on a copy (counters of any alignment)."""
    group = len(shape) * len(shape[0]) // 2
    o = 16 * b
    m = min(inp.shape[0], 16 * stop) - o
    tmp = np.zeros(16 * group, dtype=np.uint8)
    tmp[:m] = inp[o:o + m]
    ctr_group(tmp, tmp, 0, hi, lo, b, False, rk, shape, mix)
    out[o:o + m] = tmp[:m]


@jit
def ctr_blocks(inp, out, iv, start, stop, keys, marker, shape, mix):
    """CTR over blocks ``start .. stop - 1`` from the big-endian initial counter block ``iv``
    (``uint8[16]``), wrapping modulo 2^128; the last block may be partial.

    First the blocks up to the first counter whose last byte is a multiple of the group (fewer than a
    group), then whole groups from there (their counters one vector add per register; the loop calls
    nothing, as in :func:`ecb_blocks`), then what is left: the head and the tail through
    :func:`_ctr_through_copy`."""
    hi = np.uint64(0)
    lo = np.uint64(0)
    for i in range(8):
        hi = (hi << np.uint64(8)) | np.uint64(iv[i])
        lo = (lo << np.uint64(8)) | np.uint64(iv[8 + i])
    rk = splat_keys(keys, marker, shape)
    group = len(shape) * len(shape[0]) // 2
    g = np.uint64(group)
    head = np.int64((g - (lo + np.uint64(start)) % g) % g)  # unsigned throughout: uint64 with int64 is float64
    b = start
    if head and b < stop:
        _ctr_through_copy(inp, out, hi, lo, b, min(stop, b + head), rk, shape, mix)
        b = min(stop, b + head)
    n = inp.shape[0]
    while b + group <= stop and 16 * (b + group) <= n:
        ctr_group(inp, out, 16 * b, hi, lo, b, True, rk, shape, mix)
        b += group
    if b < stop:
        _ctr_through_copy(inp, out, hi, lo, b, stop, rk, shape, mix)


# -- a message shared by a team of threads (see :mod:`cipherlab.ciphers._team`) ------------------


@jit
def team_claims(box, seq, front, decrypt, ctr, marker, shape, mix):
    """Claim and run pieces of posted message ``seq`` until none is left (on any thread of the team),
    on arrays made from the box's addresses; each piece's blocks counted in ``DONE`` once written (and a
    helper's, claimed from the back, in ``HELPED`` before).
    ``ctr``: None (ECB, in the direction ``decrypt``) or True (CTR)."""
    n = box[T.N_BYTES]
    inp = T.u8_array(box[T.INP], n)
    out = T.u8_array(box[T.OUT], n)
    keys = T.u64_keys(box[T.KEYS], box[T.N_KEYS])
    while True:
        b, e = T.claim(box, seq, front)
        if b == e:
            return
        if ctr is None:  # ECB (a constant: the other branch is not compiled)
            ecb_blocks(inp, out, b, e, decrypt, keys, marker, shape, mix)
        else:
            ctr_blocks(inp, out, T.u8_array(box[T.IV], 16), b, e, keys, marker, shape, mix)
        if not front:
            T.fetch_add(box, T.HELPED, e - b)
        T.fetch_add(box, T.DONE, e - b)


@jit
def team_serve(box, seen, woken, limit, kind, decrypt, ctr, marker, shape, mix):
    """A helper's loop (without the GIL): every message of entry ``kind`` posted past ``seen`` is joined
    (a seat taken, pieces claimed) as soon as it is seen; returns the last message seen when ``limit``
    reads pass with none, when another entry posts, or when a job is handed over from Python (``woken``)."""
    idle = 0
    while idle < limit:
        s = T.load(box, T.POST)
        if s == seen:
            if T.load(box, T.WAKE) != woken:
                return seen
            idle += 1
            continue
        if box[T.KIND] != kind:
            return seen
        seen = s
        if T.seat(box, s):
            team_claims(box, s, False, decrypt, ctr, marker, shape, mix)
        idle = 0
    return seen


# -- entry points: arrays and integers only ----------------------------------------------------

_IN = types.Array(types.uint8, 1, "C", readonly=True)
_OUT = types.Array(types.uint8, 1, "C")
_KEYS = types.Array(types.uint64, 2, "C", readonly=True)
#: ``ecb(inp, out, start, stop, keys)`` and ``ctr(inp, out, iv, start, stop, keys)``
ECB_SIGNATURE = types.void(_IN, _OUT, types.int64, types.int64, _KEYS)
CTR_SIGNATURE = types.void(_IN, _OUT, _IN, types.int64, types.int64, _KEYS)
#: ``team(..., box, seq, helpers, limit) -> done`` (see :func:`_compile_team`) and ``serve(box, seen, woken,
#: limit) -> seen``
_BOX = types.Array(types.int64, 1, "C")
ECB_TEAM_SIGNATURE = types.boolean(_IN, _OUT, types.int64, types.int64, _KEYS, _BOX, types.int64, types.int64,
                                   types.int64)
CTR_TEAM_SIGNATURE = types.boolean(_IN, _OUT, _IN, types.int64, types.int64, _KEYS, _BOX, types.int64, types.int64,
                                   types.int64)
SERVE_SIGNATURE = types.int64(_BOX, types.int64, types.int64, types.int64)
#: The entry points' modes: ECB's two directions apart (each compiled on its first use), CTR.
MODES = ("ecb-encrypt", "ecb-decrypt", "ctr")


def kind_of(mode: str, width: int, n_keys: int, mix: bool) -> int:
    """The number an entry point posts its messages under (the same in every process)."""
    return ((MODES.index(mode) * 1024 + width) * 64 + n_keys) * 2 + bool(mix)


def _compile(mode: str, width: int, n_keys: int, mix: bool):
    """The entry point of ``mode`` (:data:`MODES`) for registers of ``width`` bits, ``n_keys`` round keys
    (rounds + 1) and the round shape (``mix``: AES, else MAES), compiled now (or loaded from Numba's
    cache: the constants the closure holds are part of its key).

    The counts and flags travel as constants of the closure, not as arguments: every argument is an
    array or an integer, which Numba's dispatcher types on its fast path."""
    marker, shape, kind = (0,) * n_keys, ((0,) * WIDTHS[width],) * REGISTERS[width], (True if mix else None)
    if mode == "ctr":
        def ctr(inp, out, iv, start, stop, keys):
            ctr_blocks(inp, out, iv, start, stop, keys, marker, shape, kind)
        return jit(ctr, signature=CTR_SIGNATURE)
    if mode == "ecb-encrypt":
        def ecb_encrypt(inp, out, start, stop, keys):
            ecb_blocks(inp, out, start, stop, False, keys, marker, shape, kind)
        return jit(ecb_encrypt, signature=ECB_SIGNATURE)

    def ecb_decrypt(inp, out, start, stop, keys):
        ecb_blocks(inp, out, start, stop, True, keys, marker, shape, kind)
    return jit(ecb_decrypt, signature=ECB_SIGNATURE)


def _compile_team(mode: str, width: int, n_keys: int, mix: bool):
    """``(team, serve)`` of ``mode`` (:data:`MODES`): the caller's entry point of a message shared by a team,
    ``team(<the mode's arguments>, box, seq, helpers, limit)`` (posts the message, runs its share, waits at
    most ``limit`` reads for the helpers' pieces: whether every block is done), and the helpers' loop
    :func:`team_serve` for it, both compiled now (or loaded from Numba's cache)."""
    marker, shape, kind = (0,) * n_keys, ((0,) * WIDTHS[width],) * REGISTERS[width], (True if mix else None)
    number, decrypt = kind_of(mode, width, n_keys, mix), mode == "ecb-decrypt"
    ctr = True if mode == "ctr" else None

    def serve(box, seen, woken, limit):
        return team_serve(box, seen, woken, limit, number, decrypt, ctr, marker, shape, kind)

    if mode == "ctr":
        def team(inp, out, iv, start, stop, keys, box, seq, helpers, limit):
            T.post(box, number, seq, inp, out, iv.ctypes.data, keys, start, stop, helpers)
            team_claims(box, seq, True, False, ctr, marker, shape, kind)
            return T.wait_done(box, stop - start, limit)
        signature = CTR_TEAM_SIGNATURE
    else:
        def team(inp, out, start, stop, keys, box, seq, helpers, limit):
            T.post(box, number, seq, inp, out, 0, keys, start, stop, helpers)
            team_claims(box, seq, True, decrypt, ctr, marker, shape, kind)
            return T.wait_done(box, stop - start, limit)
        signature = ECB_TEAM_SIGNATURE
    return jit(team, signature=signature), jit(serve, signature=SERVE_SIGNATURE)


class Entries:
    """The entry points of one key count and round shape (:func:`entries`), by mode and register width,
    each compiled on its first use: ``kernels[mode].get(width) or get(mode, width)``, one dictionary
    look-up on the hot path."""

    __slots__ = ("n_keys", "mix", "kernels", "teams")

    def __init__(self, n_keys: int, mix: bool):
        self.n_keys, self.mix = n_keys, bool(mix)
        self.kernels: dict = {mode: {} for mode in MODES}
        self.teams: dict = {}

    def get(self, mode: str, width: int):
        table = self.kernels[mode]
        kernel = table.get(width)
        if kernel is None:
            kernel = table[width] = _compile(mode, width, self.n_keys, self.mix)
        return kernel

    def team(self, mode: str, width: int) -> tuple:
        """``(number, team, serve)`` of ``mode`` at ``width``: :func:`kind_of` and :func:`_compile_team`'s pair
        (compiled on first use)."""
        entry = self.teams.get((mode, width))
        if entry is None:
            entry = self.teams[(mode, width)] = (kind_of(mode, width, self.n_keys, self.mix),
                                                 *_compile_team(mode, width, self.n_keys, self.mix))
        return entry


@lru_cache(maxsize=None)
def entries(n_keys: int, mix: bool) -> Entries:
    """The shared :class:`Entries` of ``n_keys`` round keys and round shape ``mix`` (one per process)."""
    return Entries(n_keys, mix)
