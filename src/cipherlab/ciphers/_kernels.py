"""Private Numba kernels: one round kernel per implementation style, mode loops.

Nothing here validates input or does I/O; the public wrappers in
:mod:`cipherlab.ciphers.modes` and the cipher modules do that. Every kernel receives
the same *key schedule* arguments, in this order (see
:class:`cipherlab.ciphers._schedule.KernelSchedule`)::

    params        int64[4]        (style, decrypt, mix_kind, rounds)
    tables        uint32[n*4*256] table style: n sets of word tables T0..T3, flattened
    round_tables  int64[rounds]   table style: offset (set * 1024) of each round's set
    rk32          uint32[rounds + 1, 4] table style: round-key words in use order
    rk8           uint8[rounds + 1, 16] reference style: round keys k_0 .. k_R
    sboxes        uint8[4, 256]   reference style: S, S^-1, second, second^-1 (STYLE_GENERAL: more rows)
    ivs           uint8[rounds + 1, 16] reference style: MAES IV of round r in row r

A variant cipher is the same kernel with other tables (``mix_kind``):
0 = MixColumns (AES), 1 = SubBytes with the second S-box (AES-2SBox),
2 = XOR with the round's IV (MAES), 3 = a 4 x 4 matrix over GF(2^8) on each column
(a described variant's ``linear: {matrix: ...}``; the reference style reads the
matrix row-major from ``sboxes[2, :16]`` and its inverse from ``sboxes[3, :16]``). Keeping every argument the same dtype and
layout means each kernel is compiled once for all ciphers and styles.

State layout is FIPS-197's (byte ``r + 4 c`` is row ``r`` of column ``c``); the table style
holds column ``c`` as the big-endian word ``s_c``. Each parallel mode kernel has a serial twin
(``*_serial``) for one thread or short input: a parallel region costs tens of microseconds to start.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from cipherlab.ciphers._numba import jit, pjit

STYLE_REFERENCE = 0
STYLE_TABLE = 1
STYLE_GENERAL = 2   # the reference style of a variant whose S-box or ShiftRows changes by round: _general
MIX_COLUMNS = 0
MIX_SECOND_SBOX = 1
MIX_XOR_IV = 2
MIX_MATRIX = 3

# Blocks per parallel work item: big enough to amortise the per-item state
# buffer, small enough to balance two to a few dozen threads.
CHUNK_BLOCKS = 512

# --------------------------------------------------------------------------
# reference style: byte oriented, one function per FIPS-197 step
# --------------------------------------------------------------------------


@jit
def _xtime(b):
    b = np.int64(b) << 1
    if b & 0x100:
        b ^= 0x11B
    return b


@jit
def _gf_mul(a, b):
    a = np.int64(a)
    b = np.int64(b)
    product = np.int64(0)
    while b:
        if b & 1:
            product ^= a
        a = _xtime(a)
        b >>= 1
    return product


@jit
def sub_bytes(st, sboxes, which):
    """SubBytes with S-box ``sboxes[which]`` (row index, not a view: no refcounting)."""
    for i in range(16):
        st[i] = sboxes[which, st[i]]


@jit
def shift_rows(st):
    # row 1 left by 1
    t = st[1]
    st[1] = st[5]
    st[5] = st[9]
    st[9] = st[13]
    st[13] = t
    # row 2 left by 2
    t = st[2]
    st[2] = st[10]
    st[10] = t
    t = st[6]
    st[6] = st[14]
    st[14] = t
    # row 3 left by 3 (= right by 1)
    t = st[15]
    st[15] = st[11]
    st[11] = st[7]
    st[7] = st[3]
    st[3] = t


@jit
def inv_shift_rows(st):
    t = st[13]
    st[13] = st[9]
    st[9] = st[5]
    st[5] = st[1]
    st[1] = t
    t = st[2]
    st[2] = st[10]
    st[10] = t
    t = st[6]
    st[6] = st[14]
    st[14] = t
    t = st[3]
    st[3] = st[7]
    st[7] = st[11]
    st[11] = st[15]
    st[15] = t


@jit
def mix_columns(st):
    for c in range(4):
        o = 4 * c
        a0 = np.int64(st[o])
        a1 = np.int64(st[o + 1])
        a2 = np.int64(st[o + 2])
        a3 = np.int64(st[o + 3])
        st[o] = _xtime(a0) ^ _xtime(a1) ^ a1 ^ a2 ^ a3
        st[o + 1] = a0 ^ _xtime(a1) ^ _xtime(a2) ^ a2 ^ a3
        st[o + 2] = a0 ^ a1 ^ _xtime(a2) ^ _xtime(a3) ^ a3
        st[o + 3] = _xtime(a0) ^ a0 ^ a1 ^ a2 ^ _xtime(a3)


@jit
def inv_mix_columns(st):
    for c in range(4):
        o = 4 * c
        a0 = st[o]
        a1 = st[o + 1]
        a2 = st[o + 2]
        a3 = st[o + 3]
        st[o] = _gf_mul(a0, 14) ^ _gf_mul(a1, 11) ^ _gf_mul(a2, 13) ^ _gf_mul(a3, 9)
        st[o + 1] = _gf_mul(a0, 9) ^ _gf_mul(a1, 14) ^ _gf_mul(a2, 11) ^ _gf_mul(a3, 13)
        st[o + 2] = _gf_mul(a0, 13) ^ _gf_mul(a1, 9) ^ _gf_mul(a2, 14) ^ _gf_mul(a3, 11)
        st[o + 3] = _gf_mul(a0, 11) ^ _gf_mul(a1, 13) ^ _gf_mul(a2, 9) ^ _gf_mul(a3, 14)


@jit
def mix_matrix(st, sboxes, which):
    """``column <- M column`` for each column, ``M`` row-major in ``sboxes[which, :16]``.

    The coefficient is ``_gf_mul``'s second argument: its loop runs once per bit of
    it, so small coefficients (1, 2, 3) cost one or two steps, as xtime does.
    """
    for c in range(4):
        o = 4 * c
        a0 = st[o]
        a1 = st[o + 1]
        a2 = st[o + 2]
        a3 = st[o + 3]
        for r in range(4):
            st[o + r] = (_gf_mul(a0, sboxes[which, 4 * r]) ^ _gf_mul(a1, sboxes[which, 4 * r + 1])
                         ^ _gf_mul(a2, sboxes[which, 4 * r + 2]) ^ _gf_mul(a3, sboxes[which, 4 * r + 3]))


@jit
def add_round_key(st, keys, r):
    """XOR row ``r`` of ``keys`` (a round key or a MAES IV) into the state."""
    for i in range(16):
        st[i] ^= keys[r, i]


@jit
def _reference_encrypt(st, rounds, mix_kind, rk8, sboxes, ivs):
    """The shared round kernel of the reference style (encryption)."""
    add_round_key(st, rk8, 0)
    for r in range(1, rounds):
        sub_bytes(st, sboxes, 0)
        shift_rows(st)
        if mix_kind == MIX_COLUMNS:
            mix_columns(st)
        elif mix_kind == MIX_SECOND_SBOX:
            sub_bytes(st, sboxes, 2)
        elif mix_kind == MIX_MATRIX:
            mix_matrix(st, sboxes, 2)
        else:
            add_round_key(st, ivs, r)
        add_round_key(st, rk8, r)
    sub_bytes(st, sboxes, 0)
    shift_rows(st)
    add_round_key(st, rk8, rounds)


@jit
def _reference_decrypt(st, rounds, mix_kind, rk8, sboxes, ivs):
    """Inverse cipher in FIPS-197 order (section 5.3): the papers' decryption."""
    add_round_key(st, rk8, rounds)
    for r in range(rounds - 1, 0, -1):
        inv_shift_rows(st)
        sub_bytes(st, sboxes, 1)
        add_round_key(st, rk8, r)
        if mix_kind == MIX_COLUMNS:
            inv_mix_columns(st)
        elif mix_kind == MIX_SECOND_SBOX:
            sub_bytes(st, sboxes, 3)
        elif mix_kind == MIX_MATRIX:
            mix_matrix(st, sboxes, 3)
        else:
            add_round_key(st, ivs, r)
    inv_shift_rows(st)
    sub_bytes(st, sboxes, 1)
    add_round_key(st, rk8, 0)


