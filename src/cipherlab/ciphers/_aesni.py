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
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from cipherlab.ciphers import _aesni_kernels as H
from cipherlab.ciphers import _kernels as K
from cipherlab.ciphers._numba import max_threads
from cipherlab.ciphers.sboxes import rijndael_inverse_sbox, rijndael_sbox

__all__ = ["HwPlan", "plan", "ecb", "cbc_encrypt", "cbc_decrypt", "ctr"]

# ShiftRows as a gather (out[i] = in[_SR[i]]) in FIPS byte order r + 4c, and its inverse
_SR = np.array([(i % 4) + 4 * ((i // 4 + i % 4) % 4) for i in range(16)], dtype=np.uint8)
_INV_SR = np.argsort(_SR).astype(np.uint8)

# Below this many bytes (or with one thread) the serial kernels run: thread
# start-up would cost more than it saves at 10 GB/s.
PARALLEL_MIN_BYTES = 1 << 16


class HwPlan(NamedTuple):
    rk: tuple       # see _round_keys: the kernels compile once per form (and per full round count)
    mix: object
    nib: object
    pre: object


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


def _round_keys(blocks: list, own_rounds: "int | None" = None) -> tuple:
    """The kernels' round-key argument: a plain tuple for the full round counts and the cipher's
    own count, else the padded form (one compiled kernel for every other count, several times
    slower per round: the research ``rounds`` option)."""
    rounds = len(blocks) - 1
    if rounds in FULL_ROUNDS or rounds == own_rounds:
        return tuple(blocks)
    middle = blocks[1:-1]
    if len(middle) > H.MIDDLE_SLOTS:
        raise ValueError(f"impl 'aesni': at most {H.MIDDLE_SLOTS + 1} rounds, got {rounds}")
    zero = (np.uint64(0), np.uint64(0))
    return (blocks[0], tuple(middle) + (zero,) * (H.MIDDLE_SLOTS - len(middle)), np.int64(len(middle)), blocks[-1])


def plan(spec, decrypt: bool) -> HwPlan:
    """Kernel arguments of cipher ``spec`` (an ``AES``, ``AES2SBox`` or ``MAES``) for one direction."""
    sched = spec.schedule("table", decrypt)
    keys = np.ascontiguousarray(sched.rk32.astype(">u4")).view(np.uint8).reshape(-1, 16)
    lanes = keys.view("<u8").reshape(-1, 2)
    blocks = [(a, b) for a, b in lanes]
    rk = _round_keys(blocks, spec.own_rounds)
    mix = True if spec.mix_kind == K.MIX_COLUMNS else None
    nib = pre = None
    if spec.mix_kind == K.MIX_SECOND_SBOX:
        nib, pre = _second_sbox_map(spec.second[1 if decrypt else 0], decrypt)
    return HwPlan(rk, mix, nib, pre)


_POOL: list = []


def _pool() -> ThreadPoolExecutor:
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(max_workers=max(1, max_threads() - 1), thread_name_prefix="cipherlab-aesni"))
    return _POOL[0]


def _forget_pool_in_child() -> None:
    """A forked child inherits the executor but not its worker threads (work submitted to it would
    never run): the child starts without a pool and makes its own on first use."""
    _POOL.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


def _ranges(kernel, n_bytes: int, threads: int, args_for) -> None:
    """Run ``kernel(*args_for(start, stop))`` over ``threads`` block ranges; this thread takes the first.

    The kernels release the GIL (``nogil``), so the ranges run in parallel.
    Small inputs and ``threads == 1`` run serially here.
    """
    n_blocks = (n_bytes + 15) // 16
    if threads == 1 or n_bytes < PARALLEL_MIN_BYTES:
        kernel(*args_for(0, n_blocks))
        return
    step = -(-n_blocks // threads)
    step += -step % 4  # whole groups of four blocks in flight
    bounds = [(s, min(n_blocks, s + step)) for s in range(0, n_blocks, step)]
    futures = [_pool().submit(kernel, *args_for(a, b)) for a, b in bounds[1:]]
    kernel(*args_for(*bounds[0]))
    for f in futures:
        f.result()


def _readonly(inp: np.ndarray) -> np.ndarray:
    """``inp`` as a read-only view: read-only and writable arrays are two Numba types, and one compile serves both."""
    if not inp.flags.writeable:
        return inp
    view = inp.view()
    view.flags.writeable = False
    return view


def ecb(inp, out, p: HwPlan, decrypt: bool, threads: int) -> None:
    """ECB over whole blocks on ``threads`` threads (in place allowed)."""
    inp = _readonly(inp)
    _ranges(H.ecb_range, inp.shape[0], threads, lambda a, b: (inp, out, a, b, decrypt, *p))


def cbc_encrypt(inp, out, iv: tuple, p: HwPlan) -> None:
    """CBC encryption (sequential); ``iv`` a block (see :func:`block`)."""
    H.cbc_encrypt(_readonly(inp), out, iv, *p)


def cbc_decrypt(inp, out, iv: tuple, p: HwPlan, threads: int) -> None:
    """CBC decryption on ``threads`` threads (``inp`` and ``out`` distinct)."""
    inp = _readonly(inp)
    _ranges(H.cbc_decrypt_range, inp.shape[0], threads, lambda a, b: (inp, out, iv, a, b, *p))


def ctr(inp, out, counter: bytes, p: HwPlan, threads: int) -> None:
    """CTR from the 16-byte big-endian initial ``counter``, wrapping modulo 2^128."""
    hi, lo = np.uint64(int.from_bytes(counter[:8], "big")), np.uint64(int.from_bytes(counter[8:], "big"))
    inp = _readonly(inp)
    _ranges(H.ctr_range, inp.shape[0], threads, lambda a, b: (inp, out, hi, lo, a, b, *p))
