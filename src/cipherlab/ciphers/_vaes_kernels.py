"""Private Numba kernels of the hardware style on CPUs with VAES: two blocks per AES instruction.

VAES (``vaesenc ymm`` and friends, flag ``vaes``) runs one AES round on the two 128-bit lanes
of a 256-bit register at once, each lane with its own key half. Here both lanes carry the
same round key, so one instruction advances two blocks. The kernels keep four ymm registers
(eight blocks) in flight, emitted through ``llvm.x86.aesni.aes*.256`` as the 128-bit kernels
of :mod:`cipherlab.ciphers._aesni_kernels` emit theirs.

Which ciphers: the round shapes that are AES instructions alone, AES (``mix``: ``aesenc``)
and MAES (``mix`` None: ``aesenclast`` with the IV folded into the key), with the round keys
in the fixed form (AES's 10/12/14 rounds, a variant's own count). ECB (both directions) and
CTR. Everything else (AES-2SBox's ``pshufb`` rounds, CBC, the padded ``rounds`` form) stays
on the 128-bit kernels. :mod:`cipherlab.ciphers._aesni` decides (``impl="aesni"`` picks these
at run time); never call them unless :func:`cipherlab.ciphers.cpu.has_vaes` is true: LLVM
aborts the interpreter on a target without VAES.

A 256-bit value is a tuple of four ``uint64`` (little-endian lanes: block ``2i`` in lanes 0-1,
block ``2i + 1`` in lanes 2-3).
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from cipherlab.ciphers._aesni_kernels import _counter
from cipherlab.ciphers._numba import jit

_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_Y = ir.VectorType(_I64, 4)
_YMM = types.UniTuple(types.uint64, 4)


def _vec(builder, tup):
    v = ir.Constant(_Y, ir.Undefined)
    for i in range(4):
        v = builder.insert_element(v, builder.extract_value(tup, i), ir.Constant(_I32, i))
    return v


def _tup(context, builder, v):
    return context.make_tuple(builder, _YMM, [builder.extract_element(v, ir.Constant(_I32, i)) for i in range(4)])


def _aes256(name):
    def typer(typingctx, s, k):
        def codegen(context, builder, sig, args):
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_Y, [_Y, _Y]), name)
            return _tup(context, builder, builder.call(fn, [_vec(builder, args[0]), _vec(builder, args[1])]))
        return _YMM(_YMM, _YMM), codegen
    return intrinsic(typer)


vaesenc = _aes256("llvm.x86.aesni.aesenc.256")
vaesenclast = _aes256("llvm.x86.aesni.aesenclast.256")
vaesdec = _aes256("llvm.x86.aesni.aesdec.256")
vaesdeclast = _aes256("llvm.x86.aesni.aesdeclast.256")


@intrinsic
def xor32(typingctx, a, b):
    """``a ^ b`` as one 256-bit XOR."""
    def codegen(context, builder, sig, args):
        return _tup(context, builder, builder.xor(_vec(builder, args[0]), _vec(builder, args[1])))
    return _YMM(_YMM, _YMM), codegen


@intrinsic
def load32(typingctx, arr, off):
    """The 32 bytes at ``arr[off:]`` (uint8 array, unaligned): two blocks."""
    def codegen(context, builder, sig, args):
        a = context.make_array(sig.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(a.data, [args[1]]), _Y.as_pointer())
        return _tup(context, builder, builder.load(ptr, align=1))
    return _YMM(arr, types.intp), codegen


@intrinsic
def store32(typingctx, arr, off, v):
    """Write two blocks to ``arr[off:off + 32]`` (uint8 array, unaligned)."""
    def codegen(context, builder, sig, args):
        a = context.make_array(sig.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(a.data, [args[1]]), _Y.as_pointer())
        builder.store(_vec(builder, args[2]), ptr, align=1)
        return context.get_dummy_value()
    return types.void(arr, types.intp, _YMM), codegen


@intrinsic
def wide_keys(typingctx, keys, marker):
    """Rows ``0 .. n - 1`` of ``keys`` (``uint64[>= n, 2]``) each broadcast to both lanes, as a tuple
    of ``n`` 256-bit keys; ``n = len(marker)`` is known when compiling (see ``_aesni_kernels.key_blocks``)."""
    if not isinstance(marker, types.UniTuple):
        return None
    n = marker.count
    ret = types.UniTuple(_YMM, n)

    def codegen(context, builder, sig, args):
        a = context.make_array(sig.args[0])(context, builder, args[0])
        out = []
        for i in range(n):
            lo, hi = (builder.load(builder.gep(a.data, [ir.Constant(_I64, 2 * i + j)])) for j in range(2))
            out.append(context.make_tuple(builder, _YMM, [lo, hi, lo, hi]))
        return context.make_tuple(builder, ret, out)
    return ret(keys, marker), codegen


@jit
def _round8(x, k, decrypt, mix):
    if decrypt:
        if mix is not None:
            return vaesdec(x[0], k), vaesdec(x[1], k), vaesdec(x[2], k), vaesdec(x[3], k)
        return vaesdeclast(x[0], k), vaesdeclast(x[1], k), vaesdeclast(x[2], k), vaesdeclast(x[3], k)
    if mix is not None:
        return vaesenc(x[0], k), vaesenc(x[1], k), vaesenc(x[2], k), vaesenc(x[3], k)
    return vaesenclast(x[0], k), vaesenclast(x[1], k), vaesenclast(x[2], k), vaesenclast(x[3], k)


@jit
def cipher8(x, rk, decrypt, mix):
    """Eight blocks (four 256-bit values) through every round; ``rk`` from :func:`wide_keys`, in use order.

    The rounds are written out, one guarded line each (``len(rk)`` is a compile-time constant):
    the same unrolling as ``_aesni_kernels._encrypt4_fixed``. Plain ``@jit`` functions, not
    ``inline="always"``: LLVM inlines them as well, and Numba's own inlining of these bodies made
    the cold compile four times longer (measured: 68 s against 11 s for ECB and CTR)."""
    n = len(rk)
    k = rk[0]
    x = (xor32(x[0], k), xor32(x[1], k), xor32(x[2], k), xor32(x[3], k))
    if n > 2:
        x = _round8(x, rk[min(1, n - 1)], decrypt, mix)
    if n > 3:
        x = _round8(x, rk[min(2, n - 1)], decrypt, mix)
    if n > 4:
        x = _round8(x, rk[min(3, n - 1)], decrypt, mix)
    if n > 5:
        x = _round8(x, rk[min(4, n - 1)], decrypt, mix)
    if n > 6:
        x = _round8(x, rk[min(5, n - 1)], decrypt, mix)
    if n > 7:
        x = _round8(x, rk[min(6, n - 1)], decrypt, mix)
    if n > 8:
        x = _round8(x, rk[min(7, n - 1)], decrypt, mix)
    if n > 9:
        x = _round8(x, rk[min(8, n - 1)], decrypt, mix)
    if n > 10:
        x = _round8(x, rk[min(9, n - 1)], decrypt, mix)
    if n > 11:
        x = _round8(x, rk[min(10, n - 1)], decrypt, mix)
    if n > 12:
        x = _round8(x, rk[min(11, n - 1)], decrypt, mix)
    if n > 13:
        x = _round8(x, rk[min(12, n - 1)], decrypt, mix)
    if n > 14:
        x = _round8(x, rk[min(13, n - 1)], decrypt, mix)
    k = rk[n - 1]
    if decrypt:
        return vaesdeclast(x[0], k), vaesdeclast(x[1], k), vaesdeclast(x[2], k), vaesdeclast(x[3], k)
    return vaesenclast(x[0], k), vaesenclast(x[1], k), vaesenclast(x[2], k), vaesenclast(x[3], k)


@jit
def _ecb8(inp, out, b, stop, rk, decrypt, mix):
    while b + 8 <= stop:
        o = 16 * b
        y = cipher8((load32(inp, o), load32(inp, o + 32), load32(inp, o + 64), load32(inp, o + 96)), rk, decrypt, mix)
        store32(out, o, y[0])
        store32(out, o + 32, y[1])
        store32(out, o + 64, y[2])
        store32(out, o + 96, y[3])
        b += 8
    return b


@jit
def ecb_range(inp, out, start, stop, decrypt, keys, marker, mix):
    """ECB over blocks ``start .. stop - 1``, eight at a time (in place allowed); fewer than eight
    left over go through one more pass on a copy."""
    rk = wide_keys(keys, marker)
    b = _ecb8(inp, out, start, stop, rk, decrypt, mix)
    if b < stop:
        n = 16 * (stop - b)
        tmp = np.zeros(128, dtype=np.uint8)
        tmp[:n] = inp[16 * b:16 * stop]
        y = cipher8((load32(tmp, 0), load32(tmp, 32), load32(tmp, 64), load32(tmp, 96)), rk, decrypt, mix)
        store32(tmp, 0, y[0])
        store32(tmp, 32, y[1])
        store32(tmp, 64, y[2])
        store32(tmp, 96, y[3])
        out[16 * b:16 * stop] = tmp[:n]


@jit
def _counters2(hi, lo, b):
    """Counter blocks ``b`` and ``b + 1`` as one 256-bit value."""
    c0 = _counter(hi, lo, b)
    c1 = _counter(hi, lo, b + 1)
    return (c0[0], c0[1], c1[0], c1[1])


@jit
def ctr_range(inp, out, iv, start, stop, keys, marker, mix):
    """CTR over blocks ``start .. stop - 1`` from the big-endian initial counter block ``iv``
    (``uint8[16]``), wrapping modulo 2^128; the last block may be partial."""
    hi = np.uint64(0)
    lo = np.uint64(0)
    for i in range(8):
        hi = (hi << np.uint64(8)) | np.uint64(iv[i])
        lo = (lo << np.uint64(8)) | np.uint64(iv[8 + i])
    rk = wide_keys(keys, marker)
    n = inp.shape[0]
    b = start
    while b + 8 <= stop and 16 * (b + 8) <= n:
        o = 16 * b
        k = cipher8((_counters2(hi, lo, b), _counters2(hi, lo, b + 2), _counters2(hi, lo, b + 4),
                     _counters2(hi, lo, b + 6)), rk, False, mix)
        store32(out, o, xor32(load32(inp, o), k[0]))
        store32(out, o + 32, xor32(load32(inp, o + 32), k[1]))
        store32(out, o + 64, xor32(load32(inp, o + 64), k[2]))
        store32(out, o + 96, xor32(load32(inp, o + 96), k[3]))
        b += 8
    if b < stop:
        k = cipher8((_counters2(hi, lo, b), _counters2(hi, lo, b + 2), _counters2(hi, lo, b + 4),
                     _counters2(hi, lo, b + 6)), rk, False, mix)
        tmp = np.empty(128, dtype=np.uint8)
        store32(tmp, 0, k[0])
        store32(tmp, 32, k[1])
        store32(tmp, 64, k[2])
        store32(tmp, 96, k[3])
        o = 16 * b
        for i in range(min(n, 16 * stop) - o):
            out[o + i] = inp[o + i] ^ tmp[i]
