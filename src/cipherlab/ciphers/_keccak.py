"""Keccak-f[1600] and SHA-3 (FIPS 202) as compiled kernels, and MAES's set-up in compiled form.

Why this exists: paper 002's Table I compares the cost of MAES's SHA-3 IV
generation with the AES key expansion. ``hashlib`` computes SHA-3 in C, so
timing it against a key expansion written in Python compares languages, not
algorithms. Here both sides are Numba kernels of the same style (plain loops
over machine words): the SHA-3 below and the cipher objects' own compiled
KeyExpansion (:func:`cipherlab.ciphers._key_kernels.expand_key_blocks`), so the
paper's cost question is answered on equal terms:

* :func:`sha3` - SHA3-224/256/384/512 of one message (checked against ``hashlib``);
* :func:`expand_key_words` - the FIPS-197 key expansion for any number of words;
* :func:`maes_ivs` - MAES's IV vectors (both IV sources, both chains), the
  same bytes as :func:`cipherlab.ciphers.maes.maes_ivs`.

The kernels are private (``_``-prefixed) and trust their arguments; the
wrappers check them. These functions are for measurement: the cipher objects
keep using :mod:`cipherlab.ciphers.maes` (MAES is **not secure**; research use only).
"""
from __future__ import annotations

import numpy as np

from cipherlab._checks import check_choice
from cipherlab.ciphers._key_kernels import expand_key_blocks
from cipherlab.ciphers._key_kernels import expand_key_words as _expand_key_words
from cipherlab.ciphers._numba import jit
from cipherlab.ciphers.sboxes import rijndael_sbox
from cipherlab.names import AES_KEY_BYTES

__all__ = ["sha3", "expand_key_words", "maes_ivs", "DIGEST_BYTES"]

#: Digest length in bytes of each SHA-3 function (FIPS 202, Section 6.1).
DIGEST_BYTES = {"sha3_224": 28, "sha3_256": 32, "sha3_384": 48, "sha3_512": 64}

# FIPS 202 Section 3.2.5 (iota): the 24 round constants of Keccak-f[1600].
_RC = np.array([
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
], dtype=np.uint64)


def _rho_offsets() -> np.ndarray:
    """Rotation offsets of rho, lane ``x + 5y``, computed as FIPS 202 Algorithm 2 states them."""
    r = np.zeros(25, dtype=np.uint64)
    x, y = 1, 0
    for t in range(24):
        r[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return r


_ROT = _rho_offsets()
#: pi: lane ``x + 5y`` moves to lane ``y + 5((2x + 3y) mod 5)``.
_PI = np.array([y + 5 * ((2 * x + 3 * y) % 5) for y in range(5) for x in range(5)], dtype=np.int64)


@jit
def _keccak_f(a, rc, rot):
    """Keccak-f[1600] on ``a`` (``uint64[25]``, lane ``x + 5y``), in place.

    Loops with precomputed indices (no modulo in the inner loops); every
    rotation offset of rho is in 1..63 except lane 0's, which is skipped.
    """
    c0 = c1 = c2 = c3 = c4 = np.uint64(0)
    b = np.empty(25, dtype=np.uint64)
    one = np.uint64(1)
    s63 = np.uint64(63)
    for rnd in range(24):
        c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20]                 # theta
        c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21]
        c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22]
        c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23]
        c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24]
        d0 = c4 ^ ((c1 << one) | (c1 >> s63))
        d1 = c0 ^ ((c2 << one) | (c2 >> s63))
        d2 = c1 ^ ((c3 << one) | (c3 >> s63))
        d3 = c2 ^ ((c4 << one) | (c4 >> s63))
        d4 = c3 ^ ((c0 << one) | (c0 >> s63))
        for y in range(0, 25, 5):
            a[y] ^= d0
            a[y + 1] ^= d1
            a[y + 2] ^= d2
            a[y + 3] ^= d3
            a[y + 4] ^= d4
        b[0] = a[0]                                              # rho and pi
        for i in range(1, 25):
            v = a[i]
            r = rot[i]
            b[_PI[i]] = (v << r) | (v >> (np.uint64(64) - r))
        for y in range(0, 25, 5):                                # chi
            b0, b1, b2, b3, b4 = b[y], b[y + 1], b[y + 2], b[y + 3], b[y + 4]
            a[y] = b0 ^ (~b1 & b2)
            a[y + 1] = b1 ^ (~b2 & b3)
            a[y + 2] = b2 ^ (~b3 & b4)
            a[y + 3] = b3 ^ (~b4 & b0)
            a[y + 4] = b4 ^ (~b0 & b1)
        a[0] ^= rc[rnd]                                          # iota


