"""Diffusion of the full (and round-reduced) ciphers, measured.

All measurements encrypt many blocks per call through ``cipherlab.new(...)``
in ECB without padding; keys and plaintexts come from one seeded
``numpy.random.Generator``, so every table is the same run to run.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from cipherlab.ciphers.registry import CipherInfo
from cipherlab.experiments.security.quiet import BLOCK, check_cipher, cipher_label, ecb_encryptor, full_rounds

BITS = 8 * BLOCK


def _keys(rng: np.random.Generator, n_keys: int, key_bytes: int) -> np.ndarray:
    return rng.integers(0, 256, size=(n_keys, key_bytes), dtype=np.uint8)


def _check_positive(name: str, value: int) -> int:
    if not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def byte_change_rates(cipher: "str | CipherInfo", *, n_keys: int = 8, n_plaintexts: int = 256,
                      rounds: "int | None" = None, key_bytes: int = 16, seed: int = 0,
                      impl: str = "table") -> np.ndarray:
    """``rate[i, j]``: fraction of trials in which output byte j changed when
    only input byte i changed (to a random different value).

    Parameters
    ----------
    cipher : str or CipherInfo
        A registered name (``"aes"``, ``"aes-2sbox"``, ``"maes-1"``, ``"maes-2"``, ...)
        or a registry entry (a described cipher).
    n_keys, n_plaintexts : int
        Random keys, and random plaintexts per key; each plaintext is paired
        with 16 modified copies (one per input byte).
    rounds : int or None
        Round-reduced research option of the core; None is the full cipher.
    """
    cipher = check_cipher(cipher)
    n_keys = _check_positive("n_keys", n_keys)
    n_plaintexts = _check_positive("n_plaintexts", n_plaintexts)
    rng = np.random.default_rng(seed)
    changed = np.zeros((BLOCK, BLOCK), dtype=np.int64)
    for key in _keys(rng, n_keys, key_bytes):
        enc = ecb_encryptor(key, cipher, rounds=rounds, impl=impl)
        base = rng.integers(0, 256, size=(n_plaintexts, BLOCK), dtype=np.uint8)
        delta = rng.integers(1, 256, size=(BLOCK, n_plaintexts), dtype=np.uint8)
        # modified[i, n] = base[n] with byte i xored by a non-zero delta
        modified = np.broadcast_to(base, (BLOCK, n_plaintexts, BLOCK)).copy()
        idx = np.arange(BLOCK)
        modified[idx, :, idx] ^= delta
        c0 = enc(base)
        c1 = enc(modified.reshape(-1, BLOCK)).reshape(BLOCK, n_plaintexts, BLOCK)
        changed += (c1 != c0[None]).sum(axis=1)
    return changed / (n_keys * n_plaintexts)


def byte_dependency_matrix(cipher, **kwargs) -> np.ndarray:
    """Boolean 16 x 16: did output byte j ever change when only input byte i changed?

    Keyword arguments as :func:`byte_change_rates`.
    """
    return byte_change_rates(cipher, **kwargs) > 0


def dependency_frame(rates: np.ndarray, cipher, rounds: "int | None" = None) -> pd.DataFrame:
    """A 16 x 16 rate matrix as a tidy frame (one row per input/output byte pair)."""
    i, j = np.meshgrid(np.arange(BLOCK), np.arange(BLOCK), indexing="ij")
    return pd.DataFrame({
        "cipher": cipher_label(cipher),
        "rounds": rounds if rounds is not None else full_rounds(cipher),
        "input_byte": i.ravel(),
        "output_byte": j.ravel(),
        "change_rate": rates.ravel(),
        "depends": rates.ravel() > 0,
    })


def _bit_flip_trials(cipher: CipherInfo, n_keys: int, n_plaintexts: int, rounds, key_bytes: int,
                     seed: int, impl: str):
    """Yield ``flips[n, i, j]`` (bool): output bit j flipped when input bit i flipped."""
    rng = np.random.default_rng(seed)
    # byte i // 8, bit 7 - i % 8: bit 0 is the most significant bit of byte 0
    masks = np.zeros((BITS, BLOCK), dtype=np.uint8)
    masks[np.arange(BITS), np.arange(BITS) // 8] = (0x80 >> (np.arange(BITS) % 8)).astype(np.uint8)
    for key in _keys(rng, n_keys, key_bytes):
        enc = ecb_encryptor(key, cipher, rounds=rounds, impl=impl)
        base = rng.integers(0, 256, size=(n_plaintexts, BLOCK), dtype=np.uint8)
        modified = (base[:, None, :] ^ masks[None, :, :]).reshape(-1, BLOCK)
        c0 = enc(base)
        c1 = enc(modified).reshape(n_plaintexts, BITS, BLOCK)
        diff = c1 ^ c0[:, None, :]
        yield np.unpackbits(diff, axis=2).astype(bool)  # [n, input bit, output bit]


def avalanche_sac(cipher, *, n_keys: int = 4, n_plaintexts: int = 64,
                  rounds: "int | None" = None, key_bytes: int = 16, seed: int = 0,
                  impl: str = "table") -> tuple[np.ndarray, np.ndarray]:
    """Avalanche histogram and 128 x 128 SAC matrix of a cipher.

    Every input bit of every random plaintext is flipped once.

    Returns
    -------
    histogram : ndarray, int64[129]
        ``histogram[k]``: number of single-bit flips that changed exactly
        ``k`` of the 128 ciphertext bits (ideal: Binomial(128, 1/2)).
    sac : ndarray, float[128, 128]
        ``sac[i, j] = P(output bit j flips | input bit i flips)`` (ideal 0.5).
    """
    cipher = check_cipher(cipher)
    n_keys = _check_positive("n_keys", n_keys)
    n_plaintexts = _check_positive("n_plaintexts", n_plaintexts)
    hist = np.zeros(BITS + 1, dtype=np.int64)
    sac = np.zeros((BITS, BITS), dtype=np.int64)
    for flips in _bit_flip_trials(cipher, n_keys, n_plaintexts, rounds, key_bytes, seed, impl):
        hist += np.bincount(flips.sum(axis=2).ravel(), minlength=BITS + 1)
        sac += flips.sum(axis=0)
    return hist, sac / (n_keys * n_plaintexts)


def avalanche_frame(hist: np.ndarray, cipher) -> pd.DataFrame:
    """Avalanche histogram as a tidy frame with the Binomial(128, 1/2) expectation."""
    total = hist.sum()
    k = np.arange(BITS + 1)
    return pd.DataFrame({
        "cipher": cipher_label(cipher),
        "bits_flipped": k,
        "count": hist,
        "fraction": hist / total,
        "binomial_fraction": stats.binom.pmf(k, BITS, 0.5),
    })


def avalanche_summary(hist: np.ndarray, sac: np.ndarray, cipher) -> dict:
    """Mean, spread and extremes of the avalanche, SAC deviation, as one row."""
    k = np.arange(BITS + 1)
    total = hist.sum()
    mean = float((k * hist).sum() / total)
    std = float(np.sqrt(((k - mean) ** 2 * hist).sum() / total))
    nz = np.flatnonzero(hist)
    return {
        "cipher": cipher_label(cipher),
        "flips": int(total),
        "avalanche_mean_bits": mean,
        "avalanche_mean_percent": 100 * mean / BITS,
        "avalanche_std_bits": std,
        "avalanche_min_bits": int(nz.min()),
        "avalanche_max_bits": int(nz.max()),
        "sac_mean": float(sac.mean()),
        "sac_max_abs_deviation": float(np.abs(sac - 0.5).max()),
        "sac_zero_entries": int((sac == 0).sum()),
    }


def rounds_to_full_diffusion(cipher, *, max_rounds: "int | None" = None, n_keys: int = 4,
                             n_plaintexts: int = 64, key_bytes: int = 16, seed: int = 0,
                             impl: str = "table") -> pd.DataFrame:
    """Dependency-matrix density after each number of rounds, 1 .. Nr.

    Returns one row per round count with the number of (input, output) byte
    pairs that depend (out of 256), the mean change rate and whether the
    diffusion is full (all 256 pairs depend).
    """
    cipher = check_cipher(cipher)
    nr = full_rounds(cipher, key_bytes) if max_rounds is None else int(max_rounds)
    rows = []
    for r in range(1, nr + 1):
        rates = byte_change_rates(cipher, n_keys=n_keys, n_plaintexts=n_plaintexts, rounds=r,
                                  key_bytes=key_bytes, seed=seed, impl=impl)
        rows.append({
            "cipher": cipher.name,
            "rounds": r,
            "dependent_pairs": int((rates > 0).sum()),
            "mean_change_rate": float(rates.mean()),
            "full_diffusion": bool((rates > 0).all()),
        })
    return pd.DataFrame(rows)


def first_full_diffusion_round(table: pd.DataFrame) -> "int | None":
    """Smallest round count with full diffusion in a :func:`rounds_to_full_diffusion` frame."""
    full = table.loc[table["full_diffusion"], "rounds"]
    return int(full.min()) if len(full) else None
