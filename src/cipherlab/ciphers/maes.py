"""MAES (paper 002): MixColumns replaced by an XOR with a key-derived IV.

.. warning::
   A research cipher, **not secure**: do not use it to protect data. Without
   MixColumns every output byte depends on one input byte only, and the IV
   XOR is a key-dependent constant that merges into the round key.

Approaches (the option ``approach``, default 2; the registered names
``maes-1`` and ``maes-2`` fix it): approach 1 uses one IV for every round,
approach 2 one IV per round. Round ``r < Nr``: SubBytes, ShiftRows, XOR with
``IV_r`` (the paper's "permutation stage"), AddRoundKey; the final round, as in
AES, has no middle step (choice: paper 002 does not say; its Figure 2 shows the
normal rounds only).

Choices where paper 002 is open, each a named option with its default:

``iv_source`` ``"sha3"`` (default) or ``"keyexp"``
    ``sha3``: Figure 6/7 pseudocode. ``IV_1 = SHA3(key)``, ``IV_(i+1) =
    SHA3(IV_i)``, each truncated to its first 16 bytes (the paper's arrays are
    16 bytes wide). ``keyexp``: the FIPS-197 key expansion run on past the last
    round key (same recurrence, Rcon continued in GF(2^8)); the IVs are the
    16-byte blocks that follow ``k_Nr``.
``sha3`` ``"sha3_256"`` (default), ``"sha3_224"``, ``"sha3_384"``, ``"sha3_512"``
    The paper says only "SHA3"; SHA3-224 gives 28 >= 16 bytes, so all work.
``sha3_chain`` ``"iv"`` (default) or ``"digest"``
    What the next SHA-3 call hashes: the truncated 16-byte IV (Figure 7 stores
    the hash into a 16-byte ``IV_VECTOR`` and then sets ``TEMP_VAR`` to it) or
    the full digest.

Approach 2 generates ``Nr`` IVs (Figure 7 loops ``number_of_rounds`` times);
rounds ``1 .. Nr-1`` use ``IV_1 .. IV_(Nr-1)`` and the last one is unused.
With the research option ``rounds=R < Nr`` the IVs are still those of the
full cipher (they depend on the key only) and rounds ``1 .. R-1`` use
``IV_1 .. IV_(R-1)``.
Where the XOR sits in decryption is not a choice: the IV XOR and AddRoundKey
commute and both are their own inverse, so decryption XORs ``IV_r`` right
after AddRoundKey ``k_r``, the place of InvMixColumns in FIPS-197's inverse
cipher; any other place would not invert encryption.
"""
from __future__ import annotations

import hashlib

import numpy as np

from cipherlab.ciphers import _kernels as K
from cipherlab._checks import check_choice
from cipherlab.names import MAES_APPROACHES, MAES_IV_SOURCES, SHA3_CHAINS, SHA3_VARIANTS
from cipherlab.ciphers.aes import AES, _expand_words, _words_to_blocks, apply_step_blocks
from cipherlab.ciphers.registry import AES_ROUNDS, ROUNDS, CipherInfo, Option, check_key, register, register_variant

__all__ = ["MAES", "maes_ivs", "xor_iv_blocks", "IV_SOURCES", "SHA3_VARIANTS", "SHA3_CHAINS", "APPROACHES"]

IV_SOURCES = MAES_IV_SOURCES
APPROACHES = MAES_APPROACHES


