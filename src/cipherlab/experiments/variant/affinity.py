"""Is the whole cipher affine over GF(2) for a fixed key?  If so, break it with 129 queries.

Why it works
------------
Write a 16-byte block as a vector of 128 bits (``numpy.unpackbits``: bit 0 is
the most significant bit of byte 0).  A cipher whose every step is affine
over GF(2) (an affine S-box such as the second S-box of paper 000, MixColumns,
ShiftRows, AddRoundKey) is, for a fixed key, one affine map
``E(x) = A x ^ c`` with ``A`` an invertible 128 x 128 bit matrix.

* **Test.** An affine map satisfies ``E(a) ^ E(b) ^ E(d) == E(a ^ b ^ d)``
  for all ``a, b, d`` (the constant ``c`` appears three times on the left,
  once on the right).  A random permutation passes one such triple with
  probability ``2**-128``; :func:`affinity_test` counts how many random
  triples hold.
* **Attack.** With 129 chosen plaintexts, ``0`` and the 128 unit vectors,
  ``E(0) = c`` and ``E(e_i) ^ c`` is column ``i`` of ``A``.  Gaussian
  elimination over GF(2) inverts ``A``, and ``x = A^-1 (y ^ c)`` decrypts
  every ciphertext under that key, without the key.  In CBC the attacker
  undoes the chaining itself, ``P_i = D(C_i) ^ C_(i-1)``.

The attacker code never sees the key: an oracle (:class:`BlockOracle`) holds
the keyed cipher in a closure and counts the blocks it encrypts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cipherlab._checks import check_choice
from cipherlab.experiments.security.attack import MODES, as_bytes_array, cbc_chaining_blocks, strip_pkcs7
from cipherlab.experiments.security.quiet import BLOCK, new_quiet

BITS = 8 * BLOCK
#: plaintext blocks the attack queries: 0 and the 128 unit vectors
ATTACK_QUERIES = BITS + 1


def _check_count(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)



# ----------------------------------------------------------------------------- oracles
class BlockOracle:
    """Chosen-plaintext oracle: single-block encryptions ``E(x)`` of ``uint8[n, 16]``, counted.

    Parameters
    ----------
    encrypt_blocks : callable
        ``uint8[n, 16] -> uint8[n, 16]``; holds the key in its closure.

    Attributes
    ----------
    queries : int
        Blocks encrypted so far.
    """

    def __init__(self, encrypt_blocks):
        if not callable(encrypt_blocks):
            raise ValueError("encrypt_blocks must be callable: uint8[n, 16] -> uint8[n, 16]")
        self._encrypt = encrypt_blocks
        self.queries = 0

    def __call__(self, blocks) -> np.ndarray:
        blocks = np.ascontiguousarray(np.asarray(blocks, dtype=np.uint8).reshape(-1, BLOCK))
        self.queries += blocks.shape[0]
        return np.asarray(self._encrypt(blocks), dtype=np.uint8).reshape(-1, BLOCK)


def cipher_oracle(cipher: str, key: bytes, *, impl: str = "table", **options) -> BlockOracle:
    """An oracle encrypting single blocks with a registered cipher under ``key`` (ECB, no padding)."""
    obj = new_quiet(key, cipher, "ecb", padding=False, impl=impl, **options)

    def encrypt_blocks(blocks: np.ndarray) -> np.ndarray:
        return np.asarray(obj.encrypt(blocks.reshape(-1)), dtype=np.uint8)

    return BlockOracle(encrypt_blocks)


# ----------------------------------------------------------------------------- GF(2) algebra
def to_bits(blocks) -> np.ndarray:
    """``uint8[n, 16]`` -> ``uint8[n, 128]`` bit vectors (MSB of byte 0 first)."""
    return np.unpackbits(np.asarray(blocks, dtype=np.uint8).reshape(-1, BLOCK), axis=1)


def from_bits(bits) -> np.ndarray:
    """``[n, 128]`` bits -> ``uint8[n, 16]`` blocks."""
    return np.packbits(np.asarray(bits, dtype=np.uint8).reshape(-1, BITS), axis=1)


def unit_blocks() -> np.ndarray:
    """The 128 blocks with exactly one bit set, block ``i`` holding bit ``i``."""
    return from_bits(np.eye(BITS, dtype=np.uint8))


def gf2_matmul(a, b) -> np.ndarray:
    """Matrix product over GF(2) of 0/1 arrays (float BLAS: sums below 2**24 are exact)."""
    a = np.asarray(a, dtype=np.float32)
    b = np.asarray(b, dtype=np.float32)
    if a.shape[-1] > 1 << 24:
        raise ValueError("a: inner dimension too large for an exact float product")
    return (np.rint(a @ b).astype(np.int64) & 1).astype(np.uint8)


def gf2_inverse(matrix) -> "np.ndarray | None":
    """Inverse of a square 0/1 matrix over GF(2) by Gauss-Jordan elimination, or ``None`` if singular.

    Rows are eliminated as whole boolean vectors (XOR of the augmented
    ``[M | I]``), so a 128 x 128 matrix takes about a millisecond.
    """
    m = np.asarray(matrix)
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise ValueError(f"matrix must be square, got shape {m.shape}")
    n = m.shape[0]
    aug = np.concatenate([m.astype(bool) , np.eye(n, dtype=bool)], axis=1)
    for col in range(n):
        pivots = np.flatnonzero(aug[col:, col])
        if pivots.size == 0:
            return None
        p = col + pivots[0]
        if p != col:
            aug[[col, p]] = aug[[p, col]]
        rows = np.flatnonzero(aug[:, col])
        rows = rows[rows != col]
        aug[rows] ^= aug[col]
    return aug[:, n:].astype(np.uint8)


# ----------------------------------------------------------------------------- test
def affinity_test(oracle, *, n_triples: int = 64, seed: int = 0) -> dict:
    """How many random triples satisfy ``E(a) ^ E(b) ^ E(d) == E(a ^ b ^ d)``.

    Costs ``4 * n_triples`` oracle blocks.  ``affine`` is True when all hold
    (a non-affine cipher fails almost every triple).
    """
    n_triples = _check_count("n_triples", n_triples)
    rng = np.random.default_rng(seed)
    a, b, d = (rng.integers(0, 256, size=(n_triples, BLOCK), dtype=np.uint8) for _ in range(3))
    before = oracle.queries
    ea, eb, ed, eabd = (oracle(x) for x in (a, b, d, a ^ b ^ d))
    held = int((ea ^ eb ^ ed == eabd).all(axis=1).sum())
    return {"triples": n_triples, "held": held, "affine": held == n_triples,
            "queries": oracle.queries - before}


# ----------------------------------------------------------------------------- attack
@dataclass(frozen=True)
class AffineModel:
    """What the attacker learns: ``E(x) = A x ^ c`` and, if ``A`` is invertible, ``A^-1``."""

    matrix: np.ndarray          # uint8[128, 128]
    constant: np.ndarray        # uint8[128]
    inverse: "np.ndarray | None"

    @property
    def invertible(self) -> bool:
        return self.inverse is not None

    def encrypt_blocks(self, blocks) -> np.ndarray:
        """``A x ^ c`` for every block: the model's prediction of ``E(x)``."""
        return from_bits(gf2_matmul(to_bits(blocks), self.matrix.T) ^ self.constant)

    def decrypt_blocks(self, blocks) -> np.ndarray:
        """``A^-1 (y ^ c)`` for every block; ``ValueError`` if ``A`` is singular."""
        if self.inverse is None:
            raise ValueError("matrix: A is singular, the affine model cannot decrypt")
        return from_bits(gf2_matmul(to_bits(blocks) ^ self.constant, self.inverse.T))


