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

__all__ = ["KernelSchedule", "build_schedule", "encryption_schedule", "kernel_round_keys", "word_tables"]

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


def _inv_mix_columns_keys(keys: np.ndarray) -> np.ndarray:
    """InvMixColumns on each row of ``uint8[n, 16]`` (compiled: the word form of ``_kernels.steps``)."""
    out = np.empty_like(keys)
    K.steps(keys, out, K.STEP_INV_MIX_COLUMNS, K.STYLE_TABLE, _NO_IV, _IDENTITY)
    return out


_NO_IV = np.zeros(16, dtype=np.uint8)
# dtype objects: a dtype given by name is parsed on every call (a cipher object is made in microseconds)
_BE32 = np.dtype(">u4")
_U32 = np.dtype(np.uint32)
_U8 = np.dtype(np.uint8)
_IDENTITY = np.arange(256, dtype=np.uint8)
_SBOX = rijndael_sbox()
_SBOX.setflags(write=False)
_INV_SBOX = rijndael_inverse_sbox()
_INV_SBOX.setflags(write=False)


def kernel_round_keys(round_keys: np.ndarray, mix_kind: int, decrypt: bool,
                      ivs: np.ndarray | None = None) -> np.ndarray:
    """The round keys in the order the rounds consume them, ``uint8[rounds + 1, 16]`` (a new array).

    Encryption: ``k_0 .. k_R``, with a MAES IV folded into its round key (the IV XOR and
    AddRoundKey commute). Decryption: reversed; for AES FIPS-197's equivalent inverse cipher
    (InvMixColumns moved onto the middle keys); for MAES the IVs folded in; for a second S-box
    plain (it is not linear, so it cannot cross the key). Both the table and the hardware
    style run these keys.
    """
    rounds = round_keys.shape[0] - 1
    rk8 = np.asarray(round_keys, dtype=np.uint8)
    if not decrypt:
        keys = rk8.copy()
        if mix_kind == K.MIX_XOR_IV and ivs is not None:
            keys[1:rounds] ^= ivs[1:rounds]
        return keys
    keys = rk8[::-1].copy()
    if mix_kind == K.MIX_COLUMNS:
        if rounds > 1:
            keys[1:rounds] = _inv_mix_columns_keys(np.ascontiguousarray(keys[1:rounds]))
    elif mix_kind == K.MIX_XOR_IV and ivs is not None:
        keys[1:rounds] ^= ivs[rounds - 1:0:-1]
    return keys


def _map_bytes(pair) -> "tuple[bytes, bytes] | None":
    return None if pair is None else (np.asarray(pair[0], dtype=np.uint8).tobytes(),
                                      np.asarray(pair[1], dtype=np.uint8).tobytes())


