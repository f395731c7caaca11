"""Key schedules in kernel form: what the shared kernels take, built from a cipher's round keys.

A cipher module (:mod:`cipherlab.ciphers.aes`, :mod:`cipherlab.ciphers.aes_2sbox`,
:mod:`cipherlab.ciphers.maes`) only says what differs: its round keys, its middle step
(``mix_kind``), its second S-box or IVs. :func:`build_schedule` turns that into
the arrays the shared kernels in :mod:`cipherlab.ciphers._kernels` take, for either
implementation style and direction.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from cipherlab.ciphers import _kernels as K
from cipherlab.ciphers.sboxes import gf_mul, rijndael_inverse_sbox, rijndael_sbox

__all__ = ["KernelSchedule", "build_schedule", "word_tables"]

IMPL_STYLES = {"reference": K.STYLE_REFERENCE, "table": K.STYLE_TABLE}


class KernelSchedule(NamedTuple):
    """Everything a kernel needs for one key, style and direction (see ``_kernels``)."""

    params: np.ndarray
    tables: np.ndarray
    round_tables: np.ndarray
    rk32: np.ndarray
    rk8: np.ndarray
    sboxes: np.ndarray
    ivs: np.ndarray


def _words(block16: np.ndarray) -> np.ndarray:
    b = block16.astype(np.uint32)
    return (b[0::4] << 24) | (b[1::4] << 16) | (b[2::4] << 8) | b[3::4]


@lru_cache(maxsize=64)
def _word_tables_cached(sub: bytes, column: tuple[int, int, int, int]) -> np.ndarray:
    t0 = np.zeros(256, dtype=np.uint32)
    for x in range(256):
        s = sub[x]
        t0[x] = ((gf_mul(column[0], s) << 24) | (gf_mul(column[1], s) << 16)
                 | (gf_mul(column[2], s) << 8) | gf_mul(column[3], s))
    out = np.empty((4, 256), dtype=np.uint32)
    for k in range(4):
        # T_k is T_0 rotated right by 8k bits: the same column, the row moved down
        out[k] = (t0 >> np.uint32(8 * k)) | (t0 << np.uint32((32 - 8 * k) % 32)) if k else t0
    out.setflags(write=False)
    return out


def word_tables(sub: np.ndarray, column=(1, 0, 0, 0)) -> np.ndarray:
    """Four ``uint32[256]`` lookup tables for one round kind.

    ``T_0[x]`` is the column ``(c_0 s, c_1 s, c_2 s, c_3 s)`` with ``s = sub[x]``
    (GF(2^8) products), big-endian; ``T_k`` is ``T_0`` rotated right by ``8k``
    bits. ``column=(2, 1, 1, 3)`` with the S-box gives the AES encryption
    T-tables, ``(14, 9, 13, 11)`` with the inverse S-box the decryption ones,
    ``(1, 0, 0, 0)`` a plain substitution placed in the right byte (final rounds
    and the byte-wise variants).
    """
    return _word_tables_cached(bytes(np.asarray(sub, dtype=np.uint8)), tuple(int(c) for c in column))


def _compose(outer: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """``x -> outer[inner[x]]``: two byte-wise substitutions fused into one table."""
    return np.asarray(outer, dtype=np.uint8)[np.asarray(inner, dtype=np.uint8)]


def _inv_mix_columns_key(k: np.ndarray) -> np.ndarray:
    out = np.empty(16, dtype=np.uint8)
    for c in range(4):
        a = [int(v) for v in k[4 * c:4 * c + 4]]
        for r, row in enumerate(((14, 11, 13, 9), (9, 14, 11, 13), (13, 9, 14, 11), (11, 13, 9, 14))):
            out[4 * c + r] = gf_mul(row[0], a[0]) ^ gf_mul(row[1], a[1]) ^ gf_mul(row[2], a[2]) ^ gf_mul(row[3], a[3])
    return out


def build_schedule(round_keys: np.ndarray, mix_kind: int, impl: str, decrypt: bool,
                   second: tuple[np.ndarray, np.ndarray] | None = None,
                   ivs: np.ndarray | None = None,
                   sbox: tuple[np.ndarray, np.ndarray] | None = None) -> KernelSchedule:
    """Kernel arrays for one key.

    Parameters
    ----------
    round_keys : uint8[rounds + 1, 16]
        ``k_0 .. k_R`` (already cut to the number of rounds in use).
    mix_kind : int
        ``_kernels.MIX_COLUMNS``, ``MIX_SECOND_SBOX`` or ``MIX_XOR_IV``.
    impl : {"reference", "table"}
    decrypt : bool
    second : (sbox, inverse), optional
        The second S-box (``MIX_SECOND_SBOX``).
    ivs : uint8[rounds + 1, 16], optional
        Row ``r`` is XORed after ShiftRows in round ``r`` (``MIX_XOR_IV``).
    sbox : (sbox, inverse), optional
        The main S-box of SubBytes (default: Rijndael's), for both styles: a
        described variant's (:mod:`cipherlab.ciphers.described`). Any byte
        permutation works: the decryption plan below only uses that SubBytes
        is byte-wise and InvMixColumns linear. The key schedule keeps the
        Rijndael S-box (the round keys arrive already expanded).
    """
    rounds = round_keys.shape[0] - 1
    sbox, inv_sbox = sbox if sbox is not None else (rijndael_sbox(), rijndael_inverse_sbox())
    identity = np.arange(256, dtype=np.uint8)
    second_fwd, second_inv = second if second is not None else (identity, identity)
    if ivs is None:
        ivs = np.zeros((rounds + 1, 16), dtype=np.uint8)
    rk8 = np.ascontiguousarray(round_keys, dtype=np.uint8)
    params = np.array([IMPL_STYLES[impl], int(decrypt), mix_kind, rounds], dtype=np.int64)
    sboxes = np.ascontiguousarray(np.stack([sbox, inv_sbox, second_fwd, second_inv]), dtype=np.uint8)

    # Table-style plan: which word tables each round uses and the round keys in
    # the order the rounds consume them (see the derivation in each branch).
    final = np.zeros(rounds, dtype=np.int64)
    if not decrypt:
        if mix_kind == K.MIX_COLUMNS:
            mid = word_tables(sbox, (2, 1, 1, 3))
        elif mix_kind == K.MIX_SECOND_SBOX:
            # SubBytes, ShiftRows, SubBytes(second) == ShiftRows then one fused substitution
            mid = word_tables(_compose(second_fwd, sbox))
        else:
            mid = word_tables(sbox)
        tables = np.stack([mid, word_tables(sbox)])
        round_tables = final.copy()
        round_tables[-1] = 1
        keys = rk8.copy()
        if mix_kind == K.MIX_XOR_IV:
            # the IV XOR and AddRoundKey commute: fold the IV into the round key
            keys[1:rounds] ^= ivs[1:rounds]
    else:
        if mix_kind == K.MIX_COLUMNS:
            # FIPS-197 equivalent inverse cipher: InvMixColumns moved onto the keys
            tables = np.stack([word_tables(inv_sbox, (14, 9, 13, 11)), word_tables(inv_sbox)])
            round_tables = final.copy()
            round_tables[-1] = 1
            keys = np.stack([rk8[rounds]] + [_inv_mix_columns_key(rk8[r]) for r in range(rounds - 1, 0, -1)] + [rk8[0]])
        elif mix_kind == K.MIX_SECOND_SBOX:
            # The second S-box is not linear, so it cannot cross the key: the
            # first inverse round is InvShiftRows+InvSubBytes alone, every later
            # one undoes (second S-box then S-box) as one fused lookup.
            tables = np.stack([word_tables(inv_sbox), word_tables(_compose(inv_sbox, second_inv))])
            round_tables = np.ones(rounds, dtype=np.int64)
            round_tables[0] = 0
            keys = rk8[::-1].copy()
        else:
            tables = np.stack([word_tables(inv_sbox)])
            round_tables = final.copy()
            keys = rk8[::-1].copy()
            keys[1:rounds] ^= ivs[rounds - 1:0:-1]
    rk32 = np.ascontiguousarray(np.stack([_words(k) for k in keys]), dtype=np.uint32)
    # flattened tables and per-round offsets keep the kernel's index math unsigned
    return KernelSchedule(params, np.ascontiguousarray(tables, dtype=np.uint32).reshape(-1),
                          np.ascontiguousarray(round_tables * 1024, dtype=np.int64), rk32, rk8, sboxes,
                          np.ascontiguousarray(ivs, dtype=np.uint8))