@jit
def _permute(st, sboxes, row, off):
    """``st[i] <- st[sboxes[row, off + i]]``: a byte permutation of the state in place of ShiftRows."""
    t = (st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9], st[10], st[11], st[12], st[13],
         st[14], st[15])
    for i in range(16):
        st[i] = t[sboxes[row, off + i]]


@jit
def _middle(st, mix_kind, sboxes, ivs, r, inverse):
    """The step between ShiftRows and AddRoundKey of round ``r`` (or its inverse), by ``mix_kind``."""
    if mix_kind == MIX_COLUMNS:
        if inverse:
            inv_mix_columns(st)
        else:
            mix_columns(st)
    elif mix_kind == MIX_SECOND_SBOX:
        sub_bytes(st, sboxes, 3 if inverse else 2)
    elif mix_kind == MIX_MATRIX:
        mix_matrix(st, sboxes, 3 if inverse else 2)
    else:
        add_round_key(st, ivs, r)


@jit
def _general(st, decrypt, rounds, mix_kind, rk8, sboxes, ivs):
    """``STYLE_GENERAL``: round ``r`` has its own S-box (``sboxes`` row ``2 + 2r``, its inverse ``3 + 2r``) and its
    own byte permutation for ShiftRows (row ``2 rounds + 4`` from byte ``16 r``, the inverse in the next row)."""
    p = 2 * rounds + 4
    if decrypt:
        for r in range(rounds, 0, -1):
            add_round_key(st, rk8, r)
            if r < rounds:
                _middle(st, mix_kind, sboxes, ivs, r, True)
            _permute(st, sboxes, p + 1, 16 * r)
            sub_bytes(st, sboxes, 3 + 2 * r)
        add_round_key(st, rk8, 0)
        return
    add_round_key(st, rk8, 0)
    for r in range(1, rounds + 1):
        sub_bytes(st, sboxes, 2 + 2 * r)
        _permute(st, sboxes, p, 16 * r)
        if r < rounds:
            _middle(st, mix_kind, sboxes, ivs, r, False)
        add_round_key(st, rk8, r)


