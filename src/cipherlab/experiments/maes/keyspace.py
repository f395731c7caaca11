"""Key space of the MAES chapter: the key sizes each cipher takes and the cost of exhaustive search.

Deterministic: exact counts as decimal strings, the published key sizes from
``data/paper/002_*.csv``.
"""
from __future__ import annotations

import math
import warnings
from typing import Sequence

import pandas as pd

from cipherlab import new
from cipherlab.analysis.paper import published
from cipherlab.experiments.maes.common import CIPHERS, PAPER


KEY_SPACE_NOTE = (
    "Key space bounds only exhaustive search. It says nothing about shortcuts: a cipher whose "
    "ciphertext bytes each depend on one plaintext byte (MAES) keeps AES's key space and still "
    "falls to attacks that never guess the key (codebooks per byte position, chosen plaintext). "
    "A large key space is necessary for security, not sufficient."
)


def keyspace_table(key_bits: Sequence[int] = (128, 192, 256), keys_per_second: float = 1e12) -> pd.DataFrame:
    """Key sizes and brute-force counts.

    Columns ``key_bits, keys`` (``2**key_bits`` as an exact decimal string),
    ``log10_keys``, ``expected_trials`` (half the key space, as a decimal
    string), ``years_at_rate`` (expected years at ``keys_per_second``) and
    ``published_key_bits`` (from the paper's Section 3, where stated) and
    ``accepted_by`` (which of our ciphers take a key of that size).
    """
    if keys_per_second <= 0:
        raise ValueError(f"keys_per_second must be > 0, got {keys_per_second}")
    bits = [int(b) for b in key_bits]
    for b in bits:
        if b < 1:
            raise ValueError(f"key_bits must be positive integers, got {b}")
    pub = published(PAPER, "Key space (prose)")
    # the AES key sizes the paper names (not its 3-bit illustration)
    sel = (pub["column"] == "Key length") & pub["row"].str.startswith("AES-")
    pub_bits = set(pub.loc[sel, "number"].dropna().astype(int))
    rows = []
    for b in bits:
        keys = 2 ** b
        rows.append({
            "key_bits": b,
            "keys": str(keys),
            "log10_keys": b * math.log10(2.0),
            "expected_trials": str(keys // 2),
            "years_at_rate": (keys / 2) / keys_per_second / (365.25 * 24 * 3600),
            "keys_per_second": keys_per_second,
            "published_key_bits": b in pub_bits,
            "accepted_by": " ".join(c for c in CIPHERS if _accepts_key_bits(c, b)),
        })
    return pd.DataFrame(rows)


def _accepts_key_bits(cipher: str, bits: int) -> bool:
    """True when :func:`cipherlab.new` accepts a key of ``bits`` bits for ``cipher``."""
    if bits % 8:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            new(bytes(bits // 8), cipher=cipher, mode="ecb", padding=False)
    except ValueError:
        return False
    return True
