"""MAES's IV stage folds into the round key: the check behind the finding ``002-sec-iv-round-key``.

A MAES round (paper 002) is SubBytes, ShiftRows, XOR with ``IV_r``, AddRoundKey
``k_r``.  Both XORs add a key-dependent constant to the state, so the round is
the same map as SubBytes, ShiftRows and AddRoundKey with the round key
``k_r ^ IV_r``: the IVs, however they are made (SHA-3 or the key expansion),
change only which 16-byte constants the rounds add, which the round keys already
are.  :func:`iv_fold_table` checks this on the cipher itself: MAES's ciphertext
(the library's kernels) against our own byte-by-byte rounds without an IV stage
under the folded round keys, over seeded keys and blocks, for both approaches and
both IV sources.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.names import MAES_IV_SOURCES
from cipherlab.ciphers.maes import MAES
from cipherlab.ciphers.sboxes import rijndael_sbox
from cipherlab.experiments.security.quiet import new_quiet

__all__ = ["folded_encrypt", "iv_fold_table"]

#: ShiftRows as a byte permutation of the column-major state (FIPS-197: row r turns left by r).
_SHIFT = np.array([(r + 4 * ((c + r) % 4)) for c in range(4) for r in range(4)], dtype=np.intp)


def folded_encrypt(blocks: np.ndarray, round_keys: np.ndarray) -> np.ndarray:
    """Rounds of SubBytes, ShiftRows and AddRoundKey only (no mixing, no IV stage), byte by byte in NumPy:
    ``blocks`` ``(n, 16)`` uint8, ``round_keys`` ``(Nr + 1, 16)``."""
    s = rijndael_sbox()
    x = blocks ^ round_keys[0]
    for k in round_keys[1:]:
        x = s[x][:, _SHIFT] ^ k
    return x


def iv_fold_table(*, seed: int, keys: int = 4, blocks: int = 256) -> pd.DataFrame:
    """Per approach and IV source: how many blocks MAES encrypts exactly as the rounds without an IV stage
    under the round keys ``k_r ^ IV_r`` (:func:`folded_encrypt`); columns ``approach, iv_source, keys, blocks,
    equal``."""
    rng = np.random.default_rng(seed)
    out = []
    for approach in (1, 2):
        for source in MAES_IV_SOURCES:
            equal = total = 0
            for _ in range(keys):
                key = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
                pt = rng.integers(0, 256, (blocks, 16), dtype=np.uint8)
                m = MAES(key, approach=approach, iv_source=source)
                folded = m.round_keys ^ m.round_ivs
                ct = np.frombuffer(new_quiet(key, f"maes-{approach}", "ecb", impl="reference",
                                             iv_source=source).encrypt(pt.tobytes()), np.uint8).reshape(-1, 16)
                equal += int(np.all(ct == folded_encrypt(pt, folded), axis=1).sum())
                total += blocks
            out.append({"approach": approach, "iv_source": source, "keys": keys, "blocks": total, "equal": equal})
    return pd.DataFrame(out)
