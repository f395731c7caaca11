"""``cipherlab.new`` without the research-cipher warning, for the security runners.

The security chapter creates thousands of research-cipher objects on purpose;
the :class:`cipherlab.InsecureCipherWarning` is the point of the chapter, not
news to it. Cipher names and their checks come from the registry
(:mod:`cipherlab.ciphers.registry`). Every runner takes a cipher as a
registered name or as a registry entry, registered or not: the security
chapter's ciphers are built from their descriptions in ``config/ciphers/``
(:func:`cipherlab.ciphers.variant_files.build_from_description`) and labelled by
their names.
"""

from __future__ import annotations

import warnings

import numpy as np

from cipherlab._checks import check_choice
from cipherlab.ciphers.modes import new
from cipherlab.ciphers.registry import AES_ROUNDS, CipherInfo, InsecureCipherWarning, cipher_entry, cipher_names

BLOCK = 16


def check_cipher(cipher: "str | CipherInfo") -> CipherInfo:
    """The entry of ``cipher``: a registry entry as it is, or a registered name (one per distinct
    cipher), else ``ValueError`` listing the names."""
    if not isinstance(cipher, CipherInfo):
        check_choice("cipher", cipher, cipher_names())
    return cipher_entry(cipher)


def cipher_label(cipher: "str | CipherInfo") -> str:
    """The name a table shows for ``cipher`` (a name or an entry)."""
    return check_cipher(cipher).name


def new_quiet(key, cipher: "str | CipherInfo", mode: str = "ecb", *, iv=None, padding: bool = False,
              rounds: "int | None" = None, impl: str = "table", **options):
    """:func:`cipherlab.new` with :class:`cipherlab.InsecureCipherWarning` silenced (every other check kept).

    A cipher without the table style (a described variant whose S-box or ShiftRows changes by round runs in
    the reference style only) runs in its reference style where ``table`` is asked: the same cipher, slower.
    """
    cipher = check_cipher(cipher)
    if impl == "table" and "table" not in cipher.styles:
        impl = "reference"
    if rounds is not None:
        options["rounds"] = rounds
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InsecureCipherWarning)
        return new(bytes(key), cipher, mode, iv=None if iv is None else bytes(iv), impl=impl, padding=padding,
                   **options)


def ecb_encryptor(key, cipher: "str | CipherInfo", *, rounds: "int | None" = None, impl: str = "table", **options):
    """A function mapping ``uint8[n, 16]`` plaintext blocks to ciphertext blocks."""
    obj = new_quiet(key, cipher, "ecb", padding=False, rounds=rounds, impl=impl, **options)

    def encrypt_blocks(blocks: np.ndarray) -> np.ndarray:
        flat = np.ascontiguousarray(blocks, dtype=np.uint8).reshape(-1)
        return np.asarray(obj.encrypt(flat), dtype=np.uint8).reshape(-1, BLOCK)

    return encrypt_blocks


def full_rounds(cipher: str, key_bytes: int = 16) -> int:
    """Nr of the AES key size (10, 12, 14); the variants keep AES's round count."""
    return AES_ROUNDS[check_choice("key_bytes", key_bytes, tuple(AES_ROUNDS))]