# --------------------------------------------------------------------------
# table style: 4 word lookups + XOR per column and round
# --------------------------------------------------------------------------


# Unsigned arithmetic throughout: Numba then skips the negative-index
# wraparound check on every table lookup, which nearly doubles throughput.
_U = np.uint64
_U8 = np.uint64(8)
_U16 = np.uint64(16)
_U24 = np.uint64(24)
_M8 = np.uint64(0xFF)
_T1 = np.uint64(256)
_T2 = np.uint64(512)
_T3 = np.uint64(768)
_U32 = np.uint64(32)
_M32 = np.uint64(0xFFFFFFFF)


@jit(inline="always")
def _table_core(s0, s1, s2, s3, decrypt, tables, round_tables, rk32):
    """The rounds of the table style on the four column words (``k_0`` already added)."""
    for r in range(round_tables.shape[0]):
        t0 = _U(round_tables[r])
        t1 = t0 + _T1
        t2 = t0 + _T2
        t3 = t0 + _T3
        if decrypt:
            u0 = _U(rk32[r + 1, 0]) ^ _U(tables[t0 + (s0 >> _U24)]) ^ _U(tables[t1 + ((s3 >> _U16) & _M8)]) ^ _U(tables[t2 + ((s2 >> _U8) & _M8)]) ^ _U(tables[t3 + (s1 & _M8)])
            u1 = _U(rk32[r + 1, 1]) ^ _U(tables[t0 + (s1 >> _U24)]) ^ _U(tables[t1 + ((s0 >> _U16) & _M8)]) ^ _U(tables[t2 + ((s3 >> _U8) & _M8)]) ^ _U(tables[t3 + (s2 & _M8)])
            u2 = _U(rk32[r + 1, 2]) ^ _U(tables[t0 + (s2 >> _U24)]) ^ _U(tables[t1 + ((s1 >> _U16) & _M8)]) ^ _U(tables[t2 + ((s0 >> _U8) & _M8)]) ^ _U(tables[t3 + (s3 & _M8)])
            u3 = _U(rk32[r + 1, 3]) ^ _U(tables[t0 + (s3 >> _U24)]) ^ _U(tables[t1 + ((s2 >> _U16) & _M8)]) ^ _U(tables[t2 + ((s1 >> _U8) & _M8)]) ^ _U(tables[t3 + (s0 & _M8)])
        else:
            u0 = _U(rk32[r + 1, 0]) ^ _U(tables[t0 + (s0 >> _U24)]) ^ _U(tables[t1 + ((s1 >> _U16) & _M8)]) ^ _U(tables[t2 + ((s2 >> _U8) & _M8)]) ^ _U(tables[t3 + (s3 & _M8)])
            u1 = _U(rk32[r + 1, 1]) ^ _U(tables[t0 + (s1 >> _U24)]) ^ _U(tables[t1 + ((s2 >> _U16) & _M8)]) ^ _U(tables[t2 + ((s3 >> _U8) & _M8)]) ^ _U(tables[t3 + (s0 & _M8)])
            u2 = _U(rk32[r + 1, 2]) ^ _U(tables[t0 + (s2 >> _U24)]) ^ _U(tables[t1 + ((s3 >> _U16) & _M8)]) ^ _U(tables[t2 + ((s0 >> _U8) & _M8)]) ^ _U(tables[t3 + (s1 & _M8)])
            u3 = _U(rk32[r + 1, 3]) ^ _U(tables[t0 + (s3 >> _U24)]) ^ _U(tables[t1 + ((s0 >> _U16) & _M8)]) ^ _U(tables[t2 + ((s1 >> _U8) & _M8)]) ^ _U(tables[t3 + (s2 & _M8)])
        s0 = u0
        s1 = u1
        s2 = u2
        s3 = u3
    return s0, s1, s2, s3


