"""Constants, input checks and the insecure-cipher warning shared by the AES-2SBox chapter's modules.

One copy of the papers, ciphers, labels and table names that every part of
the chapter reads (measuring, tables, figures, evidence, views).
"""
from __future__ import annotations

import warnings

import numpy as np

from cipherlab.names import AES_KEY_BYTES
from cipherlab._checks import check_choice, check_hex
from cipherlab.ciphers.modes import InsecureCipherWarning, new
from cipherlab.experiments.aes2sbox.chapter import PAPERS   # declared once, with the chapter

#: The two ciphers compared, old first (the papers' ``T_old`` and ``T_new``).
CIPHERS = ("aes", "aes-2sbox")
#: Column labels the papers print for the two ciphers.
PAPER_LABELS = {"aes": "AES-Rijndael", "aes-2sbox": "AES-2SBox"}
OPERATIONS = ("encrypt", "decrypt")
#: ``main``: the compared objects; ``control``: the second, identical AES instance of the A/A control.
INSTANCES = ("main", "control")
#: Where each published quantity sits in ``data/paper/`` (table names as the papers print them).
TABLES = {
    "000": {"sbox": "Table 1", "inverse": "Table 2", "encrypt": "Table 3", "decrypt": "Table 4",
            "speedup": "Table 5", "speedup_column": "ETPE%", "avalanche": "Table 6",
            "avalanche_column": "Avalanche", "prose": "Section 5.1 (prose)"},
    "001": {"sbox": "Table 1", "inverse": "Table 2", "encrypt": "Table 3", "decrypt": "Table 4",
            "speedup": "Table 5", "speedup_column": "SpeedUP (%)", "avalanche": "Table 5 (avalanche)",
            "avalanche_column": "Avalanche Effect", "prose": "Section 4.1.1 (prose)"},
}
#: The prose row (``data/paper/``) that gives the XOR byte of Tables 1-2.
KEY_BYTE_ROW = "XOR key byte Key[i] used for Tables 1-2"
#: Row labels of Table 5 per operation.
OPERATION_ROW = {"encrypt": "Encryption", "decrypt": "Decryption"}
HEX = "0123456789ABCDEF"
BLOCK_BITS = 128
#: Bits set in each byte value (a lookup table: works on every NumPy version).
POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)
#: Claim ids (``data/paper/claims.csv``) of the speed claims, per paper and operation.
SPEEDUP_CLAIM = "{paper}-t5-{op}-speedup"
SIGNIFICANCE_CLAIM = "{paper}-{table}-{op}-significant"
SPEED_SECTION = "aes2sbox-speed"


def check_paper(paper: str) -> str:
    return check_choice("paper", paper, PAPERS)


def make_cipher(key: bytes, cipher: str, impl: str, *, mode: str = "ecb", padding: bool = False,
                threads: "int | None" = 1, xor_byte: int = 0x7F, construction: str = "xor-index"):
    """One cipher object of :func:`cipherlab.new`; the AES-2SBox options are passed to AES-2SBox only."""
    options = {"xor_byte": xor_byte, "construction": construction} if cipher == "aes-2sbox" else {}
    return new(key, cipher=cipher, mode=mode, impl=impl, padding=padding, threads=threads, **options)


def insecure_warning_text() -> str:
    """The ``InsecureCipherWarning`` an AES-2SBox object raises, as one markdown line (no file path)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InsecureCipherWarning)
        make_cipher(bytes(16), "aes-2sbox", "table")
    found = [w for w in caught if issubclass(w.category, InsecureCipherWarning)]
    if not found:
        raise RuntimeError("an AES-2SBox object no longer warns with InsecureCipherWarning")
    return f"**InsecureCipherWarning**: {found[0].message}"


def key_bytes(key) -> bytes:
    """An AES key from hex or bytes (:func:`cipherlab._checks.check_hex`, the one key parser)."""
    return check_hex("key", key, AES_KEY_BYTES)
