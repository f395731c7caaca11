"""Private Numba kernels of the hardware style on CPUs with VAES: several blocks per AES instruction.

VAES (``vaesenc ymm`` / ``zmm`` and friends, flag ``vaes``) runs one AES round on each 128-bit
lane of a 256-bit register (two blocks) or, with AVX-512, of a 512-bit register (four blocks),
each lane with its own key. Here every lane carries the same round key, so one instruction
advances two or four blocks. The kernels keep four registers in flight (eight or sixteen
blocks), emitted through ``llvm.x86.aesni.aes*.256`` / ``.512`` as the 128-bit kernels of
:mod:`cipherlab.ciphers._aesni_kernels` emit theirs.

One code for every width: a register is a tuple of ``uint64`` lanes (little-endian; block ``i``
of the register in lanes ``2i, 2i + 1``), two per block, and the intrinsics below take the
width from the tuple's length (2: xmm, 4: ymm, 8: zmm), so the mode loops are written once.

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

from cipherlab.ciphers._numba import jit

__all__ = ["WIDTHS", "REGISTERS", "GROUP_BLOCKS", "Entries", "entries", "cipher_group", "xor_group", "load_group", "store_group",
           "splat_keys", "group_counters", "group_shape", "marker_lanes", "aes_function"]

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
    return cgutils.get_or_insert_function(builder.module, ir.FunctionType(vt, [vt, vt]), f"llvm.x86.aesni.{op}{_SUFFIX[w]}")


def _vec(builder, tup, n):
    v = ir.Constant(ir.VectorType(_I64, n), ir.Undefined)
    for i in range(n):
        v = builder.insert_element(v, builder.extract_value(tup, i), ir.Constant(_I32, i))
    return v


def _tup(context, builder, v, n):
    return context.make_tuple(builder, types.UniTuple(types.uint64, n),
                              [builder.extract_element(v, ir.Constant(_I32, i)) for i in range(n)])


def group_shape(ty) -> "tuple[int, int] | None":
    """``(registers, lanes)`` a group's ``shape`` marker stands for: a tuple of ``registers`` tuples of
    ``lanes`` integers (2, 4 or 8 lanes: xmm, ymm, zmm), else None."""
    if isinstance(ty, types.UniTuple) and isinstance(ty.dtype, types.UniTuple) and ty.dtype.count in _SUFFIX:
        return ty.count, ty.dtype.count
    return None


@intrinsic
def xor_group(typingctx, a, b):
    """Two groups of registers XORed register by register (vector XORs)."""
    if not (isinstance(a, types.UniTuple) and a == b and _lanes(a.dtype)):
        return None
    w = _lanes(a.dtype)

    def codegen(context, builder, sig, args):
        regs = [builder.xor(_vec(builder, builder.extract_value(args[0], i), w),
                            _vec(builder, builder.extract_value(args[1], i), w)) for i in range(a.count)]
        return context.make_tuple(builder, a, [_tup(context, builder, v, w) for v in regs])
    return a(a, a), codegen


@intrinsic
def load_group(typingctx, arr, off, shape):
    """The group of registers at ``arr[off:]`` (uint8 array, unaligned): ``registers x 8 x lanes`` bytes."""
    dims = group_shape(shape)
    if dims is None:
        return None
    regs, w = dims
    reg = types.UniTuple(types.uint64, w)
    ret = types.UniTuple(reg, regs)

    def codegen(context, builder, sig, args):
        base = builder.bitcast(builder.gep(context.make_array(sig.args[0])(context, builder, args[0]).data, [args[1]]),
                               ir.VectorType(_I64, w).as_pointer())
        vs = [builder.load(builder.gep(base, [ir.Constant(_I64, i)]), align=1) for i in range(regs)]
        return context.make_tuple(builder, ret, [_tup(context, builder, v, w) for v in vs])
    return ret(arr, types.intp, shape), codegen


@intrinsic
def store_group(typingctx, arr, off, y):
    """Write the group of registers ``y`` to ``arr[off:]`` (uint8 array, unaligned)."""
    if not (isinstance(y, types.UniTuple) and _lanes(y.dtype)):
        return None
    w = _lanes(y.dtype)

    def codegen(context, builder, sig, args):
        base = builder.bitcast(builder.gep(context.make_array(sig.args[0])(context, builder, args[0]).data, [args[1]]),
                               ir.VectorType(_I64, w).as_pointer())
        for i in range(y.count):
            builder.store(_vec(builder, builder.extract_value(args[2], i), w), builder.gep(base, [ir.Constant(_I64, i)]),
                          align=1)
        return context.get_dummy_value()
    return types.void(arr, types.intp, y), codegen


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


def _splat(builder, x, n):
    """``x`` (an i64) in every lane of an ``n``-lane vector."""
    undef = ir.Constant(ir.VectorType(_I64, n), ir.Undefined)
    return builder.shuffle_vector(builder.insert_element(undef, x, ir.Constant(_I32, 0)), undef,
                                  ir.Constant(ir.VectorType(_I32, n), [0] * n))


def _bswap(builder, v, n):
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(v.type, [v.type]),
                                        f"llvm.bswap.v{n}i64" if n > 1 else "llvm.bswap.i64")
    return builder.call(fn, [v])


def _counters_any(builder, hi, lo, start, w):
    """The register of counter blocks ``(hi, lo) + start + i``, any carry: the low words one vector add,
    the carry into the high word a vector compare (the sum below ``lo``), each half byte-swapped."""
    blocks = w // 2
    vt = ir.VectorType(_I64, blocks)
    low = builder.add(_splat(builder, builder.add(lo, start), blocks), ir.Constant(vt, list(range(blocks))))
    carry = builder.zext(builder.icmp_unsigned("<", low, _splat(builder, lo, blocks)), vt)
    high = builder.add(_splat(builder, hi, blocks), carry)
    order = [k // 2 + (blocks if k % 2 else 0) for k in range(w)]  # high_0, low_0, high_1, low_1 ...
    return _bswap(builder, builder.shuffle_vector(high, low, ir.Constant(ir.VectorType(_I32, w), order)), w)


def _counters_run(builder, first, j, w):
    """Register ``j`` of a group whose counter's last byte does not wrap: ``first`` (the group's first
    block, byte-swapped, in every block of the register) with ``k`` added to block ``k``'s last byte
    (the top byte of its second lane): one vector add, no shuffle."""
    step = [0 if k % 2 == 0 else ((w // 2) * j + k // 2) << 56 for k in range(w)]
    return builder.add(first, ir.Constant(ir.VectorType(_I64, w), step))


@intrinsic
def group_counters(typingctx, hi, lo, b, shape):
    """The counter blocks of a group (:func:`group_shape`) from block ``b`` on, for
    the 128-bit big-endian initial counter ``(hi, lo)``, wrapping modulo 2^128.

    Where the counter's last byte does not wrap inside the group (fifteen groups in sixteen, every
    one when the first counter's last byte is a multiple of the group), one vector add per register
    (:func:`_counters_run`); else the general sum (:func:`_counters_any`: shuffles, which compete with
    the AES units for their ports). The branch is taken on vectors, inside one intrinsic: a branch
    between two tuples in jitted code merges them lane by lane in general registers."""
    dims = group_shape(shape)
    if dims is None:
        return None
    regs, w = dims
    reg = types.UniTuple(types.uint64, w)
    ret = types.UniTuple(reg, regs)

    def codegen(context, builder, sig, args):
        hi_, lo_, start = args[0], args[1], args[2]
        low = builder.add(lo_, start)
        high = builder.add(hi_, builder.zext(builder.icmp_unsigned("<", low, lo_), _I64))
        last = builder.and_(low, ir.Constant(_I64, 0xFF))
        run = builder.icmp_unsigned("<=", last, ir.Constant(_I64, 256 - regs * (w // 2)))
        with builder.if_else(run, likely=True) as (then, otherwise):
            with then:
                first = ir.Constant(ir.VectorType(_I64, w), ir.Undefined)
                for k, word in enumerate((_bswap(builder, high, 1), _bswap(builder, low, 1)) * (w // 2)):
                    first = builder.insert_element(first, word, ir.Constant(_I32, k))
                fast = [_counters_run(builder, first, j, w) for j in range(regs)]
                fast_block = builder.block
            with otherwise:
                slow = [_counters_any(builder, hi_, lo_, builder.add(start, ir.Constant(_I64, (w // 2) * j)), w)
                        for j in range(regs)]
                slow_block = builder.block
        phis = [builder.phi(f.type) for f in fast]  # every phi first: LLVM wants them at the block's top
        for phi, f, s in zip(phis, fast, slow):
            phi.add_incoming(f, fast_block)
            phi.add_incoming(s, slow_block)
        return context.make_tuple(builder, ret, [_tup(context, builder, phi, w) for phi in phis])
    return ret(types.uint64, types.uint64, types.intp, shape), codegen


# -- a group of registers in flight ------------------------------------------------------------

_MIDDLE = {(False, True): "aesenc", (False, False): "aesenclast", (True, True): "aesdec", (True, False): "aesdeclast"}


@intrinsic
def cipher_group(typingctx, x, rk, decrypt, mix):
    """Registers ``x`` through every round, emitted as one straight run of AES instructions; ``rk``
    from :func:`splat_keys`, in use order: the whitening XOR with ``rk[0]``, a middle round per key
    ``rk[1] .. rk[n - 2]`` (``aesenc``, or for the MAES shape, ``mix`` None, ``aesenclast`` with the IV
    in the key; their inverses with ``decrypt``), the last round with ``rk[n - 1]``.

    ``decrypt`` and ``mix`` are constants when compiling (a boolean literal; ``mix`` True or None).
    One intrinsic rather than a jitted function per round: the whole group is one block of LLVM code
    with every key in a register, whatever LLVM's inliner would decide about a function this size
    (it kept AES-256's group out of line and rebuilt its keys on every call: eight times slower)."""
    if not (isinstance(x, types.UniTuple) and isinstance(rk, types.UniTuple) and isinstance(decrypt, types.BooleanLiteral)
            and isinstance(mix, (types.NoneType, types.Boolean))):
        return None
    n, w, regs = rk.count, _lanes(rk.dtype), x.count
    if w is None or x.dtype != rk.dtype or n < 2:
        return None
    inverse, shaped = decrypt.literal_value, isinstance(mix, types.Boolean)
    names = _MIDDLE[inverse, shaped], ("aesdeclast" if inverse else "aesenclast")

    def codegen(context, builder, sig, args):
        middle, last = (aes_function(builder, name, w) for name in names)
        keys = [_vec(builder, builder.extract_value(args[1], j), w) for j in range(n)]
        state = [builder.xor(_vec(builder, builder.extract_value(args[0], i), w), keys[0]) for i in range(regs)]
        for key in keys[1:-1]:
            state = [builder.call(middle, [v, key]) for v in state]
        state = [builder.call(last, [v, keys[-1]]) for v in state]
        return context.make_tuple(builder, x, [_tup(context, builder, v, w) for v in state])
    return x(x, rk, decrypt, mix), codegen


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
        o = 16 * b
        store_group(out, o, cipher_group(load_group(inp, o, shape), rk, decrypt, mix))
        b += group
    if b < stop:
        o, n = 16 * b, 16 * (stop - b)
        tmp = np.zeros(16 * group, dtype=np.uint8)
        tmp[:n] = inp[o:o + n]
        store_group(tmp, 0, cipher_group(load_group(tmp, 0, shape), rk, decrypt, mix))
        out[o:o + n] = tmp[:n]


@jit
def ctr_blocks(inp, out, iv, start, stop, keys, marker, shape, mix):
    """CTR over blocks ``start .. stop - 1`` from the big-endian initial counter block ``iv``
    (``uint8[16]``), wrapping modulo 2^128; the last block may be partial. The counters come from
    :func:`group_counters`; the loop calls nothing, as in :func:`ecb_blocks`."""
    hi = np.uint64(0)
    lo = np.uint64(0)
    for i in range(8):
        hi = (hi << np.uint64(8)) | np.uint64(iv[i])
        lo = (lo << np.uint64(8)) | np.uint64(iv[8 + i])
    rk = splat_keys(keys, marker, shape)
    group = len(shape) * len(shape[0]) // 2
    n = inp.shape[0]
    b = start
    while b + group <= stop and 16 * (b + group) <= n:
        o = 16 * b
        store_group(out, o, xor_group(load_group(inp, o, shape), cipher_group(group_counters(hi, lo, b, shape), rk,
                                                                              False, mix)))
        b += group
    if b < stop:
        tmp = np.empty(16 * group, dtype=np.uint8)
        store_group(tmp, 0, cipher_group(group_counters(hi, lo, b, shape), rk, False, mix))
        o = 16 * b
        for i in range(min(n, 16 * stop) - o):
            out[o + i] = inp[o + i] ^ tmp[i]


# -- entry points: arrays and integers only ----------------------------------------------------

_IN = types.Array(types.uint8, 1, "C", readonly=True)
_OUT = types.Array(types.uint8, 1, "C")
_KEYS = types.Array(types.uint64, 2, "C", readonly=True)
#: ``ecb(inp, out, start, stop, keys)`` and ``ctr(inp, out, iv, start, stop, keys)``
ECB_SIGNATURE = types.void(_IN, _OUT, types.int64, types.int64, _KEYS)
CTR_SIGNATURE = types.void(_IN, _OUT, _IN, types.int64, types.int64, _KEYS)
#: The entry points' modes: ECB's two directions apart (each compiled on its first use), CTR.
MODES = ("ecb-encrypt", "ecb-decrypt", "ctr")


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


class Entries:
    """The entry points of one key count and round shape (:func:`entries`), by mode and register width,
    each compiled on its first use: ``kernels[mode].get(width) or get(mode, width)``, one dictionary
    look-up on the hot path."""

    __slots__ = ("n_keys", "mix", "kernels")

    def __init__(self, n_keys: int, mix: bool):
        self.n_keys, self.mix = n_keys, bool(mix)
        self.kernels: dict = {mode: {} for mode in MODES}

    def get(self, mode: str, width: int):
        table = self.kernels[mode]
        kernel = table.get(width)
        if kernel is None:
            kernel = table[width] = _compile(mode, width, self.n_keys, self.mix)
        return kernel


@lru_cache(maxsize=None)
def entries(n_keys: int, mix: bool) -> Entries:
    """The shared :class:`Entries` of ``n_keys`` round keys and round shape ``mix`` (one per process)."""
    return Entries(n_keys, mix)
