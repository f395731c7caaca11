"""Naive pure-Python reference implementations used by the tests.

Written from the specifications (FIPS-197, papers 000/001/002) without any
code from ``cipherlab``, so that agreement is evidence, not tautology. Slow on
purpose: clarity over speed.
"""
from __future__ import annotations

import hashlib


def _gmul(a: int, b: int) -> int:
    p = 0
    for _ in range(8):
        if b & 1:
            p ^= a
        hi = a & 0x80
        a = (a << 1) & 0xFF
        if hi:
            a ^= 0x1B
        b >>= 1
    return p


def _ginv(a: int) -> int:
    # a^254 = a^-1 in GF(2^8)
    r = 1
    for _ in range(254):
        r = _gmul(r, a)
    return r if a else 0


def _bit(x, i):
    return (x >> (i % 8)) & 1


def _affine(b: int) -> int:
    out = 0
    for i in range(8):
        v = _bit(b, i) ^ _bit(b, i + 4) ^ _bit(b, i + 5) ^ _bit(b, i + 6) ^ _bit(b, i + 7) ^ _bit(0x63, i)
        out |= v << i
    return out


def _inv_affine(b: int) -> int:
    out = 0
    for i in range(8):
        v = _bit(b, i + 2) ^ _bit(b, i + 5) ^ _bit(b, i + 7) ^ _bit(0x05, i)
        out |= v << i
    return out


SBOX = [_affine(_ginv(x)) for x in range(256)]
INV_SBOX = [0] * 256
for _x in range(256):
    INV_SBOX[SBOX[_x]] = _x


def second_sbox(xor_byte=0x7F, construction="xor-index"):
    """Second S-box per papers 000/001, both readings, and its inverse."""
    fwd = [_affine((x if construction == "xor-index" else SBOX[x]) ^ xor_byte) for x in range(256)]
    inv = [0] * 256
    for x in range(256):
        inv[fwd[x]] = x
    return fwd, inv


NR = {16: 10, 24: 12, 32: 14}


def key_words(key: bytes, n_words: int) -> list[list[int]]:
    nk = len(key) // 4
    w = [list(key[4 * i:4 * i + 4]) for i in range(nk)]
    rcon = 1
    for i in range(nk, n_words):
        t = list(w[i - 1])
        if i % nk == 0:
            t = t[1:] + t[:1]
            t = [SBOX[b] for b in t]
            t[0] ^= rcon
            rcon = _gmul(rcon, 2)
        elif nk > 6 and i % nk == 4:
            t = [SBOX[b] for b in t]
        w.append([a ^ b for a, b in zip(w[i - nk], t)])
    return w


def round_keys(key: bytes) -> list[list[int]]:
    nr = NR[len(key)]
    w = key_words(key, 4 * (nr + 1))
    return [sum(w[4 * r:4 * r + 4], []) for r in range(nr + 1)]


def _shift_rows(s, inverse=False):
    out = [0] * 16
    for r in range(4):
        for c in range(4):
            src = (c - r) % 4 if inverse else (c + r) % 4
            out[r + 4 * c] = s[r + 4 * src]
    return out


def _mix_columns(s, m=((2, 3, 1, 1), (1, 2, 3, 1), (1, 1, 2, 3), (3, 1, 1, 2))):
    out = [0] * 16
    for c in range(4):
        col = s[4 * c:4 * c + 4]
        for r in range(4):
            v = 0
            for k in range(4):
                v ^= _gmul(m[r][k], col[k])
            out[r + 4 * c] = v
    return out


_INV_M = ((14, 11, 13, 9), (9, 14, 11, 13), (13, 9, 14, 11), (11, 13, 9, 14))


def maes_ivs(key: bytes, approach: int, iv_source="sha3", sha3="sha3_256", sha3_chain="iv"):
    nr = NR[len(key)]
    n = 1 if approach == 1 else nr
    if iv_source == "sha3":
        out, chain = [], key
        for _ in range(n):
            d = getattr(hashlib, sha3)(chain).digest()
            out.append(list(d[:16]))
            chain = d[:16] if sha3_chain == "iv" else d
        return out
    w = key_words(key, 4 * (nr + 1 + n))[4 * (nr + 1):]
    return [sum(w[4 * i:4 * i + 4], []) for i in range(n)]