def learn_affine(oracle) -> AffineModel:
    """Recover ``A`` and ``c`` from 129 chosen blocks (0 and the unit vectors), and invert ``A``."""
    queries = np.vstack([np.zeros((1, BLOCK), dtype=np.uint8), unit_blocks()])
    out = to_bits(oracle(queries))
    constant = out[0]
    matrix = (out[1:] ^ constant).T.copy()     # column i = E(e_i) ^ c
    return AffineModel(matrix, constant, gf2_inverse(matrix))


def model_agreement(model: AffineModel, oracle, *, n_blocks: int = 64, seed: int = 0) -> float:
    """Fraction of fresh random blocks whose encryption the model predicts exactly."""
    n_blocks = _check_count("n_blocks", n_blocks)
    x = np.random.default_rng(seed).integers(0, 256, size=(n_blocks, BLOCK), dtype=np.uint8)
    return float((model.encrypt_blocks(x) == oracle(x)).all(axis=1).mean())


def decrypt_with_model(model: AffineModel, ciphertext, mode: str = "ecb", iv=None) -> np.ndarray:
    """Plaintext bytes of an ECB or CBC ciphertext from the learned model (padding kept)."""
    return _decrypt_with_model(model, ciphertext, check_choice("mode", mode, MODES), iv)