@jit
def _sha3_into(msg, n_out, out, rc, rot):
    """SHA-3 of ``msg`` (``uint8[:]``) with an ``n_out``-byte digest written to ``out[:n_out]``."""
    rate = 200 - 2 * n_out
    a = np.zeros(25, dtype=np.uint64)
    block = np.zeros(200, dtype=np.uint8)
    n = msg.size
    pos = 0
    while True:                       # absorb whole blocks, then the padded last one
        block[:] = 0
        take = min(rate, n - pos)
        block[:take] = msg[pos:pos + take]
        last = take < rate
        if last:
            block[take] ^= np.uint8(0x06)          # SHA-3 domain bits 01, then pad10*1
            block[rate - 1] ^= np.uint8(0x80)
        for i in range(rate // 8):
            lane = np.uint64(0)
            for j in range(8):
                lane |= np.uint64(block[8 * i + j]) << np.uint64(8 * j)
            a[i] ^= lane
        _keccak_f(a, rc, rot)
        pos += take
        if last:
            break
    for i in range(n_out):                         # n_out < rate: one squeeze
        out[i] = np.uint8((a[i // 8] >> np.uint64(8 * (i % 8))) & np.uint64(0xFF))


@jit
def _round_keys(key, sbox):
    """AES round keys ``uint8[Nr + 1, 16]`` (the timed "AES key expansion" of Table I): the cipher
    objects' own compiled KeyExpansion (:func:`cipherlab.ciphers._key_kernels.expand_key_blocks`)."""
    nr = key.size // 4 + 6
    return expand_key_blocks(key, 4 * (nr + 1), sbox)


@jit
def _maes_ivs_sha3(key, n, n_digest, chain_digest, rc, rot):
    """``n`` IVs: ``IV_1 = SHA3(key)[:16]``, each next from the IV (or the whole digest when ``chain_digest``)."""
    out = np.empty((n, 16), dtype=np.uint8)
    digest = np.empty(64, dtype=np.uint8)
    _sha3_into(key, n_digest, digest, rc, rot)
    out[0] = digest[:16]
    for i in range(1, n):
        if chain_digest:
            _sha3_into(digest[:n_digest].copy(), n_digest, digest, rc, rot)
        else:
            _sha3_into(out[i - 1], n_digest, digest, rc, rot)
        out[i] = digest[:16]
    return out


@jit
def _maes_ivs_keyexp(key, n, sbox):
    """``n`` IVs: the 16-byte blocks of the key expansion that follow the last round key."""
    nr = key.size // 4 + 6
    return expand_key_blocks(key, 4 * (nr + 1 + n), sbox)[nr + 1:].copy()


# ----------------------------------------------------------------------------- wrappers
def _as_bytes(name: str, value, lengths=None) -> np.ndarray:
    if isinstance(value, np.ndarray):
        if value.dtype != np.uint8 or value.ndim != 1:
            raise ValueError(f"{name} must be bytes or a 1-D uint8 array, got {value.dtype} of shape {value.shape}")
        arr = np.ascontiguousarray(value)
    elif isinstance(value, (bytes, bytearray, memoryview)):
        arr = np.frombuffer(bytes(value), dtype=np.uint8)
    else:
        raise ValueError(f"{name} must be bytes or a 1-D uint8 array, got {type(value).__name__}")
    if lengths is not None and arr.size not in lengths:
        raise ValueError(f"{name} must be {' or '.join(map(str, lengths))} bytes, got {arr.size}")
    return arr


def sha3(data, variant: str = "sha3_256") -> bytes:
    """SHA-3 digest of ``data`` (bytes or ``uint8`` array), compiled; ``variant`` one of :data:`DIGEST_BYTES`."""
    check_choice("variant", variant, tuple(DIGEST_BYTES))
    msg = _as_bytes("data", data)
    out = np.empty(64, dtype=np.uint8)
    n = DIGEST_BYTES[variant]
    _sha3_into(msg, n, out, _RC, _ROT)
    return out[:n].tobytes()


def expand_key_words(key, n_words: int) -> np.ndarray:
    """FIPS-197 KeyExpansion, compiled: ``uint32[n_words]`` (``n_words`` >= the key's words)."""
    k = _as_bytes("key", key, AES_KEY_BYTES)
    if isinstance(n_words, bool) or not isinstance(n_words, (int, np.integer)) or not k.size // 4 <= n_words <= 4096:
        raise ValueError(f"n_words must be an integer in {k.size // 4}..4096, got {n_words!r}")
    return _expand_key_words(k, int(n_words), rijndael_sbox())


def round_keys(key) -> np.ndarray:
    """AES round keys ``k_0 .. k_Nr`` as ``uint8[Nr + 1, 16]``, compiled (same bytes as ``aes.expand_key``)."""
    return _round_keys(_as_bytes("key", key, AES_KEY_BYTES), rijndael_sbox())


def maes_ivs(key, approach: int = 2, iv_source: str = "sha3", sha3: str = "sha3_256",
             sha3_chain: str = "iv") -> np.ndarray:
    """MAES IV vectors, compiled: the same ``uint8[n, 16]`` as :func:`cipherlab.ciphers.maes.maes_ivs`."""
    from cipherlab.ciphers.maes import APPROACHES, IV_SOURCES, SHA3_CHAINS, SHA3_VARIANTS
    k = _as_bytes("key", key, AES_KEY_BYTES)
    check_choice("approach", approach, APPROACHES)
    check_choice("iv_source", iv_source, IV_SOURCES)
    check_choice("sha3", sha3, SHA3_VARIANTS)
    check_choice("sha3_chain", sha3_chain, SHA3_CHAINS)
    n = 1 if approach == 1 else k.size // 4 + 6
    if iv_source == "sha3":
        return _maes_ivs_sha3(k, n, DIGEST_BYTES[sha3], sha3_chain == "digest", _RC, _ROT)
    return _maes_ivs_keyexp(k, n, rijndael_sbox())


def bound_calls(key, approach: int = 2, sha3: str = "sha3_256", sha3_chain: str = "iv") -> dict:
    """Zero-argument calls of the compiled set-up for timing, arguments checked once outside the call.

    Keys ``"key_expansion"`` (round keys), ``"sha3"`` and ``"keyexp"`` (the
    approach's IVs from each IV source): each is one compiled call, so the
    timings compare the algorithms, not a wrapper.
    """
    from cipherlab.ciphers.maes import APPROACHES, SHA3_CHAINS, SHA3_VARIANTS
    k = _as_bytes("key", key, AES_KEY_BYTES).copy()
    check_choice("approach", approach, APPROACHES)
    check_choice("sha3", sha3, SHA3_VARIANTS)
    check_choice("sha3_chain", sha3_chain, SHA3_CHAINS)
    n = 1 if approach == 1 else k.size // 4 + 6
    sbox, nd, chain = rijndael_sbox(), DIGEST_BYTES[sha3], sha3_chain == "digest"
    return {"key_expansion": lambda: _round_keys(k, sbox),
            "sha3": lambda: _maes_ivs_sha3(k, n, nd, chain, _RC, _ROT),
            "keyexp": lambda: _maes_ivs_keyexp(k, n, sbox)}
