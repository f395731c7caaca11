"""A toy affine cipher and the small battery settings the variant battery's tests share."""

from __future__ import annotations

import numpy as np

from cipherlab.analysis.claims import CLAIM_COLUMNS
from cipherlab.experiments.variant import affinity

SMALL = dict(correctness_messages=1, correctness_bytes=100, dependency_keys=1, dependency_plaintexts=8,
             avalanche_keys=1, avalanche_plaintexts=4, affinity_triples=8, rounds_triples=4, image_stride=8,
             keystream_bytes=4096, n_sequences=2, measure_speed=False, trail_rounds=4)
#: SMALL with what a paper's claims file also measures (the S-box's keys, the equivalence's keys and blocks)
PAPER_SMALL = dict(SMALL, avalanche_plaintexts=8, sbox_keys=3, equivalence_keys=2, equivalence_blocks=8)
#: A variant paper's claims file's columns: the registry's, those the verdicts issue adds, then the measure
CLAIMS_FILE_COLUMNS = (list(CLAIM_COLUMNS) + [c for c in ("carries", "readings", "quantity", "concern", "reference")
                                              if c not in CLAIM_COLUMNS] + ["measure"])


def invertible_matrix(rng: np.random.Generator, n: int = 128) -> np.ndarray:
    """A random invertible GF(2) matrix: unit lower x unit upper triangular, rows permuted."""
    low = np.tril(rng.integers(0, 2, (n, n)), -1) + np.eye(n, dtype=np.int64)
    up = np.triu(rng.integers(0, 2, (n, n)), 1) + np.eye(n, dtype=np.int64)
    return ((low @ up) % 2)[rng.permutation(n)].astype(np.uint8)


def toy_affine(seed: int):
    """``(oracle, A, c)``: ``E(x) = A x ^ c`` on 128-bit blocks, computed with integer NumPy."""
    rng = np.random.default_rng(seed)
    a = invertible_matrix(rng)
    c = rng.integers(0, 2, 128).astype(np.uint8)

    def encrypt(blocks):
        bits = np.unpackbits(blocks, axis=1).astype(np.int64)
        return np.packbits(((bits @ a.T.astype(np.int64)) % 2).astype(np.uint8) ^ c, axis=1)

    return affinity.BlockOracle(encrypt), a, c