@lru_cache(maxsize=512)
def _static_parts(mix_kind: int, impl: str, decrypt: bool, rounds: int, sbox: "tuple[bytes, bytes] | None",
                  second: "tuple[bytes, bytes] | None") -> tuple:
    """``(params, tables, round_tables, sboxes, no_ivs, no_words)``: everything of a schedule that
    depends on the cipher and its options, not on the key; computed once per process and shared by
    every object (the kernels never write them). ``no_ivs`` is the zero IVs of a cipher without
    IVs; ``no_words`` the reference style's ``rk32`` (zeros: that style reads ``rk8`` only)."""
    if sbox is None:
        sbox, inv_sbox = _SBOX, _INV_SBOX
    else:
        sbox, inv_sbox = (np.frombuffer(b, dtype=np.uint8) for b in sbox)
    identity = _IDENTITY
    second_fwd, second_inv = (identity, identity) if second is None else (np.frombuffer(b, dtype=np.uint8)
                                                                          for b in second)
    params = np.array([IMPL_STYLES[impl], int(decrypt), mix_kind, rounds], dtype=np.int64)
    sboxes = np.ascontiguousarray(np.stack([sbox, inv_sbox, second_fwd, second_inv]), dtype=np.uint8)
    # Table-style plan: which word tables each round uses (the keys' order: kernel_round_keys).
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
    elif mix_kind == K.MIX_COLUMNS:
        # FIPS-197 equivalent inverse cipher: InvMixColumns moved onto the keys
        tables = np.stack([word_tables(inv_sbox, (14, 9, 13, 11)), word_tables(inv_sbox)])
        round_tables = final.copy()
        round_tables[-1] = 1
    elif mix_kind == K.MIX_SECOND_SBOX:
        # The first inverse round is InvShiftRows+InvSubBytes alone, every later one undoes
        # (second S-box then S-box) as one fused lookup.
        tables = np.stack([word_tables(inv_sbox), word_tables(_compose(inv_sbox, second_inv))])
        round_tables = np.ones(rounds, dtype=np.int64)
        round_tables[0] = 0
    else:
        tables = np.stack([word_tables(inv_sbox)])
        round_tables = final.copy()
    # flattened tables and per-round offsets keep the kernel's index math unsigned
    return (params, np.ascontiguousarray(tables, dtype=np.uint32).reshape(-1),
            np.ascontiguousarray(round_tables * 1024, dtype=np.int64), sboxes, _zero_ivs(rounds),
            np.zeros((rounds + 1, 4), dtype=np.uint32) if impl == "reference" else None)


@lru_cache(maxsize=16)
def _zero_ivs(rounds: int) -> np.ndarray:
    """No IVs (every cipher but MAES): one shared zero array per round count (the kernels only read it)."""
    return np.zeros((rounds + 1, 16), dtype=np.uint8)


def encryption_schedule(round_keys: np.ndarray, mix_kind: int, impl: str) -> KernelSchedule:
    """``build_schedule(round_keys, mix_kind, impl, False)`` for the common case, made in a few hundred
    nanoseconds (one per :func:`cipherlab.new`): contiguous ``uint8`` keys, no IVs, no S-box of the
    cipher's own, nothing checked."""
    params, tables, round_tables, sboxes, no_ivs, no_words = _static_parts(mix_kind, impl, False,
                                                                           round_keys.shape[0] - 1, None, None)
    words = round_keys.view(_BE32).astype(_U32) if no_words is None else no_words
    # tuple.__new__: half the NamedTuple call's time
    return tuple.__new__(KernelSchedule, (params, tables, round_tables, words, round_keys, sboxes, no_ivs))


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
        described variant's (:mod:`cipherlab.ciphers.variant_files`). Any byte
        permutation works: the decryption plan only uses that SubBytes
        is byte-wise and InvMixColumns linear. The key schedule keeps the
        Rijndael S-box (the round keys arrive already expanded).

    The parts that depend only on the cipher and its options (tables, S-boxes) are built once
    per process and shared; only the round keys (and IVs) are computed per key.
    """
    rounds = round_keys.shape[0] - 1
    params, tables, round_tables, sboxes, no_ivs, no_words = _static_parts(
        mix_kind, impl, bool(decrypt), rounds, None if sbox is None else _map_bytes(sbox),
        None if second is None else _map_bytes(second))
    if not decrypt and ivs is None and round_keys.dtype == _U8 and round_keys.flags.c_contiguous:
        # encryption without IVs: the keys in their own order, the table style's words straight from them
        words = round_keys.view(_BE32).astype(_U32) if no_words is None else no_words
        return KernelSchedule(params, tables, round_tables, words, round_keys, sboxes, no_ivs)
    if ivs is None:
        ivs = no_ivs
    rk8 = np.ascontiguousarray(round_keys, dtype=np.uint8)
    keys = kernel_round_keys(rk8, mix_kind, decrypt, ivs)
    words = keys.reshape(-1).view(">u4").astype(np.uint32).reshape(rounds + 1, 4) if no_words is None else no_words
    return KernelSchedule(params, tables, round_tables, words, rk8, sboxes, np.ascontiguousarray(ivs, dtype=np.uint8))