def _decrypt_with_model(model: AffineModel, ciphertext, mode: str, iv) -> np.ndarray:
    """:func:`decrypt_with_model` trusting ``mode`` (its caller checked it)."""
    blocks = np.asarray(ciphertext, dtype=np.uint8).reshape(-1, BLOCK)
    plain = model.decrypt_blocks(blocks)
    if mode == "cbc":
        plain = plain ^ cbc_chaining_blocks(blocks, iv)
    return plain.reshape(-1)


def run_affine_attack(cipher: str, key: bytes, plaintext, mode: str = "ecb", iv=None, *,
                      impl: str = "table", **options) -> dict:
    """The victim encrypts ``plaintext`` (PKCS#7); the attacker recovers it from an oracle alone.

    The oracle is ECB under the victim's key (the chosen-plaintext model).

    Returns
    -------
    dict
        ``queries`` (129), ``invertible``, ``bytes``, ``bytes_recovered``,
        ``match_fraction``, ``exact``, ``recovered`` (uint8, the plaintext's
        length) and ``ciphertext``.
    """
    check_choice("mode", mode, MODES)   # here: a model that cannot decrypt never reaches decrypt_with_model
    plain = as_bytes_array(plaintext)
    victim = new_quiet(key, cipher, mode, iv=iv, padding=True, impl=impl, **options)
    target = np.asarray(victim.encrypt(plain), dtype=np.uint8)
    oracle = cipher_oracle(cipher, key, impl=impl, **options)
    model = learn_affine(oracle)
    queries = oracle.queries
    if model.invertible:
        recovered = strip_pkcs7(_decrypt_with_model(model, target, mode, iv))[: plain.size]
    else:
        recovered = np.zeros(0, dtype=np.uint8)
    recovered = np.concatenate([recovered, np.zeros(plain.size - recovered.size, np.uint8)])
    match = recovered == plain
    return {"cipher": cipher, "mode": mode, "queries": queries, "invertible": model.invertible,
            "bytes": int(plain.size), "bytes_recovered": int(match.sum()),
            "match_fraction": float(match.mean()) if plain.size else 1.0, "exact": bool(match.all()),
            "recovered": recovered, "ciphertext": target}


def affinity_table(cipher: str, targets: dict, *, seed: int = 0, n_triples: int = 64,
                   modes=MODES, **options) -> tuple[pd.DataFrame, pd.DataFrame, dict, dict]:
    """The affinity test, then the attack on each named target in each mode.

    Returns
    -------
    test : DataFrame
        One row: triples, held, affine, queries, model_agreement.
    attack : DataFrame
        One row per mode x target: queries, invertible, bytes, bytes_recovered,
        match_fraction, exact.
    recovered, ciphertexts : dict
        ``(mode, target) -> uint8 array``.
    """
    rng = np.random.default_rng(seed)
    key = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
    iv = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
    oracle = cipher_oracle(cipher, key, **options)
    test = affinity_test(oracle, n_triples=n_triples, seed=seed + 1)
    model = learn_affine(oracle)
    test["model_agreement"] = model_agreement(model, oracle, seed=seed + 2)
    test = pd.DataFrame([{"cipher": cipher, **test}])
    rows, recovered, ciphertexts = [], {}, {}
    for mode in modes:
        for name, data in targets.items():
            res = run_affine_attack(cipher, key, data, mode, iv if mode == "cbc" else None, **options)
            recovered[(mode, name)] = res.pop("recovered")
            ciphertexts[(mode, name)] = res.pop("ciphertext")
            rows.append({"target": name, **res})
    cols = ["cipher", "mode", "target", "queries", "invertible", "bytes", "bytes_recovered",
            "match_fraction", "exact"]
    return test, pd.DataFrame(rows)[cols], recovered, ciphertexts
