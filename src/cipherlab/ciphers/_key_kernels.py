"""FIPS-197 KeyExpansion, compiled: the round keys every style's schedule is made from.

Apart from the round kernels (:mod:`cipherlab.ciphers._kernels`): a cipher object is made in
microseconds because its key expansion runs here, written into an array the caller allocates
(``expand_key_words``, ``expand_key_blocks``, ``expand_key_into``); the MAES key-expansion IVs are made
from it too.
"""
from __future__ import annotations

import numpy as np

from cipherlab.ciphers._numba import jit


# --------------------------------------------------------------------------
# key expansion (FIPS-197 KeyExpansion), compiled: a cipher object is made in microseconds
# --------------------------------------------------------------------------


@jit
def expand_key_words(key, n_words, sbox):
    """FIPS-197 KeyExpansion's words ``w[0 .. n_words - 1]`` (``uint32``, big-endian word values).

    ``key`` is ``uint8[4 * nk]``; ``n_words`` may run past the schedule (Rcon continued in GF(2^8),
    the MAES ``keyexp`` IV source).
    """
    nk = key.shape[0] // 4
    w = np.empty(n_words, dtype=np.uint32)
    for i in range(min(nk, n_words)):
        w[i] = (np.uint32(key[4 * i]) << 24) | (np.uint32(key[4 * i + 1]) << 16) \
            | (np.uint32(key[4 * i + 2]) << 8) | np.uint32(key[4 * i + 3])
    rcon = np.uint32(1)
    for i in range(nk, n_words):
        t = w[i - 1]
        if i % nk == 0:
            t = ((t << np.uint32(8)) | (t >> np.uint32(24))) & np.uint32(0xFFFFFFFF)  # RotWord (Numba widens)
            t = (np.uint32(sbox[t >> 24]) << 24) | (np.uint32(sbox[(t >> 16) & 0xFF]) << 16) \
                | (np.uint32(sbox[(t >> 8) & 0xFF]) << 8) | np.uint32(sbox[t & 0xFF])
            t ^= rcon << np.uint32(24)
            rcon = (rcon << np.uint32(1)) & np.uint32(0x1FF)
            if rcon & np.uint32(0x100):
                rcon ^= np.uint32(0x11B)
        elif nk > 6 and i % nk == 4:
            t = (np.uint32(sbox[t >> 24]) << 24) | (np.uint32(sbox[(t >> 16) & 0xFF]) << 16) \
                | (np.uint32(sbox[(t >> 8) & 0xFF]) << 8) | np.uint32(sbox[t & 0xFF])
        w[i] = w[i - nk] ^ t
    return w


@jit
def expand_key_blocks(key, n_words, sbox):
    """:func:`expand_key_words` as ``uint8[n_words / 4, 16]`` (each word big-endian): the round keys."""
    out = np.empty((n_words // 4, 16), dtype=np.uint8)
    expand_key_into(key, out, sbox)
    return out


@jit
def expand_key_into(key, out, sbox):
    """:func:`expand_key_blocks` written into ``out`` (``uint8[n, 16]``, the first ``n`` round keys).

    The caller allocates ``out``: a new array returned from compiled code costs more to hand to
    Python than the whole AES-128 key expansion (``cipherlab.new`` calls this once per object)."""
    n_words = 4 * out.shape[0]
    w = expand_key_words(key, n_words, sbox)
    for i in range(n_words):
        x = w[i]
        out[i // 4, 4 * (i % 4)] = x >> 24
        out[i // 4, 4 * (i % 4) + 1] = (x >> 16) & 0xFF
        out[i // 4, 4 * (i % 4) + 2] = (x >> 8) & 0xFF
        out[i // 4, 4 * (i % 4) + 3] = x & 0xFF
