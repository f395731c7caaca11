"""Private Numba kernels of the hardware style (``impl="aesni"``): AES-NI via LLVM intrinsics.

Never call these before :func:`cipherlab.ciphers.cpu.check_aesni` passed: on a JIT
target without ``+aes`` LLVM aborts the interpreter instead of raising.

A 128-bit block is a tuple of two ``uint64`` (little-endian lanes: lane 0 is
bytes 0..7 of the block in memory); the intrinsics turn it into LLVM's
``<2 x i64>`` and back, and LLVM removes those conversions, so the state
lives in xmm registers. Round keys arrive in one of two forms (see
:func:`encrypt4`): a tuple of blocks for the full round counts (and a
described variant's own count), compiled per count with every key in a
register, or a padded tuple with a runtime count for the ``rounds`` research
option, one compile for them all.  Rounds are always
unrolled (~4x faster than a loop).

Every cipher is one of three round shapes, chosen by which optional
arguments are ``None`` (Numba prunes the other branches at compile time):

``mix`` not None (AES)
    middle rounds ``aesenc`` / ``aesdec`` (decryption keys through InvMixColumns,
    FIPS-197's equivalent inverse cipher).
``mix`` None, ``nib`` None (MAES)
    middle rounds ``aesenclast(s, k_r ^ IV_r)`` / ``aesdeclast``: no MixColumns,
    the IV folded into the round key.
``nib`` not None (AES-2SBox)
    ``aesenclast(s, 0)`` (SubBytes, ShiftRows), optionally ``pre`` (one more
    S-box layer, see :mod:`cipherlab.ciphers._aesni`), then the second S-box's affine
    byte map as two ``pshufb`` nibble lookups, then the round key.

The final round is always ``aesenclast`` / ``aesdeclast``. Mode loops keep
four blocks in flight (more spills: 15 round keys + states > 16 xmm).
The mode kernels work on a range of blocks and release the GIL;
:mod:`cipherlab.ciphers._aesni` runs ranges on threads (a Numba ``prange`` cannot take
the tuple arguments).
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from cipherlab.ciphers._numba import jit

_I8 = ir.IntType(8)
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_V = ir.VectorType(_I64, 2)
_V8 = ir.VectorType(_I8, 16)
_BLOCK = types.UniTuple(types.uint64, 2)

# --------------------------------------------------------------------------
# intrinsics
# --------------------------------------------------------------------------


def _vec(builder, tup):
    v = ir.Constant(_V, ir.Undefined)
    v = builder.insert_element(v, builder.extract_value(tup, 0), ir.Constant(_I32, 0))
    return builder.insert_element(v, builder.extract_value(tup, 1), ir.Constant(_I32, 1))


def _tup(context, builder, v):
    return context.make_tuple(builder, _BLOCK, [builder.extract_element(v, ir.Constant(_I32, i)) for i in range(2)])


def _call(context, builder, name, args, vtype=_V):
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(vtype, [vtype] * len(args)), name)
    vecs = [_vec(builder, a) if vtype is _V else builder.bitcast(_vec(builder, a), vtype) for a in args]
    out = builder.call(fn, vecs)
    return _tup(context, builder, out if vtype is _V else builder.bitcast(out, _V))


@intrinsic
def aesenc(typingctx, s, k):
    """One AES round: ShiftRows, SubBytes, MixColumns, XOR ``k``."""
    return _BLOCK(_BLOCK, _BLOCK), lambda c, b, sig, a: _call(c, b, "llvm.x86.aesni.aesenc", a)


@intrinsic
def aesenclast(typingctx, s, k):
    """The last AES round: ShiftRows, SubBytes, XOR ``k`` (no MixColumns)."""
    return _BLOCK(_BLOCK, _BLOCK), lambda c, b, sig, a: _call(c, b, "llvm.x86.aesni.aesenclast", a)


@intrinsic
def aesdec(typingctx, s, k):
    """One equivalent-inverse round: InvShiftRows, InvSubBytes, InvMixColumns, XOR ``k``."""
    return _BLOCK(_BLOCK, _BLOCK), lambda c, b, sig, a: _call(c, b, "llvm.x86.aesni.aesdec", a)


@intrinsic
def aesdeclast(typingctx, s, k):
    """InvShiftRows, InvSubBytes, XOR ``k``."""
    return _BLOCK(_BLOCK, _BLOCK), lambda c, b, sig, a: _call(c, b, "llvm.x86.aesni.aesdeclast", a)


@intrinsic
def pshufb(typingctx, table, idx):
    """Byte ``i`` of the result is ``table[idx[i] & 15]`` (0 where ``idx[i] >= 128``)."""
    return _BLOCK(_BLOCK, _BLOCK), lambda c, b, sig, a: _call(c, b, "llvm.x86.ssse3.pshuf.b.128", a, _V8)


@intrinsic
def nibble_map(typingctx, s, lo, hi):
    """Byte-wise ``x -> lo[x & 15] ^ hi[x >> 4]`` (two ``pshufb``), all in one xmm register."""
    def codegen(context, builder, sig, args):
        v, tlo, thi = (builder.bitcast(_vec(builder, a), _V8) for a in args)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_V8, [_V8, _V8]), "llvm.x86.ssse3.pshuf.b.128")
        mask = ir.Constant(_V8, [0x0F] * 16)
        low = builder.and_(v, mask)
        high = builder.and_(builder.lshr(v, ir.Constant(_V8, [4] * 16)), mask)
        out = builder.xor(builder.call(fn, [tlo, low]), builder.call(fn, [thi, high]))
        return _tup(context, builder, builder.bitcast(out, _V))
    return _BLOCK(_BLOCK, _BLOCK, _BLOCK), codegen


@intrinsic
def load16(typingctx, arr, off):
    """The 16 bytes at ``arr[off:]`` (uint8 array, unaligned) as a block."""
    def codegen(context, builder, sig, args):
        a = context.make_array(sig.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(a.data, [args[1]]), _V.as_pointer())
        return _tup(context, builder, builder.load(ptr, align=1))
    return _BLOCK(arr, types.intp), codegen


@intrinsic
def store16(typingctx, arr, off, s):
    """Write a block to ``arr[off:off + 16]`` (uint8 array, unaligned)."""
    def codegen(context, builder, sig, args):
        a = context.make_array(sig.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(a.data, [args[1]]), _V.as_pointer())
        builder.store(_vec(builder, args[2]), ptr, align=1)
        return context.get_dummy_value()
    return types.void(arr, types.intp, _BLOCK), codegen


@intrinsic
def bswap64(typingctx, x):
    """Byte-reverse a uint64 (big-endian counter <-> little-endian lane)."""
    def codegen(context, builder, sig, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_I64, [_I64]), "llvm.bswap.i64")
        return builder.call(fn, [args[0]])
    return types.uint64(types.uint64), codegen


@intrinsic
def key_blocks(typingctx, keys, marker):
    """Rows ``0 .. n - 1`` of ``keys`` (``uint64[>= n, 2]``, C order) as a tuple of ``n`` blocks, where
    ``n = len(marker)`` is known when compiling (``marker`` is any tuple of ``n`` integers).

    The round keys travel from Python as one array (cheap to pass) and become a tuple here,
    so that the kernels keep every key in a register."""
    if not isinstance(marker, types.UniTuple):
        return None
    n = marker.count
    ret = types.UniTuple(_BLOCK, n)

    def codegen(context, builder, sig, args):
        a = context.make_array(sig.args[0])(context, builder, args[0])
        blocks = []
        for i in range(n):
            lanes = [builder.load(builder.gep(a.data, [ir.Constant(_I64, 2 * i + j)])) for j in range(2)]
            blocks.append(context.make_tuple(builder, _BLOCK, lanes))
        return context.make_tuple(builder, ret, blocks)
    return ret(keys, marker), codegen


# --------------------------------------------------------------------------
# one block
# --------------------------------------------------------------------------

_ZERO = np.uint64(0)
#: Middle-round key slots: AES-256 has 13 middle rounds, the most of any cipher here.
MIDDLE_SLOTS = 13


@intrinsic
def _xor(typingctx, a, b):
    """``a ^ b`` as one vector XOR (lane-wise Python XOR would go through general registers)."""
    def codegen(context, builder, sig, args):
        return _tup(context, builder, builder.xor(_vec(builder, args[0]), _vec(builder, args[1])))
    return _BLOCK(_BLOCK, _BLOCK), codegen


@jit
def _enc_round(s, k, mix, nib, pre):
    if mix is not None:
        return aesenc(s, k)
    if nib is None:
        return aesenclast(s, k)
    s = aesenclast(s, (_ZERO, _ZERO))
    if pre is not None:
        # one more SubBytes, byte-wise: aesenclast shifts the rows, pre unshifts them
        s = pshufb(aesenclast(s, (_ZERO, _ZERO)), pre)
    return _xor(nibble_map(s, nib[0], nib[1]), k)


@jit
def _dec_round(s, k, mix, nib, pre):
    if mix is not None:
        return aesdec(s, k)
    if nib is None:
        return aesdeclast(s, k)
    s = nibble_map(aesdeclast(s, k), nib[0], nib[1])
    if pre is not None:
        # one more InvSubBytes, byte-wise: aesdeclast unshifts the rows, pre shifts them back
        s = pshufb(aesdeclast(s, (_ZERO, _ZERO)), pre)
    return s


@jit
def _enc_round4(x, k, mix, nib, pre):
    return (_enc_round(x[0], k, mix, nib, pre), _enc_round(x[1], k, mix, nib, pre),
            _enc_round(x[2], k, mix, nib, pre), _enc_round(x[3], k, mix, nib, pre))


@jit
def _dec_round4(x, k, mix, nib, pre):
    return (_dec_round(x[0], k, mix, nib, pre), _dec_round(x[1], k, mix, nib, pre),
            _dec_round(x[2], k, mix, nib, pre), _dec_round(x[3], k, mix, nib, pre))


# Two forms of the round keys, one kernel each per round shape:
#
# * a tuple of ``rounds + 1`` blocks, for the full round counts (10, 12, 14):
#   ``len(rk)`` is a compile-time constant, so LLVM keeps exactly the rounds in
#   use and every key in a register (the fast path, ~11 GB/s here);
# * ``(k0, middle, n_middle, k_last)`` with a fixed 13-slot ``middle`` tuple and
#   a runtime count, for the ``rounds`` research option: one compile serves every
#   round count (the unrolled rounds are guarded by the count; several times
#   slower per round, since the padded keys no longer fit the registers: on the
#   development machine 9 rounds ran at a fifth of the 10-round kernel's speed).
#   A described variant's own round count gets the first form
#   (``AES.own_rounds``, :func:`cipherlab.ciphers._aesni.plan`), so its speed
#   against AES compares like with like.
#
# :func:`encrypt4` / :func:`decrypt4` pick the form from the type of ``rk`` at
# compile time (:func:`numba.extending.overload`).

def _encrypt4_fixed(x, rk, mix, nib, pre):
    """Four blocks through all rounds (encryption); ``rk`` holds ``rounds + 1`` keys in use order.

    The middle rounds are written out, one guarded line each: ``len(rk)`` is a
    compile-time constant, so LLVM keeps exactly the rounds in use, unrolled.
    (A loop over ``rk`` whose body is large is not unrolled, and a tuple
    indexed by a loop variable becomes a jump table: 15x slower.)
    """
    n = len(rk)
    k = rk[0]
    x = (_xor(x[0], k), _xor(x[1], k), _xor(x[2], k), _xor(x[3], k))
    if n > 2:
        x = _enc_round4(x, rk[min(1, n - 1)], mix, nib, pre)
    if n > 3:
        x = _enc_round4(x, rk[min(2, n - 1)], mix, nib, pre)
    if n > 4:
        x = _enc_round4(x, rk[min(3, n - 1)], mix, nib, pre)
    if n > 5:
        x = _enc_round4(x, rk[min(4, n - 1)], mix, nib, pre)
    if n > 6:
        x = _enc_round4(x, rk[min(5, n - 1)], mix, nib, pre)
    if n > 7:
        x = _enc_round4(x, rk[min(6, n - 1)], mix, nib, pre)
    if n > 8:
        x = _enc_round4(x, rk[min(7, n - 1)], mix, nib, pre)
    if n > 9:
        x = _enc_round4(x, rk[min(8, n - 1)], mix, nib, pre)
    if n > 10:
        x = _enc_round4(x, rk[min(9, n - 1)], mix, nib, pre)
    if n > 11:
        x = _enc_round4(x, rk[min(10, n - 1)], mix, nib, pre)
    if n > 12:
        x = _enc_round4(x, rk[min(11, n - 1)], mix, nib, pre)
    if n > 13:
        x = _enc_round4(x, rk[min(12, n - 1)], mix, nib, pre)
    if n > 14:
        x = _enc_round4(x, rk[min(13, n - 1)], mix, nib, pre)
    k = rk[n - 1]
    return aesenclast(x[0], k), aesenclast(x[1], k), aesenclast(x[2], k), aesenclast(x[3], k)


def _decrypt4_fixed(x, rk, mix, nib, pre):
    """Four blocks through all rounds (decryption); ``rk`` holds ``rounds + 1`` keys in use order.

    The middle rounds are written out, one guarded line each: ``len(rk)`` is a
    compile-time constant, so LLVM keeps exactly the rounds in use, unrolled.
    (A loop over ``rk`` whose body is large is not unrolled, and a tuple
    indexed by a loop variable becomes a jump table: 15x slower.)
    """
    n = len(rk)
    k = rk[0]
    x = (_xor(x[0], k), _xor(x[1], k), _xor(x[2], k), _xor(x[3], k))
    if n > 2:
        x = _dec_round4(x, rk[min(1, n - 1)], mix, nib, pre)
    if n > 3:
        x = _dec_round4(x, rk[min(2, n - 1)], mix, nib, pre)
    if n > 4:
        x = _dec_round4(x, rk[min(3, n - 1)], mix, nib, pre)
    if n > 5:
        x = _dec_round4(x, rk[min(4, n - 1)], mix, nib, pre)
    if n > 6:
        x = _dec_round4(x, rk[min(5, n - 1)], mix, nib, pre)
    if n > 7:
        x = _dec_round4(x, rk[min(6, n - 1)], mix, nib, pre)
    if n > 8:
        x = _dec_round4(x, rk[min(7, n - 1)], mix, nib, pre)
    if n > 9:
        x = _dec_round4(x, rk[min(8, n - 1)], mix, nib, pre)
    if n > 10:
        x = _dec_round4(x, rk[min(9, n - 1)], mix, nib, pre)
    if n > 11:
        x = _dec_round4(x, rk[min(10, n - 1)], mix, nib, pre)
    if n > 12:
        x = _dec_round4(x, rk[min(11, n - 1)], mix, nib, pre)
    if n > 13:
        x = _dec_round4(x, rk[min(12, n - 1)], mix, nib, pre)
    if n > 14:
        x = _dec_round4(x, rk[min(13, n - 1)], mix, nib, pre)
    k = rk[n - 1]
    return aesdeclast(x[0], k), aesdeclast(x[1], k), aesdeclast(x[2], k), aesdeclast(x[3], k)


def _encrypt4_counted(x, rk, mix, nib, pre):
    """Four blocks through all rounds (encryption); ``rk`` is ``(k0, middle, n_middle, k_last)`` (module docstring).

    The middle rounds are written out, one guarded line each, with constant
    tuple indices, so LLVM unrolls them and keeps the state in registers; the
    round count is a runtime value, so every round count shares one compiled
    kernel per round shape.  (A loop over the keys, or a tuple indexed by a
    variable, becomes a jump table: 15x slower.)
    """
    k0, mid, nmid, klast = rk
    x = (_xor(x[0], k0), _xor(x[1], k0), _xor(x[2], k0), _xor(x[3], k0))
    if nmid > 0:
        x = _enc_round4(x, mid[0], mix, nib, pre)
    if nmid > 1:
        x = _enc_round4(x, mid[1], mix, nib, pre)
    if nmid > 2:
        x = _enc_round4(x, mid[2], mix, nib, pre)
    if nmid > 3:
        x = _enc_round4(x, mid[3], mix, nib, pre)
    if nmid > 4:
        x = _enc_round4(x, mid[4], mix, nib, pre)
    if nmid > 5:
        x = _enc_round4(x, mid[5], mix, nib, pre)
    if nmid > 6:
        x = _enc_round4(x, mid[6], mix, nib, pre)
    if nmid > 7:
        x = _enc_round4(x, mid[7], mix, nib, pre)
    if nmid > 8:
        x = _enc_round4(x, mid[8], mix, nib, pre)
    if nmid > 9:
        x = _enc_round4(x, mid[9], mix, nib, pre)
    if nmid > 10:
        x = _enc_round4(x, mid[10], mix, nib, pre)
    if nmid > 11:
        x = _enc_round4(x, mid[11], mix, nib, pre)
    if nmid > 12:
        x = _enc_round4(x, mid[12], mix, nib, pre)
    return aesenclast(x[0], klast), aesenclast(x[1], klast), aesenclast(x[2], klast), aesenclast(x[3], klast)


def _decrypt4_counted(x, rk, mix, nib, pre):
    """Four blocks through all rounds (decryption); ``rk`` is ``(k0, middle, n_middle, k_last)`` (module docstring).

    The middle rounds are written out, one guarded line each, with constant
    tuple indices, so LLVM unrolls them and keeps the state in registers; the
    round count is a runtime value, so every round count shares one compiled
    kernel per round shape.  (A loop over the keys, or a tuple indexed by a
    variable, becomes a jump table: 15x slower.)
    """
    k0, mid, nmid, klast = rk
    x = (_xor(x[0], k0), _xor(x[1], k0), _xor(x[2], k0), _xor(x[3], k0))
    if nmid > 0:
        x = _dec_round4(x, mid[0], mix, nib, pre)
    if nmid > 1:
        x = _dec_round4(x, mid[1], mix, nib, pre)
    if nmid > 2:
        x = _dec_round4(x, mid[2], mix, nib, pre)
    if nmid > 3:
        x = _dec_round4(x, mid[3], mix, nib, pre)
    if nmid > 4:
        x = _dec_round4(x, mid[4], mix, nib, pre)
    if nmid > 5:
        x = _dec_round4(x, mid[5], mix, nib, pre)
    if nmid > 6:
        x = _dec_round4(x, mid[6], mix, nib, pre)
    if nmid > 7:
        x = _dec_round4(x, mid[7], mix, nib, pre)
    if nmid > 8:
        x = _dec_round4(x, mid[8], mix, nib, pre)
    if nmid > 9:
        x = _dec_round4(x, mid[9], mix, nib, pre)
    if nmid > 10:
        x = _dec_round4(x, mid[10], mix, nib, pre)
    if nmid > 11:
        x = _dec_round4(x, mid[11], mix, nib, pre)
    if nmid > 12:
        x = _dec_round4(x, mid[12], mix, nib, pre)
    return aesdeclast(x[0], klast), aesdeclast(x[1], klast), aesdeclast(x[2], klast), aesdeclast(x[3], klast)


def encrypt4(x, rk, mix, nib, pre):
    """Four blocks through all rounds (encryption); either form of ``rk`` (see above)."""
    raise NotImplementedError("only callable from jitted code")


def decrypt4(x, rk, mix, nib, pre):
    """Four blocks through all rounds (decryption); either form of ``rk`` (see above)."""
    raise NotImplementedError("only callable from jitted code")


@overload(encrypt4)
def _encrypt4_overload(x, rk, mix, nib, pre):
    return _encrypt4_fixed if isinstance(rk, types.UniTuple) else _encrypt4_counted


@overload(decrypt4)
def _decrypt4_overload(x, rk, mix, nib, pre):
    return _decrypt4_fixed if isinstance(rk, types.UniTuple) else _decrypt4_counted


@jit(inline="always")
def cipher4(x, rk, decrypt, mix, nib, pre):
    if decrypt:
        return decrypt4(x, rk, mix, nib, pre)
    return encrypt4(x, rk, mix, nib, pre)


@jit(inline="always")
def cipher1(s, rk, decrypt, mix, nib, pre):
    """One block (the tails of the mode loops): the four-block code with copies."""
    return cipher4((s, s, s, s), rk, decrypt, mix, nib, pre)[0]


# --------------------------------------------------------------------------
# modes: serial kernels over a block range (the caller runs ranges on threads)
# --------------------------------------------------------------------------


@jit
def ecb_range(inp, out, start, stop, decrypt, rk, mix, nib, pre):
    """ECB over blocks ``start .. stop - 1`` (in place allowed)."""
    b = start
    while b + 4 <= stop:
        o = 16 * b
        x0, x1, x2, x3 = load16(inp, o), load16(inp, o + 16), load16(inp, o + 32), load16(inp, o + 48)
        y0, y1, y2, y3 = cipher4((x0, x1, x2, x3), rk, decrypt, mix, nib, pre)
        store16(out, o, y0)
        store16(out, o + 16, y1)
        store16(out, o + 32, y2)
        store16(out, o + 48, y3)
        b += 4
    while b < stop:
        x = load16(inp, 16 * b)
        store16(out, 16 * b, cipher1(x, rk, decrypt, mix, nib, pre))
        b += 1


@jit
def cbc_encrypt(inp, out, iv, rk, mix, nib, pre):
    """CBC encryption (sequential); ``iv`` is a block (in place allowed)."""
    s = iv
    for b in range(inp.shape[0] // 16):
        s = cipher1(_xor(load16(inp, 16 * b), s), rk, False, mix, nib, pre)
        store16(out, 16 * b, s)


@jit
def cbc_decrypt_range(inp, out, iv, start, stop, rk, mix, nib, pre):
    """CBC decryption of blocks ``start .. stop - 1`` (``inp`` and ``out`` distinct)."""
    b = start
    while b + 4 <= stop:
        o = 16 * b
        x0, x1, x2, x3 = load16(inp, o), load16(inp, o + 16), load16(inp, o + 32), load16(inp, o + 48)
        p = iv if b == 0 else load16(inp, o - 16)
        y0, y1, y2, y3 = cipher4((x0, x1, x2, x3), rk, True, mix, nib, pre)
        store16(out, o, _xor(y0, p))
        store16(out, o + 16, _xor(y1, x0))
        store16(out, o + 32, _xor(y2, x1))
        store16(out, o + 48, _xor(y3, x2))
        b += 4
    while b < stop:
        o = 16 * b
        p = iv if b == 0 else load16(inp, o - 16)
        store16(out, o, _xor(cipher1(load16(inp, o), rk, True, mix, nib, pre), p))
        b += 1


@jit(inline="always")
def _counter(hi, lo, b):
    """The block ``(hi, lo) + b`` (128-bit big-endian, wrapping) as little-endian lanes."""
    low = lo + np.uint64(b)  # unsigned throughout: uint64 + int64 would be float64
    high = hi + np.uint64(1) if low < lo else hi
    return (bswap64(high), bswap64(low))


@jit
def ctr_range(inp, out, hi, lo, start, stop, rk, mix, nib, pre):
    """CTR over blocks ``start .. stop - 1``; the last may be partial."""
    n = inp.shape[0]
    b = start
    while b + 4 <= stop and 16 * (b + 4) <= n:
        o = 16 * b
        k0, k1, k2, k3 = cipher4((_counter(hi, lo, b), _counter(hi, lo, b + 1), _counter(hi, lo, b + 2),
                                   _counter(hi, lo, b + 3)), rk, False, mix, nib, pre)
        store16(out, o, _xor(load16(inp, o), k0))
        store16(out, o + 16, _xor(load16(inp, o + 16), k1))
        store16(out, o + 32, _xor(load16(inp, o + 32), k2))
        store16(out, o + 48, _xor(load16(inp, o + 48), k3))
        b += 4
    while b < stop:
        o = 16 * b
        ks = cipher1(_counter(hi, lo, b), rk, False, mix, nib, pre)
        if o + 16 <= n:
            store16(out, o, _xor(load16(inp, o), ks))
        else:
            tail = np.empty(16, dtype=np.uint8)
            store16(tail, 0, ks)
            for i in range(n - o):
                out[o + i] = inp[o + i] ^ tail[i]
        b += 1


# --------------------------------------------------------------------------
# entry points taking the round keys as an array (the fixed form, see :func:`key_blocks`):
# passing one array costs a fraction of a nested tuple of numpy scalars
# --------------------------------------------------------------------------


@jit
def ecb_range_k(inp, out, start, stop, decrypt, keys, marker, mix, nib, pre):
    ecb_range(inp, out, start, stop, decrypt, key_blocks(keys, marker), mix, nib, pre)


@jit
def cbc_encrypt_k(inp, out, iv, keys, marker, mix, nib, pre):
    cbc_encrypt(inp, out, iv, key_blocks(keys, marker), mix, nib, pre)


@jit
def cbc_decrypt_range_k(inp, out, iv, start, stop, keys, marker, mix, nib, pre):
    cbc_decrypt_range(inp, out, iv, start, stop, key_blocks(keys, marker), mix, nib, pre)


@jit
def ctr_range_k(inp, out, iv, start, stop, keys, marker, mix, nib, pre):
    """``ctr_range`` from the initial counter block ``iv`` (``uint8[16]``, big-endian)."""
    hi = np.uint64(0)
    lo = np.uint64(0)
    for i in range(8):
        hi = (hi << np.uint64(8)) | np.uint64(iv[i])
        lo = (lo << np.uint64(8)) | np.uint64(iv[8 + i])
    ctr_range(inp, out, hi, lo, start, stop, key_blocks(keys, marker), mix, nib, pre)
