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

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from cipherlab.ciphers import _aesni_kernels as H
from cipherlab.ciphers import _vaes_kernels as V  # importing compiles nothing: the kernels compile on first call
from cipherlab.ciphers import _kernels as K
from cipherlab.ciphers import probe
from cipherlab.ciphers._threads import PARALLEL_MIN_BYTES, _ranges
from cipherlab.ciphers._schedule import kernel_round_keys
from cipherlab.ciphers.cpu import has_vaes, has_zmm
from cipherlab.ciphers.sboxes import rijndael_inverse_sbox, rijndael_sbox

__all__ = ["HwPlan", "plan", "counter", "ecb", "cbc_encrypt", "cbc_decrypt", "ctr", "kernel_width", "use_width",
           "available_widths", "wide_kernel", "wide_team", "ZMM_MIN_GAIN", "PARALLEL_MIN_BYTES"]

# ShiftRows as a gather (out[i] = in[_SR[i]]) in FIPS byte order r + 4c, and its inverse
_SR = np.array([(i % 4) + 4 * ((i // 4 + i % 4) % 4) for i in range(16)], dtype=np.uint8)
_INV_SR = np.argsort(_SR).astype(np.uint8)


class HwPlan(NamedTuple):
    rk: object      # see _round_keys: the kernels compile once per form (and per full round count)
    mix: object
    nib: object
    pre: object
    wide: object = None  # the VAES entry points (_vaes_kernels.Entries) where the round shape has them


_new_tuple = tuple.__new__
#: A key block's two lanes (a dtype object: a dtype by name is parsed on every call).
_LANES = np.dtype("<u8")
#: ``marker`` arguments of the array entry points (``_aesni_kernels.key_blocks``): a tuple of n zeros
_MARKERS = {n: (0,) * n for n in range(2, 17)}


def _args(p: HwPlan) -> tuple:
    """The kernel's trailing arguments: ``(keys, marker, mix, nib, pre)`` for the array form (the
    ``*_k`` entry points), ``(rk, mix, nib, pre)`` for the padded form."""
    if isinstance(p.rk, np.ndarray):
        return (p.rk, _MARKERS[p.rk.shape[0]], p.mix, p.nib, p.pre)
    return (p.rk, p.mix, p.nib, p.pre)


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


def _round_keys(keys: np.ndarray, own_rounds: "int | None" = None):
    """The kernels' round-key argument: for the full round counts and the cipher's own count the
    keys as ``uint64[rounds + 1, 2]`` (made a tuple of blocks inside the kernel, every key in a
    register), else the padded form (one compiled kernel for every other count, several times
    slower per round: the research ``rounds`` option)."""
    rounds = keys.shape[0] - 1
    if rounds in FULL_ROUNDS or rounds == own_rounds:
        return np.ascontiguousarray(keys).view(_LANES)
    blocks = _key_blocks(keys)
    middle = blocks[1:-1]
    if len(middle) > H.MIDDLE_SLOTS:
        raise ValueError(f"impl 'aesni': at most {H.MIDDLE_SLOTS + 1} rounds, got {rounds}")
    zero = (np.uint64(0), np.uint64(0))
    return (blocks[0], tuple(middle) + (zero,) * (H.MIDDLE_SLOTS - len(middle)), np.int64(len(middle)), blocks[-1])


@lru_cache(maxsize=256)
def _second_sbox_map_cached(table: bytes, decrypt: bool):
    return _second_sbox_map(np.frombuffer(table, dtype=np.uint8), decrypt)


def _key_blocks(keys: np.ndarray) -> list:
    """``uint8[n, 16]`` round keys as kernel blocks (pairs of ``np.uint64`` lanes)."""
    lanes = iter(np.ascontiguousarray(keys).view("<u8").reshape(-1))
    return list(zip(lanes, lanes))


def plan(spec, decrypt: bool) -> HwPlan:
    """Kernel arguments of cipher ``spec`` (an ``AES``, ``AES2SBox`` or ``MAES``) for one direction.

    The round keys are the table style's, in use order (:func:`~cipherlab.ciphers._schedule.kernel_round_keys`);
    the second S-box's nibble tables depend on the cipher's options only and are made once per process.
    """
    mix_kind = spec.mix_kind
    if not decrypt and mix_kind != K.MIX_XOR_IV:  # the keys in their own order: no copy
        keys = spec.round_keys
    else:
        keys = kernel_round_keys(spec.round_keys, mix_kind, decrypt, spec._extra().get("ivs"))
    rk = _round_keys(keys, spec.own_rounds)
    fixed = isinstance(rk, np.ndarray)
    if mix_kind == K.MIX_COLUMNS:  # AES: the common case first (tuple.__new__: half the NamedTuple call's time)
        return _new_tuple(HwPlan, (rk, True, None, None, V.entries(rk.shape[0], True) if fixed else None))
    nib = pre = None
    if mix_kind == K.MIX_SECOND_SBOX:
        table = np.asarray(spec.second[1 if decrypt else 0], dtype=np.uint8)
        nib, pre = _second_sbox_map_cached(table.tobytes(), bool(decrypt))
        return HwPlan(rk, None, nib, pre)
    return HwPlan(rk, None, nib, pre, V.entries(rk.shape[0], False) if fixed else None)


def counter(iv: bytes) -> tuple:
    """The 16-byte big-endian initial counter block as the CTR kernel's ``(hi, lo)`` words."""
    return np.uint64(int.from_bytes(iv[:8], "big")), np.uint64(int.from_bytes(iv[8:], "big"))


def _readonly(inp: np.ndarray) -> np.ndarray:
    """``inp`` as a read-only view: read-only and writable arrays are two Numba types, and one compile serves both."""
    if not inp.flags.writeable:
        return inp
    view = inp.view()
    view.flags.writeable = False
    return view


# -- VAES: two or four blocks per instruction where the CPU has it --------------------------------
#: The AES units must do at least this many times the block-rounds per cycle on zmm as on ymm (the
#: probe's chains, ``probe.zmm_gain``) for the 512-bit kernels to be used: a full 512-bit datapath
#: gives 2, a double-pumped one 1; the margin keeps the choice the same from one process to the next.
ZMM_MIN_GAIN = 1.25
#: The register width (bits) of the ECB and CTR kernels of AES's and MAES's round shapes in this
#: process; None until the first use decides it (:func:`kernel_width`), :func:`use_width` sets it.
_WIDTH: list = [None]


def available_widths() -> tuple:
    """The register widths this process may run: 128 (AES-NI), 256 (VAES), 512 (VAES with AVX-512)."""
    return (128,) + (256,) * has_vaes() + (512,) * has_zmm()


def kernel_width() -> int:
    """The register width (bits) ECB and CTR run at for AES's and MAES's round shapes: 512 where the
    CPU has AVX-512 and VAES and the probe shows its AES units doing at least :data:`ZMM_MIN_GAIN`
    times the block-rounds per cycle on zmm as on ymm (decided once per process, a few milliseconds),
    else 256 where it has VAES, else 128 (the AES-NI kernels of ``_aesni_kernels``, as every other
    round shape and mode)."""
    if _WIDTH[0] is None:
        if has_zmm() and probe.zmm_gain() >= ZMM_MIN_GAIN:
            _WIDTH[0] = 512
        else:
            _WIDTH[0] = 256 if has_vaes() else 128
    return _WIDTH[0]


def use_width(bits: "int | None") -> int:
    """Run ECB and CTR at register width ``bits`` (one of :func:`available_widths`; None: decide from
    the CPU and the probe again), for a comparison or a test; returns the previous width."""
    previous = kernel_width()
    if bits is not None and bits not in available_widths():
        raise ValueError(f"bits must be one of {available_widths()} on this CPU / JIT target, got {bits!r}")
    _WIDTH[0] = bits
    return previous


def wide_kernel(p: HwPlan, mode: str):
    """The VAES entry point of ``mode`` (``"ecb-encrypt"``, ``"ecb-decrypt"``, ``"ctr"``) for plan ``p`` at
    the current width (compiled on first use), or None where ``p`` runs on the 128-bit kernels. Its
    arguments: ``(inp, out, start, stop, keys)`` for ECB, ``(inp, out, iv, start, stop, keys)`` for CTR,
    ``keys`` being ``p.rk``; blocks ``start .. stop - 1``, on the calling thread."""
    width = _wide(p)
    if not width:
        return None
    return p.wide.kernels[mode].get(width) or p.wide.get(mode, width)


def wide_team(p: HwPlan, mode: str):
    """The team of the VAES entry point of ``mode`` for plan ``p`` at the current width (compiled or loaded
    from the cache on first use: :meth:`cipherlab.ciphers._vaes_kernels.Entries.team`), or None where ``p``
    runs on the 128-bit kernels; an object on more than one thread makes it with its first message, so the
    first long message does not."""
    width = _wide(p)
    return p.wide.team(mode, width) if width else None


def _wide(p: HwPlan) -> int:
    """The register width plan ``p`` runs ECB and CTR at (0: the 128-bit AES-NI kernels)."""
    if p.wide is None:
        return 0
    width = _WIDTH[0] or kernel_width()
    return width if width > 128 else 0


def ecb(inp, out, p: HwPlan, decrypt: bool, threads: int) -> None:
    """ECB over whole blocks on ``threads`` threads (in place allowed)."""
    width = _wide(p)
    if width:
        mode = "ecb-decrypt" if decrypt else "ecb-encrypt"
        kernel = p.wide.kernels[mode].get(width) or p.wide.get(mode, width)
        keys = p.rk
        if threads == 1 or inp.shape[0] < PARALLEL_MIN_BYTES:  # the short path: no closure, no pool
            kernel(inp, out, 0, inp.shape[0] >> 4, keys)
            return
        _ranges(kernel, inp.shape[0], threads, lambda a, b: (inp, out, a, b, keys), V.GROUP_BLOCKS[width],
                p.wide.team(mode, width))
        return
    if inp.flags.writeable:
        inp = _readonly(inp)
    args = _args(p)
    kernel = H.ecb_range_k if len(args) == 5 else H.ecb_range
    _ranges(kernel, inp.shape[0], threads, lambda a, b: (inp, out, a, b, decrypt, *args))


def cbc_encrypt(inp, out, iv: tuple, p: HwPlan) -> None:
    """CBC encryption (sequential); ``iv`` a block (see :func:`block`)."""
    args = _args(p)
    (H.cbc_encrypt_k if len(args) == 5 else H.cbc_encrypt)(_readonly(inp), out, iv, *args)


def cbc_decrypt(inp, out, iv: tuple, p: HwPlan, threads: int) -> None:
    """CBC decryption on ``threads`` threads (``inp`` and ``out`` distinct)."""
    inp = _readonly(inp)
    args = _args(p)
    kernel = H.cbc_decrypt_range_k if len(args) == 5 else H.cbc_decrypt_range
    _ranges(kernel, inp.shape[0], threads, lambda a, b: (inp, out, iv, a, b, *args))


def ctr(inp, out, iv: np.ndarray, p: HwPlan, threads: int) -> None:
    """CTR from the initial counter block ``iv`` (``uint8[16]``, big-endian), wrapping modulo 2^128."""
    width = _wide(p)
    if width:
        kernel = p.wide.kernels["ctr"].get(width) or p.wide.get("ctr", width)
        keys = p.rk
        if threads == 1 or inp.shape[0] < PARALLEL_MIN_BYTES:  # the short path: no closure, no pool
            kernel(inp, out, iv, 0, (inp.shape[0] + 15) >> 4, keys)
            return
        _ranges(kernel, inp.shape[0], threads, lambda a, b: (inp, out, iv, a, b, keys), V.GROUP_BLOCKS[width],
                p.wide.team("ctr", width))
        return
    if inp.flags.writeable:
        inp = _readonly(inp)
    args = _args(p)
    if len(args) == 5:  # the array entry point reads the counter from iv itself
        _ranges(H.ctr_range_k, inp.shape[0], threads, lambda a, b: (inp, out, iv, a, b, *args))
    else:
        hi, lo = counter(iv.tobytes())
        _ranges(H.ctr_range, inp.shape[0], threads, lambda a, b: (inp, out, hi, lo, a, b, *args))