@jit
def _table_rounds(inp, ip, out, op, decrypt, tables, round_tables, rk32):
    """The shared round kernel of the table style.

    Reads 16 bytes at ``inp[ip:]`` and writes 16 bytes at ``out[op:]``.
    ``tables`` is ``uint32[n * 4 * 256]`` (n sets of T0..T3, flattened) and
    ``round_tables[r]`` the offset of round ``r + 1``'s set. Each round is
    ``u_c = T0[..] ^ T1[..] ^ T2[..] ^ T3[..] ^ rk`` with the bytes picked along
    ShiftRows (encryption) or InvShiftRows (decryption); the tables decide
    what the round does (MixColumns folded in, a fused S-box, or a plain
    S-box in the final round).
    """
    # unsigned offsets: no wraparound check on the 32 byte loads and stores
    i0 = _U(ip)
    o0 = _U(op)
    s0 = ((_U(inp[i0 + _U(0)]) << _U24) | (_U(inp[i0 + _U(1)]) << _U16) | (_U(inp[i0 + _U(2)]) << _U8) | _U(inp[i0 + _U(3)])) ^ _U(rk32[0, 0])
    s1 = ((_U(inp[i0 + _U(4)]) << _U24) | (_U(inp[i0 + _U(5)]) << _U16) | (_U(inp[i0 + _U(6)]) << _U8) | _U(inp[i0 + _U(7)])) ^ _U(rk32[0, 1])
    s2 = ((_U(inp[i0 + _U(8)]) << _U24) | (_U(inp[i0 + _U(9)]) << _U16) | (_U(inp[i0 + _U(10)]) << _U8) | _U(inp[i0 + _U(11)])) ^ _U(rk32[0, 2])
    s3 = ((_U(inp[i0 + _U(12)]) << _U24) | (_U(inp[i0 + _U(13)]) << _U16) | (_U(inp[i0 + _U(14)]) << _U8) | _U(inp[i0 + _U(15)])) ^ _U(rk32[0, 3])
    s0, s1, s2, s3 = _table_core(s0, s1, s2, s3, decrypt, tables, round_tables, rk32)
    _store_words(out, o0, s0, s1, s2, s3)


