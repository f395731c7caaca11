"""The names every layer shares: implementation styles, modes, AES key sizes, the MAES options' values.

A leaf, as :mod:`cipherlab._checks` is: it imports nothing, so the cipher core (which checks
``new()``'s arguments against these), the pipeline (whose parameter schemas offer them), the
benchmark, the chapters' declarations and the tests all read the one tuple, and importing it
costs nothing (the Snakefile reads the declarations).
"""
from __future__ import annotations

__all__ = ["SOFTWARE_STYLES", "OWN_STYLES", "STYLES", "AUTO", "MODES", "AES_KEY_BYTES", "MAES_APPROACHES", "MAES_IV_SOURCES",
           "SHA3_VARIANTS", "SHA3_CHAINS"]

#: cipherlab's software styles: byte-wise FIPS-197 steps and T-tables.  They run any S-box and linear
#: layer, and their round steps are separate functions (MAES's Table II times them one by one).
SOFTWARE_STYLES = ("reference", "table")
#: cipherlab's own kernels (``impl``): the software styles and the AES-NI intrinsics.
OWN_STYLES = SOFTWARE_STYLES + ("aesni",)
#: Every implementation style: cipherlab's, and PyCryptodome's AES as the outside reference.
STYLES = OWN_STYLES + ("pycryptodome",)
#: The ``impl`` that resolves to ``aesni`` where the CPU has it, else ``table``.
AUTO = "auto"
#: The block-cipher modes of :func:`cipherlab.new`.
MODES = ("ecb", "cbc", "ctr")
#: AES key lengths in bytes (FIPS-197); the variants keep them.
AES_KEY_BYTES = (16, 24, 32)
#: MAES (paper 002): one IV for all rounds (1) or one per round (2).
MAES_APPROACHES = (1, 2)
#: Where MAES's IVs come from: a SHA-3 chain, or the AES key expansion run on.
MAES_IV_SOURCES = ("sha3", "keyexp")
#: The SHA-3 variant of the ``sha3`` IV source (the first 16 bytes of each digest).
SHA3_VARIANTS = ("sha3_256", "sha3_224", "sha3_384", "sha3_512")
#: What approach 2 hashes next: the previous 16-byte IV, or the whole previous digest.
SHA3_CHAINS = ("iv", "digest")
