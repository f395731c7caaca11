"""Naive, loop-by-loop references for the S-box property tests.

Deliberately slow and literal: each follows the textbook definition so that
the vectorised versions in ``cipherlab.experiments.security.sbox_properties``
are checked against something written differently.
"""

from __future__ import annotations


def gf_mul(a: int, b: int) -> int:
    """Multiply in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (0x11B)."""
    p = 0
    while b:
        if b & 1:
            p ^= a
        a <<= 1
        if a & 0x100:
            a ^= 0x11B
        b >>= 1
    return p


def gf_inverse(a: int) -> int:
    """Multiplicative inverse by exhaustive search (0 maps to 0)."""
    if a == 0:
        return 0
    return next(b for b in range(1, 256) if gf_mul(a, b) == 1)


def rijndael_sbox_naive() -> list[int]:
    """FIPS-197 section 5.1.1: inverse, then the affine map with c = 0x63."""
    out = []
    for x in range(256):
        b = gf_inverse(x)
        y = 0
        for i in range(8):
            bit = (
                (b >> i)
                ^ (b >> ((i + 4) % 8))
                ^ (b >> ((i + 5) % 8))
                ^ (b >> ((i + 6) % 8))
                ^ (b >> ((i + 7) % 8))
                ^ (0x63 >> i)
            ) & 1
            y |= bit << i
        out.append(y)
    return out


def dot(a: int, b: int) -> int:
    return bin(a & b).count("1") & 1


def ddt_naive(s):
    t = [[0] * 256 for _ in range(256)]
    for a in range(256):
        for x in range(256):
            t[a][s[x] ^ s[x ^ a]] += 1
    return t


def lat_entry_naive(s, a: int, b: int) -> int:
    return sum(1 for x in range(256) if dot(a, x) == dot(b, s[x])) - 128


def degree_naive(s) -> int:
    """Degree via the ANF computed monomial by monomial (subset sums)."""
    best = 0
    for j in range(8):
        for u in range(256):
            coef = 0
            for x in range(256):
                if x & ~u == 0:  # x is a subset of u
                    coef ^= (s[x] >> j) & 1
            if coef:
                best = max(best, bin(u).count("1"))
    return best
