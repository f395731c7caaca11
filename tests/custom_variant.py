"""An example of a variant's escape hatch (``custom:`` in a variant file), for tests/test_variant_files.py.

A step the blocks cannot express: MixColumns replaced by an XOR with round IVs
derived by BLAKE2b from the key and the round number (the blocks' ``xor-iv``
takes MAES's IVs only). The callable returns a key schedule in kernel form,
an instance of a subclass of ``cipherlab.ciphers.aes.AES``.
"""
from __future__ import annotations

import hashlib

import numpy as np

from cipherlab.ciphers import _kernels as K
from cipherlab.ciphers.aes import AES


class Blake2IVs(AES):
    """AES with MixColumns replaced by XOR with ``BLAKE2b-128(key || r)`` in round ``r``."""

    mix_kind = K.MIX_XOR_IV

    def __init__(self, key: bytes, rounds: int | None = None):
        super().__init__(key, rounds)
        self.round_ivs = np.zeros((self.rounds + 1, 16), dtype=np.uint8)
        for r in range(1, self.rounds):
            digest = hashlib.blake2b(key + bytes([r]), digest_size=16).digest()
            self.round_ivs[r] = np.frombuffer(digest, dtype=np.uint8)

    def _extra(self) -> dict:
        return {"ivs": self.round_ivs}


def build(key: bytes, rounds: int | None) -> Blake2IVs:
    return Blake2IVs(key, rounds)


def not_a_schedule(key: bytes, rounds: int | None) -> str:
    """A wrong escape hatch: returns no key schedule."""
    return "not a schedule"


NOT_CALLABLE = 3


def wrong_signature(key: bytes) -> Blake2IVs:
    """A callable the loader must refuse: it takes no ``rounds``."""
    return Blake2IVs(key)