def maes_ivs(key, approach: int = 2, iv_source: str = "sha3", sha3: str = "sha3_256",
             sha3_chain: str = "iv") -> np.ndarray:
    """Generate the MAES IV vectors for ``key`` (timeable on its own).

    Parameters
    ----------
    key : bytes-like, 16, 24 or 32 bytes
    approach : {1, 2}
        1: one IV for all rounds; 2: one IV per round (``Nr`` IVs).
    iv_source : {"sha3", "keyexp"}
    sha3 : {"sha3_256", "sha3_224", "sha3_384", "sha3_512"}
    sha3_chain : {"iv", "digest"}

    Returns
    -------
    np.ndarray
        ``uint8[n, 16]`` with ``n = 1`` (approach 1) or ``Nr`` (approach 2).
    """
    return _maes_ivs(check_key(key), check_choice("approach", approach, APPROACHES),
                     check_choice("iv_source", iv_source, IV_SOURCES), check_choice("sha3", sha3, SHA3_VARIANTS),
                     check_choice("sha3_chain", sha3_chain, SHA3_CHAINS))


def _maes_ivs(key: bytes, approach: int, iv_source: str, sha3: str, sha3_chain: str) -> np.ndarray:
    """:func:`maes_ivs` for checked arguments."""
    nr = AES_ROUNDS[len(key)]
    n = 1 if approach == 1 else nr
    if iv_source == "sha3":
        h = getattr(hashlib, sha3)
        out = bytearray()
        chain = key
        for _ in range(n):
            digest = h(chain).digest()
            out += digest[:16]
            chain = digest[:16] if sha3_chain == "iv" else digest
        return np.frombuffer(bytes(out), dtype=np.uint8).reshape(n, 16).copy()
    words = _expand_words(key, 4 * (nr + 1 + n))
    return _words_to_blocks(words[4 * (nr + 1):])


class MAES(AES):
    """MAES key schedule in kernel form (research cipher, **not secure**); trusts its arguments."""

    mix_kind = K.MIX_XOR_IV

    def __init__(self, key: bytes, rounds: int | None = None, approach: int = 2, iv_source: str = "sha3",
                 sha3: str = "sha3_256", sha3_chain: str = "iv"):
        super().__init__(key, rounds)
        self.iv_vectors = _maes_ivs(key, approach, iv_source, sha3, sha3_chain)
        ivs = np.zeros((self.rounds + 1, 16), dtype=np.uint8)
        for r in range(1, self.rounds):
            ivs[r] = self.iv_vectors[0 if approach == 1 else r - 1]
        self.round_ivs = ivs

    def _extra(self) -> dict:
        return {"ivs": self.round_ivs}


def xor_iv_blocks(state_blocks, iv, impl: str = "reference", out=None) -> np.ndarray:
    """The MAES "permutation stage": XOR each state with a 16-byte ``iv``.

    ``impl="reference"`` XORs byte by byte (the paper's Figure 3 loop),
    ``impl="table"`` four 32-bit words.
    """
    iv = np.frombuffer(bytes(iv), dtype=np.uint8) if not isinstance(iv, np.ndarray) else iv
    if iv.dtype != np.uint8 or iv.shape != (16,):
        raise ValueError(f"iv must be 16 bytes, got {iv.shape if isinstance(iv, np.ndarray) else len(iv)}")
    return apply_step_blocks(state_blocks, K.STEP_XOR_IV, impl, iv=np.ascontiguousarray(iv), out=out)


register(CipherInfo(
    "maes", MAES,
    {"rounds": ROUNDS,
     "approach": Option(2, APPROACHES, doc="1: one IV for every round; 2: one IV per round"),
     "iv_source": Option("sha3", IV_SOURCES, doc="sha3: the paper's Figure 6/7; keyexp: the key expansion run on"),
     "sha3": Option("sha3_256", SHA3_VARIANTS, doc="the SHA-3 function of iv_source=sha3"),
     "sha3_chain": Option("iv", SHA3_CHAINS, doc="what the next SHA-3 call hashes: the 16-byte IV or the digest")},
    summary="MAES (paper 002): MixColumns replaced by an XOR with key-derived IVs; NOT secure"))
register_variant("maes-1", "maes", "MAES approach 1: one IV for every round; NOT secure", approach=1)
register_variant("maes-2", "maes", "MAES approach 2: one IV per round; NOT secure", approach=2)
