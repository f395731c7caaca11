"""Diffusion, byte-locality, the integral property and the round count at which each structural property stops holding.

Byte-locality is decided by a measurement, never by the cipher's name: a
cipher is *byte-local* when its byte-dependency matrix
(:func:`cipherlab.experiments.security.diffusion.byte_change_rates`) is a
permutation matrix, each input byte reaching exactly one output byte and each
output byte fed by exactly one input byte.  Only then does the security
chapter's codebook attack (:mod:`cipherlab.experiments.security.attack`) apply.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from cipherlab.ciphers.registry import lookup

from cipherlab.experiments.security import attack, diffusion
from cipherlab.experiments.security.quiet import new_quiet

from cipherlab.experiments.variant.affinity import affinity_test, cipher_oracle
from cipherlab.experiments.variant.integral import is_balanced


#: The structural properties of the table by round, in the order :func:`property_rounds` lists them.
PROPERTIES = ("byte_local", "affine", "balanced", "full_diffusion")


def default_rounds(cipher: str, key_bytes: int = 16, **options) -> int:
    """The rounds ``cipher`` runs by default (its description may fix fewer than AES's Nr)."""
    return int(new_quiet(bytes(key_bytes), cipher, "ecb", padding=False, **options).rounds)


def is_byte_local(rates: np.ndarray) -> bool:
    """True when a 16 x 16 change-rate matrix is a permutation matrix in its non-zero pattern."""
    dep = np.asarray(rates) > 0
    return bool((dep.sum(axis=0) == 1).all() and (dep.sum(axis=1) == 1).all())


def dependency_by_round(cipher: str, *, n_keys: int = 2, n_plaintexts: int = 32, seed: int = 0,
                        max_rounds: "int | None" = None) -> tuple[pd.DataFrame, dict]:
    """The byte-dependency matrix after each round count 1..Nr.

    Returns the tidy frame (:func:`diffusion.dependency_frame` per round,
    ``rounds`` set) and ``{rounds: rates}``.
    """
    nr = default_rounds(cipher) if max_rounds is None else int(max_rounds)
    frames, rates = [], {}
    for r in range(1, nr + 1):
        rates[r] = diffusion.byte_change_rates(cipher, n_keys=n_keys, n_plaintexts=n_plaintexts, rounds=r,
                                               seed=seed)
        frames.append(diffusion.dependency_frame(rates[r], cipher, rounds=r))
    return pd.concat(frames, ignore_index=True), rates


def rounds_table(cipher: str, rates: dict, *, n_triples: int = 16, lambda_sets: int = 2,
                 seed: int = 0) -> pd.DataFrame:
    """One row per round count: dependent byte pairs, full diffusion, byte-local, affine, balanced
    (the integral property over ``lambda_sets`` Λ-sets, :mod:`cipherlab.experiments.variant.integral`)."""
    rng = np.random.default_rng(seed)
    rows = []
    for r, rate in rates.items():
        key = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
        oracle = cipher_oracle(cipher, key, rounds=r)
        aff = affinity_test(oracle, n_triples=n_triples, seed=seed + r)
        rows.append({"cipher": cipher, "rounds": r, "dependent_pairs": int((rate > 0).sum()),
                     "mean_change_rate": float(rate.mean()), "full_diffusion": bool((rate > 0).all()),
                     "byte_local": is_byte_local(rate), "affine": aff["affine"],
                     "affine_triples_held": aff["held"], "affine_triples": aff["triples"],
                     "balanced": is_balanced(oracle, n_sets=lambda_sets, seed=seed + 1000 + r)})
    return pd.DataFrame(rows)


def property_rounds(rounds: pd.DataFrame) -> pd.DataFrame:
    """When each structural property stops (or, for diffusion, starts) holding.

    One row per property: ``holds_at_full`` (at the largest round count
    measured), ``last_round_holding`` (largest r where it holds, else none)
    and ``first_round_failing`` (smallest r where it fails, else none).
    """
    nr = int(rounds["rounds"].max())
    rows = []
    for prop in [p for p in PROPERTIES if p in rounds.columns]:
        holds = rounds.set_index("rounds")[prop].astype(bool)
        yes, no = holds[holds].index, holds[~holds].index
        rows.append({"property": prop, "rounds_measured": nr, "holds_at_full": bool(holds.loc[nr]),
                     "last_round_holding": int(yes.max()) if len(yes) else None,
                     "first_round_holding": int(yes.min()) if len(yes) else None,
                     "first_round_failing": int(no.min()) if len(no) else None})
    return pd.DataFrame(rows).astype({"last_round_holding": "Int64", "first_round_holding": "Int64",
                                      "first_round_failing": "Int64"})


def diffusion_tables(cipher: str, *, n_keys: int = 2, n_plaintexts: int = 32, seed: int = 0):
    """Full-cipher avalanche histogram frame, summary row and SAC matrix (the security chapter's measures)."""
    hist, sac = diffusion.avalanche_sac(cipher, n_keys=n_keys, n_plaintexts=n_plaintexts, seed=seed)
    return (diffusion.avalanche_frame(hist, cipher),
            pd.DataFrame([diffusion.avalanche_summary(hist, sac, cipher)]), sac)


def codebook_table(cipher: str, targets: dict, byte_local: bool, *, seed: int = 0) -> tuple[pd.DataFrame, dict]:
    """The codebook attack where the cipher is byte-local; a row saying why not otherwise."""
    if not byte_local:
        return pd.DataFrame([{"cipher": cipher, "mode": "-", "target": name, "ran": False,
                              "reason": "not byte-local (the dependency matrix is not a permutation)",
                              "queries": 0, "bytes": 0, "bytes_recovered": 0, "match_fraction": 0.0,
                              "exact": False} for name in targets]), {}
    table, recovered, _ = attack.attack_table(targets, ciphers=[cipher], seed=seed)
    table = table.assign(ran=True, reason="byte-local")
    cols = ["cipher", "mode", "target", "ran", "reason", "queries", "bytes", "bytes_recovered",
            "match_fraction", "exact"]
    return table[cols], {(m, t): v for (_, m, t), v in recovered.items()}


def key_avalanche(cipher: str, *, n_keys: int = 2, n_plaintexts: int = 16, seed: int = 0) -> np.ndarray:
    """``histogram[k]``: how many single key-bit flips changed exactly ``k`` of the 128 ciphertext bits.

    Every bit of each seeded key (its first key size) is flipped once, with ``n_plaintexts`` seeded blocks
    encrypted under both keys; an additional key byte, where the variant has one, is drawn with each key and
    kept.  AES's is the control: a one-bit key change already changes about half the ciphertext.
    """
    info = lookup(cipher)
    rng = np.random.default_rng(seed)
    hist = np.zeros(129, dtype=np.int64)
    size = info.key_sizes[0]
    for _ in range(_count("n_keys", n_keys)):
        key = rng.integers(0, 256, size, dtype=np.uint8)
        opts = {"additional_key": int(rng.integers(256))} if "additional_key" in info.options else {}
        blocks = rng.integers(0, 256, (_count("n_plaintexts", n_plaintexts), 16), dtype=np.uint8)
        base = np.frombuffer(new_quiet(key, cipher, "ecb", **opts).encrypt(blocks.tobytes()), dtype=np.uint8)
        for bit in range(8 * size):
            flipped = key.copy()
            flipped[bit // 8] ^= np.uint8(0x80 >> (bit % 8))
            other = np.frombuffer(new_quiet(flipped, cipher, "ecb", **opts).encrypt(blocks.tobytes()), dtype=np.uint8)
            changed = np.unpackbits((base ^ other).reshape(-1, 16), axis=1).sum(axis=1)
            hist += np.bincount(changed, minlength=129)
    return hist


def _count(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def mean_interval(hist: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """``(mean, low, high)`` in percent of 128 bits, from a histogram of changed bits: the normal interval
    of the mean, the flips taken as independent trials."""
    k = np.arange(hist.size)
    n = hist.sum()
    mean = float((k * hist).sum() / n)
    sd = float(np.sqrt(((k - mean) ** 2 * hist).sum() / max(n - 1, 1)))
    half = float(stats.norm.ppf(0.5 + confidence / 2)) * sd / np.sqrt(n)
    return 100 * mean / 128, 100 * (mean - half) / 128, 100 * (mean + half) / 128