def _middle(cipher, key, xor_byte, construction, approach_ivs):
    """The step that replaces MixColumns, as (forward, inverse) per round number."""
    if cipher == "aes":
        return (lambda s, r: _mix_columns(s)), (lambda s, r: _mix_columns(s, _INV_M))
    if cipher == "aes-2sbox":
        f, g = second_sbox(xor_byte, construction)
        return (lambda s, r: [f[b] for b in s]), (lambda s, r: [g[b] for b in s])
    ivs = approach_ivs

    def xor_iv(s, r):
        iv = ivs[0] if len(ivs) == 1 else ivs[r - 1]
        return [a ^ b for a, b in zip(s, iv)]
    return xor_iv, xor_iv


def encrypt_block(key: bytes, block: bytes, cipher="aes", rounds=None, xor_byte=0x7F,
                  construction="xor-index", iv_source="sha3", sha3="sha3_256", sha3_chain="iv") -> bytes:
    ivs = maes_ivs(key, int(cipher[-1]), iv_source, sha3, sha3_chain) if cipher.startswith("maes") else None
    fwd, _ = _middle(cipher, key, xor_byte, construction, ivs)
    rk = round_keys(key)
    R = rounds or NR[len(key)]
    s = [a ^ b for a, b in zip(block, rk[0])]
    for r in range(1, R + 1):
        s = _shift_rows([SBOX[b] for b in s])
        if r < R:
            s = fwd(s, r)
        s = [a ^ b for a, b in zip(s, rk[r])]
    return bytes(s)


def decrypt_block(key: bytes, block: bytes, cipher="aes", rounds=None, xor_byte=0x7F,
                  construction="xor-index", iv_source="sha3", sha3="sha3_256", sha3_chain="iv") -> bytes:
    ivs = maes_ivs(key, int(cipher[-1]), iv_source, sha3, sha3_chain) if cipher.startswith("maes") else None
    _, inv = _middle(cipher, key, xor_byte, construction, ivs)
    rk = round_keys(key)
    R = rounds or NR[len(key)]
    s = list(block)
    for r in range(R, 0, -1):
        s = [a ^ b for a, b in zip(s, rk[r])]
        if r < R:
            s = inv(s, r)
        s = [INV_SBOX[b] for b in _shift_rows(s, inverse=True)]
    return bytes(a ^ b for a, b in zip(s, rk[0]))


def aesavs_cbc_mct(encrypt_block_fn, decrypt_block_fn, key: bytes, iv: bytes, text: bytes, encrypt: bool):
    """AESAVS section 6.4.2 Monte Carlo test for CBC; returns the 100 (key, iv, in, out) records.

    ``encrypt_block_fn(key, block)`` / ``decrypt_block_fn(key, block)`` are the
    raw cipher under test.
    """
    records = []
    for _ in range(100):
        rec_key, rec_iv, rec_in = key, iv, text
        if encrypt:
            pt = text
            prev = iv
            outs = []
            for j in range(1000):
                ct = encrypt_block_fn(key, bytes(a ^ b for a, b in zip(pt, prev)))
                pt = iv if j == 0 else outs[j - 1]
                prev = ct
                outs.append(ct)
            last, before = outs[-1], outs[-2]
        else:
            ct = text
            prev = iv
            outs = []
            for j in range(1000):
                pt = bytes(a ^ b for a, b in zip(decrypt_block_fn(key, ct), prev))
                prev = ct
                ct = iv if j == 0 else outs[j - 1]
                outs.append(pt)
            last, before = outs[-1], outs[-2]
        records.append((rec_key, rec_iv, rec_in, last))
        n = len(key)
        if n == 16:
            key = bytes(a ^ b for a, b in zip(key, last))
        elif n == 24:
            key = bytes(a ^ b for a, b in zip(key, before[-8:] + last))
        else:
            key = bytes(a ^ b for a, b in zip(key, before + last))
        iv = last
        text = before
    return records
