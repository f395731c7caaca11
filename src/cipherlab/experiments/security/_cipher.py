"""Thin helpers around :func:`cipherlab.new` shared by the security runners."""

from __future__ import annotations

import warnings

import numpy as np

CIPHERS = ("aes", "aes-2sbox", "maes-1", "maes-2")
BLOCK = 16


def check_cipher(cipher: str) -> str:
    if cipher not in CIPHERS:
        raise ValueError(f"cipher must be one of {CIPHERS}, got {cipher!r}")
    return cipher


def new_cipher(key, cipher: str, mode: str = "ecb", *, iv=None, padding: bool = False,
               rounds: "int | None" = None, impl: str = "table", **options):
    """``cipherlab.new`` with the insecure-variant warning silenced.

    The security chapter creates thousands of variant objects on purpose;
    the warning is the point of the chapter, not news to it.
    """
    import cipherlab

    check_cipher(cipher)
    kwargs = dict(cipher=cipher, mode=mode, padding=padding, impl=impl, **options)
    if iv is not None:
        kwargs["iv"] = bytes(iv)
    if rounds is not None:
        kwargs["rounds"] = rounds
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cipherlab.new(bytes(key), **kwargs)


def ecb_encryptor(key, cipher: str, *, rounds: "int | None" = None, impl: str = "table", **options):
    """A function mapping ``uint8[n, 16]`` plaintext blocks to ciphertext blocks."""
    obj = new_cipher(key, cipher, "ecb", padding=False, rounds=rounds, impl=impl, **options)

    def encrypt_blocks(blocks: np.ndarray) -> np.ndarray:
        flat = np.ascontiguousarray(blocks, dtype=np.uint8).reshape(-1)
        return np.asarray(obj.encrypt(flat), dtype=np.uint8).reshape(-1, BLOCK)

    return encrypt_blocks


def full_rounds(cipher: str, key_bytes: int = 16) -> int:
    """Nr of the AES key size (10, 12, 14); the variants keep AES's round count."""
    try:
        return {16: 10, 24: 12, 32: 14}[key_bytes]
    except KeyError:
        raise ValueError(f"key_bytes must be one of 16, 24, 32, got {key_bytes!r}") from None
