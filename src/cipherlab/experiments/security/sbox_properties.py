"""Cryptographic properties of 8-bit S-boxes.

No maintained PyPI package fits: ``sboxU`` on PyPI is an empty wheel, and
``sboxanalyzer`` (0.0.2) needs a full SageMath distribution
(``passagemath-standard``) and targets MILP/SAT modelling. These NumPy
versions are tested against the known Rijndael values and against naive
loop implementations (``tests/naive.py``).

Every function takes an S-box as a length-256 integer array (``S[x]`` is the
output for input ``x``) and works on whole tables with NumPy, so the
256 x 256 tables (DDT, LAT, Walsh spectra) cost milliseconds.

Conventions (those of the S-box literature, e.g. Nyberg 1993; Daemen and
Rijmen, *The Design of Rijndael*, 2002):

* ``DDT[a, b] = #{x : S[x] ^ S[x ^ a] == b}``; the differential uniformity is
  the largest entry with ``a != 0``.
* ``LAT[a, b] = #{x : a.x == b.S[x]} - 128`` (a signed count; ``a.x`` is the
  parity of ``a & x``); the maximum linear bias is ``max |LAT| / 256`` over
  ``b != 0``.
* Nonlinearity is the minimum, over non-zero output masks ``b``, of the
  Hamming distance of the component ``b.S`` to the affine functions,
  ``128 - max|W| / 2`` with ``W`` the Walsh spectrum.
* Algebraic degree is the largest degree among the coordinate functions'
  algebraic normal forms (the Moebius transform of their truth tables).
* SAC (strict avalanche criterion, Webster and Tavares 1985): the 8 x 8
  matrix of ``P(bit j of S(x) flips | bit i of x flips)`` over all ``x``.
* BIC (bit independence criterion): for each pair of output bits ``j != k``,
  (i) the nonlinearity of ``f_j ^ f_k`` and (ii) the largest absolute
  correlation between the flips of bits ``j`` and ``k`` when one input bit
  flips.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

N = 256
NBITS = 8

#: parity of every byte, ``PARITY[v] = popcount(v) & 1``
PARITY = np.array([bin(v).count("1") & 1 for v in range(N)], dtype=np.uint8)
#: Hamming weight of every byte
POPCOUNT = np.array([bin(v).count("1") for v in range(N)], dtype=np.int64)


def as_sbox(sbox) -> np.ndarray:
    """Validate an S-box and return it as ``int64[256]`` (or ``int64[2^n]``, see below).

    The DDT, LAT, Walsh spectrum, nonlinearity, differential uniformity, degree
    and bijectivity also take an ``n``-bit S-box of ``2^n`` entries, ``n`` in
    2..7 (e.g. PRESENT's 4-bit one); SAC and BIC are for 8-bit S-boxes.

    Raises
    ------
    ValueError
        If ``sbox`` does not have 256 (or 4, 8, ..., 128) entries in ``0..size - 1``.
    """
    arr = np.asarray(sbox)
    if arr.ndim != 1 or arr.size not in (4, 8, 16, 32, 64, 128, N):
        raise ValueError(f"sbox: expected 256 entries (or 2^n, n in 2..7), got shape {arr.shape}")
    arr = arr.astype(np.int64)
    if arr.min() < 0 or arr.max() >= arr.size:
        raise ValueError(f"sbox: entries must lie in 0..{arr.size - 1}")
    return arr


def is_bijective(sbox) -> bool:
    """True when every output byte occurs exactly once."""
    s = as_sbox(sbox)
    return bool(np.unique(s).size == s.size)


def fixed_points(sbox) -> np.ndarray:
    """Inputs ``x`` with ``S[x] == x``."""
    s = as_sbox(sbox)
    return np.flatnonzero(s == np.arange(N))


def opposite_fixed_points(sbox) -> np.ndarray:
    """Inputs ``x`` with ``S[x] == x ^ 0xFF`` (the bitwise complement)."""
    s = as_sbox(sbox)
    return np.flatnonzero(s == (np.arange(N) ^ 0xFF))


def difference_distribution_table(sbox) -> np.ndarray:
    """The 256 x 256 difference distribution table (DDT), ``int64``."""
    s = as_sbox(sbox)
    n = s.size
    x = np.arange(n)
    # out[a, x] = S[x] ^ S[x ^ a]
    out = s[None, :] ^ s[x[:, None] ^ x[None, :]]
    rows = np.repeat(np.arange(n), n)
    ddt = np.zeros((n, n), dtype=np.int64)
    np.add.at(ddt, (rows, out.ravel()), 1)
    return ddt


def differential_uniformity(sbox) -> int:
    """Largest DDT entry over non-zero input differences."""
    return int(difference_distribution_table(sbox)[1:].max())


def fast_walsh_hadamard(table: np.ndarray) -> np.ndarray:
    """Walsh-Hadamard transform along the last axis (length a power of two).

    ``out[..., a] = sum_x table[..., x] * (-1) ** (a.x)``.
    """
    out = np.array(table, dtype=np.int64, copy=True)
    n = out.shape[-1]
    h = 1
    while h < n:
        shaped = out.reshape(out.shape[:-1] + (n // (2 * h), 2, h))
        left = shaped[..., 0, :].copy()
        right = shaped[..., 1, :]
        shaped[..., 0, :] = left + right
        shaped[..., 1, :] = left - right
        h *= 2
    return out


def walsh_spectrum(sbox) -> np.ndarray:
    """Walsh spectrum ``W[b, a] = sum_x (-1) ** (b.S(x) ^ a.x)``, 256 x 256."""
    s = as_sbox(sbox)
    # signs[b, x] = (-1) ** (b . S(x))
    signs = 1 - 2 * PARITY[np.arange(s.size)[:, None] & s[None, :]].astype(np.int64)
    return fast_walsh_hadamard(signs)


def linear_approximation_table(sbox) -> np.ndarray:
    """LAT ``[a, b] = #{x : a.x == b.S(x)} - 128`` (input mask ``a`` on rows)."""
    return walsh_spectrum(sbox).T // 2


def max_linear_bias(sbox) -> float:
    """``max |LAT[a, b]| / 256`` over ``b != 0`` (``1/16`` for Rijndael)."""
    lat = linear_approximation_table(sbox)
    return float(np.abs(lat[:, 1:]).max() / lat.shape[0])


def nonlinearity(sbox) -> int:
    """Minimum distance of a non-zero component to the affine functions."""
    w = walsh_spectrum(sbox)
    return int(w.shape[0] // 2 - np.abs(w[1:]).max() // 2)


def boolean_nonlinearity(truth_table) -> int:
    """Nonlinearity of one Boolean function given as a 0/1 truth table."""
    tt = np.asarray(truth_table, dtype=np.int64)
    w = fast_walsh_hadamard(1 - 2 * tt)
    return int(tt.size // 2 - np.abs(w).max() // 2)


def coordinate_functions(sbox) -> np.ndarray:
    """``bits[j, x]`` = bit ``j`` (LSB = 0) of ``S[x]``, shape 8 x 256."""
    s = as_sbox(sbox)
    return ((s[None, :] >> np.arange(NBITS)[:, None]) & 1).astype(np.uint8)


def algebraic_normal_form(truth_table) -> np.ndarray:
    """ANF coefficients (Moebius transform over GF(2)) of truth tables.

    ``anf[..., u] = XOR_{x subset of u} f(x)``; works along the last axis.
    """
    out = np.array(truth_table, dtype=np.uint8, copy=True)
    n = out.shape[-1]
    h = 1
    while h < n:
        shaped = out.reshape(out.shape[:-1] + (n // (2 * h), 2, h))
        shaped[..., 1, :] ^= shaped[..., 0, :]
        h *= 2
    return out


def algebraic_degree(sbox) -> int:
    """Largest ANF degree over the eight coordinate functions."""
    anf = algebraic_normal_form(coordinate_functions(sbox))
    degrees = np.where(anf.astype(bool), POPCOUNT[None, :anf.shape[-1]], -1)
    return int(degrees.max())


def _flip_matrix(sbox) -> np.ndarray:
    """``flips[i, x, j]``: does output bit j change when input bit i flips?"""
    s = as_sbox(sbox)
    x = np.arange(N)
    diff = s[None, :] ^ s[x[None, :] ^ (1 << np.arange(NBITS))[:, None]]
    return ((diff[:, :, None] >> np.arange(NBITS)) & 1).astype(np.int64)


def sac_matrix(sbox) -> np.ndarray:
    """8 x 8 ``P(output bit j flips | input bit i flips)``, rows ``i``."""
    return _flip_matrix(sbox).mean(axis=1)


def bic_nonlinearity(sbox) -> int:
    """Minimum nonlinearity of ``f_j ^ f_k`` over output-bit pairs ``j < k``."""
    bits = coordinate_functions(sbox)
    return min(
        boolean_nonlinearity(bits[j] ^ bits[k])
        for j in range(NBITS)
        for k in range(j + 1, NBITS)
    )


def bic_sac_max_correlation(sbox) -> float:
    """Largest |correlation| between the flips of two output bits.

    For each input bit ``i`` and pair of output bits ``j != k``, the Pearson
    correlation over all ``x`` of the flip indicators; 0 is ideal.
    """
    flips = _flip_matrix(sbox).astype(float)
    worst = 0.0
    for i in range(NBITS):
        with np.errstate(invalid="ignore", divide="ignore"):
            c = np.corrcoef(flips[i].T)
        c = np.nan_to_num(c, nan=1.0)  # a constant flip column is fully dependent
        off = np.abs(c[~np.eye(NBITS, dtype=bool)])
        worst = max(worst, float(off.max()))
    return worst


def sbox_properties(sbox) -> dict:
    """All scalar properties of one S-box as a flat dict."""
    sac = sac_matrix(sbox)
    return {
        "bijective": is_bijective(sbox),
        "fixed_points": int(fixed_points(sbox).size),
        "opposite_fixed_points": int(opposite_fixed_points(sbox).size),
        "nonlinearity": nonlinearity(sbox),
        "differential_uniformity": differential_uniformity(sbox),
        "max_lat_abs": int(np.abs(linear_approximation_table(sbox)[:, 1:]).max()),
        "max_linear_bias": max_linear_bias(sbox),
        "algebraic_degree": algebraic_degree(sbox),
        "sac_mean": float(sac.mean()),
        "sac_max_deviation": float(np.abs(sac - 0.5).max()),
        "bic_nonlinearity": bic_nonlinearity(sbox),
        "bic_sac_max_correlation": bic_sac_max_correlation(sbox),
    }


def sbox_property_table(sboxes: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """One row per named S-box with every property of :func:`sbox_properties`."""
    rows = [{"sbox": name, **sbox_properties(s)} for name, s in sboxes.items()]
    return pd.DataFrame(rows)


def compose(outer, inner) -> np.ndarray:
    """The S-box ``x -> outer[inner[x]]``."""
    return as_sbox(outer)[as_sbox(inner)]
