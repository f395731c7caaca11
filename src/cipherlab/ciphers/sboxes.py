"""GF(2^8) arithmetic, the Rijndael S-box and the second S-box of AES-2SBox.

Everything here is computed from its definition, not typed in:

* the Rijndael S-box is the multiplicative inverse in GF(2^8) modulo the
  polynomial ``0x11B`` followed by the affine transform with ``c = 0x63``
  (FIPS-197, section 5.1.1);
* the second S-box of papers 000/001 (Wenceslao, "AES-2SBox") is an XOR with a
  byte ``Key[i]`` (default ``0x7F``) followed by the same affine transform; its
  inverse uses the inverse affine transform with ``d = 0x05`` that the papers
  give (equation 2) followed by the same XOR.

Two readings of the papers' construction
----------------------------------------
The prose says "each cell in the AES-Rijndael will be XORed with 7F", i.e. the
*values* of the Rijndael S-box are XORed and then affine-transformed:
``second[x] = affine(rijndael[x] ^ k)``  (``construction="xor-sbox"``).

The tables the papers print (Table 1 and Table 2 of both 000 and 001) are not
that. They are reproduced, all but one cell, by XORing the *cell index* and
applying the affine transform, without the GF(2^8) inversion:
``second[x] = affine(x ^ k)`` (``construction="xor-index"``, the default because
it is what the published cipher used). With that reading the printed inverse
table (Table 2) matches in all 256 cells; the printed Table 1 differs in exactly
one cell, row 1 column 7 (``0x17``), printed ``BE`` where the construction (and
the printed inverse, whose cell ``BF`` holds ``17``) give ``BF``; ``BE`` is also
printed at row 5 column D, so the printed Table 1 is not a permutation.
The "xor-sbox" reading matches no cell of Table 1.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from cipherlab._checks import check_choice

__all__ = [
    "gf_mul",
    "gf_inverse",
    "affine",
    "inverse_affine",
    "rijndael_sbox",
    "rijndael_inverse_sbox",
    "second_sbox",
    "SECOND_SBOX_CONSTRUCTIONS",
    "AES_MODULUS",
    "AFFINE_C",
    "INVERSE_AFFINE_D",
]

AES_MODULUS = 0x11B  # x^8 + x^4 + x^3 + x + 1
AFFINE_C = 0x63
INVERSE_AFFINE_D = 0x05
SECOND_SBOX_CONSTRUCTIONS = ("xor-index", "xor-sbox")


def gf_mul(a: int, b: int) -> int:
    """Multiply two bytes in GF(2^8) modulo ``0x11B`` (shift-and-add)."""
    a &= 0xFF
    b &= 0xFF
    product = 0
    while b:
        if b & 1:
            product ^= a
        a <<= 1
        if a & 0x100:
            a ^= AES_MODULUS
        b >>= 1
    return product


@lru_cache(maxsize=1)
def _inverse_table() -> tuple[int, ...]:
    # Brute force over 255 candidates is instant and obviously correct.
    table = [0] * 256  # 0 has no inverse; FIPS-197 maps it to 0
    for a in range(1, 256):
        for b in range(1, 256):
            if gf_mul(a, b) == 1:
                table[a] = b
                break
    return tuple(table)


def gf_inverse(a: int) -> int:
    """Multiplicative inverse in GF(2^8) (``0`` maps to ``0``, as in FIPS-197)."""
    return _inverse_table()[a & 0xFF]


def _rotl8(b: int, n: int) -> int:
    return ((b << n) | (b >> (8 - n))) & 0xFF


def affine(b: int, c: int = AFFINE_C) -> int:
    """FIPS-197 affine transform: ``b_i ^ b_(i+4) ^ b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ c_i``."""
    return b ^ _rotl8(b, 1) ^ _rotl8(b, 2) ^ _rotl8(b, 3) ^ _rotl8(b, 4) ^ c


def inverse_affine(b: int, d: int = INVERSE_AFFINE_D) -> int:
    """Inverse affine transform: ``b_(i+2) ^ b_(i+5) ^ b_(i+7) ^ d_i`` (papers' eq. 2)."""
    return _rotl8(b, 1) ^ _rotl8(b, 3) ^ _rotl8(b, 6) ^ d


@lru_cache(maxsize=1)
def _rijndael() -> bytes:
    return bytes(affine(gf_inverse(x)) for x in range(256))


@lru_cache(maxsize=1)
def _rijndael_inverse() -> bytes:
    sbox = _rijndael()
    inverse = bytearray(256)
    for x in range(256):
        inverse[sbox[x]] = x
    return bytes(inverse)


def rijndael_sbox() -> np.ndarray:
    """The AES S-box, ``np.uint8[256]``, computed from its definition."""
    return np.frombuffer(_rijndael(), dtype=np.uint8).copy()


def rijndael_inverse_sbox() -> np.ndarray:
    """The inverse AES S-box, ``np.uint8[256]``."""
    return np.frombuffer(_rijndael_inverse(), dtype=np.uint8).copy()


def _check_xor_byte(xor_byte) -> int:
    if isinstance(xor_byte, bool) or not isinstance(xor_byte, (int, np.integer)) or not 0 <= int(xor_byte) <= 0xFF:
        raise ValueError(f"xor_byte must be an integer in 0..255 (0x00..0xFF), got {xor_byte!r}")
    return int(xor_byte)


@lru_cache(maxsize=None)
def _second(xor_byte: int, construction: str) -> tuple[bytes, bytes]:
    rijndael = _rijndael()
    forward = bytearray(256)
    inverse = bytearray(256)
    for x in range(256):
        before = (x if construction == "xor-index" else rijndael[x]) ^ xor_byte
        forward[x] = affine(before)
    inv_rijndael = _rijndael_inverse()
    for y in range(256):
        # Undo the affine transform with d = 0x05, then the XOR (and, for the
        # xor-sbox reading, the Rijndael S-box).
        before = inverse_affine(y) ^ xor_byte
        inverse[y] = before if construction == "xor-index" else inv_rijndael[before]
    return bytes(forward), bytes(inverse)


def second_sbox(xor_byte: int = 0x7F, construction: str = "xor-index") -> tuple[np.ndarray, np.ndarray]:
    """The second S-box of AES-2SBox (papers 000/001) and its inverse.

    Parameters
    ----------
    xor_byte : int, default 0x7F
        The papers' ``Key[i]``, any byte 0x00..0xFF (the papers use 0x7F).
    construction : {"xor-index", "xor-sbox"}, default "xor-index"
        ``"xor-index"``: ``affine(x ^ xor_byte)``, the reading that reproduces
        the published Tables 1 and 2 (see the module docstring for the one
        misprinted cell). ``"xor-sbox"``: ``affine(rijndael[x] ^ xor_byte)``,
        the literal reading of the prose.

    Returns
    -------
    (sbox, inverse) : tuple of np.ndarray
        Two ``np.uint8[256]`` arrays with ``inverse[sbox[x]] == x``.
    """
    return _second_sbox(_check_xor_byte(xor_byte), check_choice("construction", construction, SECOND_SBOX_CONSTRUCTIONS))


def _second_sbox(xor_byte: int, construction: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`second_sbox` for checked arguments."""
    forward, inverse = _second(xor_byte, construction)
    return (np.frombuffer(forward, dtype=np.uint8).copy(),
            np.frombuffer(inverse, dtype=np.uint8).copy())