# --------------------------------------------------------------------------
# one block, either style
# --------------------------------------------------------------------------


@jit
def _block(inp, ip, out, op, st, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """Encrypt or decrypt the block at ``inp[ip:]`` into ``out[op:]``.

    ``st`` is a 16-byte scratch buffer (the reference style works in place).
    """
    if params[0] == STYLE_TABLE:
        _table_rounds(inp, ip, out, op, params[1], tables, round_tables, rk32)
    else:
        for i in range(16):
            st[i] = inp[ip + i]
        if params[0] == STYLE_GENERAL:
            _general(st, params[1], params[3], params[2], rk8, sboxes, ivs)
        elif params[1]:
            _reference_decrypt(st, params[3], params[2], rk8, sboxes, ivs)
        else:
            _reference_encrypt(st, params[3], params[2], rk8, sboxes, ivs)
        for i in range(16):
            out[op + i] = st[i]


# --------------------------------------------------------------------------
# modes
# --------------------------------------------------------------------------


@jit
def _ecb_blocks(inp, out, start, stop, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """ECB over blocks ``start .. stop - 1``: the work of :func:`ecb` (one chunk) and :func:`ecb_serial`."""
    if params[0] == STYLE_TABLE:
        # style branch hoisted out of the block loop: the hot path
        decrypt = params[1]
        for b in range(start, stop):
            _table_rounds(inp, 16 * b, out, 16 * b, decrypt, tables, round_tables, rk32)
    else:
        st = np.empty(16, dtype=np.uint8)
        for b in range(start, stop):
            _block(inp, 16 * b, out, 16 * b, st, params, tables, round_tables, rk32, rk8, sboxes, ivs)


@pjit
def ecb(inp, out, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """ECB over whole blocks, parallel over chunks of blocks."""
    n_blocks = inp.shape[0] // 16
    for c in prange((n_blocks + CHUNK_BLOCKS - 1) // CHUNK_BLOCKS):
        _ecb_blocks(inp, out, c * CHUNK_BLOCKS, min(n_blocks, (c + 1) * CHUNK_BLOCKS),
                    params, tables, round_tables, rk32, rk8, sboxes, ivs)


@jit
def ecb_serial(inp, out, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """ECB without threads: single blocks (``encrypt_block``), short inputs, one thread. The serial
    kernels exist because starting a parallel region costs tens of microseconds."""
    _ecb_blocks(inp, out, 0, inp.shape[0] // 16, params, tables, round_tables, rk32, rk8, sboxes, ivs)


@jit
def cbc_encrypt(inp, out, iv, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """CBC encryption: inherently sequential."""
    st = np.empty(16, dtype=np.uint8)
    x = np.empty(16, dtype=np.uint8)
    for b in range(inp.shape[0] // 16):
        o = 16 * b
        if b == 0:
            for i in range(16):
                x[i] = inp[i] ^ iv[i]
        else:
            for i in range(16):
                x[i] = inp[o + i] ^ out[o - 16 + i]
        if params[0] == STYLE_TABLE:
            _table_rounds(x, 0, out, o, 0, tables, round_tables, rk32)
        else:
            _block(x, 0, out, o, st, params, tables, round_tables, rk32, rk8, sboxes, ivs)


@jit
def _cbc_decrypt_blocks(inp, out, iv, start, stop, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """CBC decryption of blocks ``start .. stop - 1`` (``inp`` and ``out`` distinct)."""
    st = np.empty(16, dtype=np.uint8)
    for b in range(start, stop):
        o = 16 * b
        if params[0] == STYLE_TABLE:
            _table_rounds(inp, o, out, o, 1, tables, round_tables, rk32)
        else:
            _block(inp, o, out, o, st, params, tables, round_tables, rk32, rk8, sboxes, ivs)
        if b == 0:
            for i in range(16):
                out[i] ^= iv[i]
        else:
            for i in range(16):
                out[o + i] ^= inp[o - 16 + i]


@pjit
def cbc_decrypt(inp, out, iv, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """CBC decryption, parallel: P_i = D(C_i) ^ C_(i-1)."""
    n_blocks = inp.shape[0] // 16
    for c in prange((n_blocks + CHUNK_BLOCKS - 1) // CHUNK_BLOCKS):
        _cbc_decrypt_blocks(inp, out, iv, c * CHUNK_BLOCKS, min(n_blocks, (c + 1) * CHUNK_BLOCKS),
                            params, tables, round_tables, rk32, rk8, sboxes, ivs)


@jit
def cbc_decrypt_serial(inp, out, iv, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """:func:`cbc_decrypt` without threads (short inputs, one thread)."""
    _cbc_decrypt_blocks(inp, out, iv, 0, inp.shape[0] // 16, params, tables, round_tables, rk32, rk8, sboxes, ivs)


@jit
def _store_words(dst, o, s0, s1, s2, s3):
    """The four column words, big-endian, to ``dst[o:o + 16]`` (``o`` unsigned)."""
    dst[o] = s0 >> _U24
    dst[o + _U(1)] = (s0 >> _U16) & _M8
    dst[o + _U(2)] = (s0 >> _U8) & _M8
    dst[o + _U(3)] = s0 & _M8
    dst[o + _U(4)] = s1 >> _U24
    dst[o + _U(5)] = (s1 >> _U16) & _M8
    dst[o + _U(6)] = (s1 >> _U8) & _M8
    dst[o + _U(7)] = s1 & _M8
    dst[o + _U(8)] = s2 >> _U24
    dst[o + _U(9)] = (s2 >> _U16) & _M8
    dst[o + _U(10)] = (s2 >> _U8) & _M8
    dst[o + _U(11)] = s2 & _M8
    dst[o + _U(12)] = s3 >> _U24
    dst[o + _U(13)] = (s3 >> _U16) & _M8
    dst[o + _U(14)] = (s3 >> _U8) & _M8
    dst[o + _U(15)] = s3 & _M8


@jit
def _put_counter(dst, o, hi, lo):
    """Write the 128-bit big-endian counter ``(hi, lo)`` to ``dst[o:o + 16]``."""
    u = _U(o)
    for i in range(8):
        sh = _U(56 - 8 * i)
        dst[u + _U(i)] = (hi >> sh) & _M8
        dst[u + _U(8 + i)] = (lo >> sh) & _M8


@jit
def _ctr_blocks(inp, out, counter, start, stop, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """CTR over blocks ``start .. stop - 1`` from the initial counter block; the last block may be
    partial. The counter is two unsigned 64-bit halves, stepped once per block (no per-block
    128-bit addition); the table style takes its four words straight into the rounds, without
    writing the counter block out as bytes."""
    n = inp.shape[0]
    hi0 = _U(0)
    lo0 = _U(0)
    for i in range(8):
        hi0 = (hi0 << _U8) | _U(counter[i])
        lo0 = (lo0 << _U8) | _U(counter[8 + i])
    st = np.empty(16, dtype=np.uint8)
    ks = np.empty(16, dtype=np.uint8)
    lo = lo0 + _U(start)  # unsigned: uint64 + int64 would be float64
    hi = hi0 + _U(1) if lo < lo0 else hi0
    for b in range(start, stop):
        o = 16 * b
        full = o + 16 <= n
        if params[0] == STYLE_TABLE:
            k0, k1, k2, k3 = _table_core((hi >> _U32) ^ _U(rk32[0, 0]), (hi & _M32) ^ _U(rk32[0, 1]),
                                         (lo >> _U32) ^ _U(rk32[0, 2]), (lo & _M32) ^ _U(rk32[0, 3]),
                                         0, tables, round_tables, rk32)
            _store_words(ks, _U(0), k0, k1, k2, k3)
        else:
            _put_counter(ks, 0, hi, lo)
            _block(ks, 0, ks, 0, st, params, tables, round_tables, rk32, rk8, sboxes, ivs)
        if full:
            uo = _U(o)
            for i in range(16):
                out[uo + _U(i)] = inp[uo + _U(i)] ^ ks[i]
        else:
            for i in range(n - o):
                out[o + i] = inp[o + i] ^ ks[i]
        lo += _U(1)
        if lo == _U(0):
            hi += _U(1)


@pjit
def ctr(inp, out, counter, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """CTR: keystream block ``E(counter + b)`` XOR data; any length, parallel over chunks of blocks."""
    n_blocks = (inp.shape[0] + 15) // 16
    for c in prange((n_blocks + CHUNK_BLOCKS - 1) // CHUNK_BLOCKS):
        _ctr_blocks(inp, out, counter, c * CHUNK_BLOCKS, min(n_blocks, (c + 1) * CHUNK_BLOCKS),
                    params, tables, round_tables, rk32, rk8, sboxes, ivs)


@jit
def ctr_serial(inp, out, counter, params, tables, round_tables, rk32, rk8, sboxes, ivs):
    """:func:`ctr` without threads (short inputs, one thread)."""
    _ctr_blocks(inp, out, counter, 0, (inp.shape[0] + 15) // 16, params, tables, round_tables, rk32, rk8, sboxes, ivs)


# --------------------------------------------------------------------------
# single steps, for timing a stage on its own (MAES Table II)
# --------------------------------------------------------------------------

STEP_MIX_COLUMNS = 0
STEP_INV_MIX_COLUMNS = 1
STEP_XOR_IV = 2
STEP_SUBSTITUTE = 3


@jit
def _xtime_word(x):
    # xtime on the four bytes of a 32-bit word at once
    return ((x & 0x7F7F7F7F) << 1) ^ (((x >> 7) & 0x01010101) * 0x1B)


@jit
def _rotl_word(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF


@jit
def _mix_column_word(w):
    r1 = _rotl_word(w, 8)
    return _xtime_word(w ^ r1) ^ r1 ^ _rotl_word(w, 16) ^ _rotl_word(w, 24)


@jit
def steps(blocks, out, step, style, iv, table):
    """Apply one round step to every 16-byte row of ``blocks`` (serial).

    ``style`` 0 = reference (the byte functions the reference cipher uses),
    1 = table/word form (32-bit word-sliced xtime, 32-bit XOR, byte lookups).
    """
    n = blocks.shape[0]
    for b in range(n):
        for i in range(16):
            out[b, i] = blocks[b, i]
        st = out[b]
        if style == STYLE_REFERENCE:
            if step == STEP_MIX_COLUMNS:
                mix_columns(st)
            elif step == STEP_INV_MIX_COLUMNS:
                inv_mix_columns(st)
            elif step == STEP_XOR_IV:
                for i in range(16):
                    st[i] ^= iv[i]
            else:
                for i in range(16):
                    st[i] = table[st[i]]
        else:
            if step == STEP_SUBSTITUTE:
                for i in range(16):
                    st[i] = table[st[i]]
                continue
            for c in range(4):
                o = 4 * c
                w = (np.int64(st[o]) << 24) | (np.int64(st[o + 1]) << 16) | (np.int64(st[o + 2]) << 8) | np.int64(st[o + 3])
                if step == STEP_MIX_COLUMNS:
                    w = _mix_column_word(w)
                elif step == STEP_INV_MIX_COLUMNS:
                    # InvMixColumns = MixColumns after a cheap pre-step
                    # (a_i ^= 4 * (a_i ^ a_(i+2))), as in optimised software AES.
                    w = _mix_column_word(w ^ _xtime_word(_xtime_word(w ^ _rotl_word(w, 16))))
                else:
                    w ^= (np.int64(iv[o]) << 24) | (np.int64(iv[o + 1]) << 16) | (np.int64(iv[o + 2]) << 8) | np.int64(iv[o + 3])
                st[o] = w >> 24
                st[o + 1] = (w >> 16) & 0xFF
                st[o + 2] = (w >> 8) & 0xFF
                st[o + 3] = w & 0xFF
