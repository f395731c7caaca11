"""AES-2SBox (papers 000/001): MixColumns replaced by a second S-box.

.. warning::
   A research cipher, **not secure**: do not use it to protect data. With
   MixColumns gone every output byte depends on one input byte only (the round
   is a byte-wise substitution followed by a byte permutation), so it has no
   diffusion between bytes at all.

Round ``r < Nr``: SubBytes, ShiftRows, SubBytesXOR (the second S-box),
AddRoundKey; final round: SubBytes, ShiftRows, AddRoundKey. Decryption runs
the inverse steps in the order the papers give (InvShiftRows, InvSubBytes,
AddRoundKey, InvSubBytesXOR; the last round without InvSubBytesXOR), which is
the exact inverse.

Options: ``xor_byte`` (the papers' ``Key[i]``, default ``0x7F``) and
``construction`` (``"xor-index"`` reproduces the published tables,
``"xor-sbox"`` is the literal prose; see :mod:`cipherlab.ciphers.sboxes`).
"""
from __future__ import annotations

import numpy as np

from cipherlab.ciphers import _kernels as K
from cipherlab.ciphers.aes import AES, apply_step_blocks
from cipherlab.ciphers.registry import ROUNDS, CipherInfo, Option, register
from cipherlab.ciphers.sboxes import SECOND_SBOX_CONSTRUCTIONS, _check_xor_byte, _second_sbox, second_sbox

__all__ = ["AES2SBox", "sub_bytes_xor_blocks", "inv_sub_bytes_xor_blocks"]


class AES2SBox(AES):
    """AES-2SBox key schedule in kernel form (research cipher, **not secure**); trusts its arguments."""

    mix_kind = K.MIX_SECOND_SBOX

    def __init__(self, key: bytes, rounds: int | None = None, xor_byte: int = 0x7F, construction: str = "xor-index"):
        super().__init__(key, rounds)
        self.second = _second_sbox(xor_byte, construction)

    def _extra(self) -> dict:
        return {"second": self.second}


def sub_bytes_xor_blocks(state_blocks, impl: str = "reference", xor_byte: int = 0x7F,
                         construction: str = "xor-index") -> np.ndarray:
    """SubBytesXOR (the second S-box applied to every byte) on each state."""
    return apply_step_blocks(state_blocks, K.STEP_SUBSTITUTE, impl, table=second_sbox(xor_byte, construction)[0])


def inv_sub_bytes_xor_blocks(state_blocks, impl: str = "reference", xor_byte: int = 0x7F,
                             construction: str = "xor-index") -> np.ndarray:
    """Inverse SubBytesXOR on each state."""
    return apply_step_blocks(state_blocks, K.STEP_SUBSTITUTE, impl, table=second_sbox(xor_byte, construction)[1])


register(CipherInfo(
    "aes-2sbox", AES2SBox,
    {"rounds": ROUNDS,
     "xor_byte": Option(0x7F, check=lambda name, value, key_len: _check_xor_byte(value),
                        doc="the papers' Key[i], 0x00..0xFF"),
     "construction": Option("xor-index", SECOND_SBOX_CONSTRUCTIONS,
                            doc="xor-index reproduces the published tables; xor-sbox is the literal prose")},
    summary="AES-2SBox (papers 000/001): MixColumns replaced by a second S-box; NOT secure"))
