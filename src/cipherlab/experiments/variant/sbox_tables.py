"""The S-box tables cryptanalysts read, beside nonlinearity, differential uniformity and degree.

Nonlinearity, differential uniformity, the DDT, LAT and degree are the
security chapter's (:mod:`cipherlab.experiments.security.sbox_properties`);
this module adds, for any ``n``-bit permutation (``2^n`` entries; AES's 8-bit
S-box, PRESENT's 4-bit one):

* the **boomerang connectivity table** (Cid, Huang, Peyrin, Sasaki, Song,
  Eurocrypt 2018): ``BCT[a, b] = #{x : S^-1(S(x) ^ b) ^ S^-1(S(x ^ a) ^ b) = a}``;
  the boomerang uniformity is its largest entry with ``a, b != 0``
  (6 for AES's S-box, 16 for PRESENT's);
* **linear structures**: pairs ``(a, b)``, ``a, b != 0``, with
  ``b . (S(x) ^ S(x ^ a))`` the same for every ``x`` (a component with a constant
  derivative). They are read off the DDT: row ``a``'s Walsh transform at ``b`` is
  ``+-2^n`` exactly then. None for AES's S-box; every pair for an affine map;
* the **degree of the inverse**; **fixed points** and the **cycle structure**
  of the permutation;
* the **DDT and LAT spectra**: how often each value occurs (``a, b != 0``; the
  LAT by absolute value), a small table instead of a 256 x 256 one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.experiments.security.sbox_properties import (algebraic_degree, as_sbox, difference_distribution_table,
                                                            differential_uniformity, fast_walsh_hadamard,
                                                            is_bijective, linear_approximation_table,
                                                            nonlinearity)

__all__ = ["boomerang_connectivity_table", "boomerang_uniformity", "linear_structures", "inverse_degree",
           "cycle_lengths", "spectra_table", "sbox_table", "TABLE_COLUMNS", "PRESENT_SBOX"]

#: the PRESENT S-box (Bogdanov et al., CHES 2007), a 4-bit reference point of the literature
PRESENT_SBOX = (0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD, 0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2)
TABLE_COLUMNS = ("map", "bits", "differential_uniformity", "nonlinearity", "boomerang_uniformity",
                 "linear_structures", "algebraic_degree", "inverse_degree", "fixed_points", "cycles",
                 "longest_cycle", "cycle_type")


def _permutation(sbox) -> np.ndarray:
    s = as_sbox(sbox)
    if not is_bijective(s):
        raise ValueError("sbox: must be a permutation (each output once) for the BCT, inverse degree and cycles")
    return s


def boomerang_connectivity_table(sbox) -> np.ndarray:
    """``BCT[a, b]`` (``int64[2^n, 2^n]``) of a permutation; row and column 0 are all ``2^n``."""
    s = _permutation(sbox)
    n = s.size
    inv = np.argsort(s)
    x = np.arange(n)
    b = np.arange(n)[:, None]
    bct = np.empty((n, n), dtype=np.int64)
    for a in range(n):
        left = inv[s[None, :] ^ b]             # [b, x] S^-1(S(x) ^ b)
        right = inv[s[x ^ a][None, :] ^ b]     # [b, x] S^-1(S(x ^ a) ^ b)
        bct[a] = ((left ^ right) == a).sum(axis=1)
    return bct


def boomerang_uniformity(sbox) -> int:
    """The largest BCT entry with ``a != 0`` and ``b != 0``."""
    return int(boomerang_connectivity_table(sbox)[1:, 1:].max())


def linear_structures(sbox) -> np.ndarray:
    """``int64[k, 3]``: rows ``(a, b, c)``, ``a, b != 0``, with ``b . (S(x) ^ S(x ^ a)) == c`` for every ``x``."""
    ddt = difference_distribution_table(sbox)
    n = ddt.shape[0]
    w = fast_walsh_hadamard(ddt)            # w[a, b] = sum_d DDT[a, d] (-1)^(b.d)
    a, b = np.nonzero(np.abs(w[1:, 1:]) == n)
    return np.stack([a + 1, b + 1, (w[a + 1, b + 1] < 0).astype(np.int64)], axis=1).reshape(-1, 3)


def inverse_degree(sbox) -> int:
    """The algebraic degree of ``S^-1``."""
    return algebraic_degree(np.argsort(_permutation(sbox)))


def cycle_lengths(sbox) -> list[int]:
    """The lengths of the permutation's cycles, longest first (fixed points are cycles of length 1)."""
    s = _permutation(sbox)
    seen = np.zeros(s.size, dtype=bool)
    out = []
    for start in range(s.size):
        length, x = 0, start
        while not seen[x]:
            seen[x] = True
            x = int(s[x])
            length += 1
        if length:
            out.append(length)
    return sorted(out, reverse=True)


def _cycle_type(lengths: list[int]) -> str:
    counts: dict[int, int] = {}
    for n in lengths:
        counts[n] = counts.get(n, 0) + 1
    return " ".join(f"{n}" + (f"^{k}" if k > 1 else "") for n, k in counts.items())


def sbox_table(maps: "dict[str, np.ndarray]") -> pd.DataFrame:
    """One row per named permutation: the measures above beside DU, NL and degree."""
    rows = []
    for name, s in maps.items():
        s = _permutation(s)
        cycles = cycle_lengths(s)
        rows.append({"map": name, "bits": int(s.size).bit_length() - 1,
                     "differential_uniformity": differential_uniformity(s), "nonlinearity": nonlinearity(s),
                     "boomerang_uniformity": boomerang_uniformity(s), "linear_structures": len(linear_structures(s)),
                     "algebraic_degree": algebraic_degree(s), "inverse_degree": inverse_degree(s),
                     "fixed_points": cycles.count(1), "cycles": len(cycles), "longest_cycle": cycles[0],
                     "cycle_type": _cycle_type(cycles)})
    return pd.DataFrame(rows)[list(TABLE_COLUMNS)]


def spectra_table(maps: "dict[str, np.ndarray]") -> pd.DataFrame:
    """The DDT and LAT spectra, long form: ``map, table ("DDT"/"|LAT|"), value, count`` (``a, b != 0``)."""
    rows = []
    for name, s in maps.items():
        for table, values in (("DDT", difference_distribution_table(s)[1:, 1:]),
                              ("|LAT|", np.abs(linear_approximation_table(s)[1:, 1:]))):
            v, c = np.unique(values, return_counts=True)
            rows += [{"map": name, "table": table, "value": int(a), "count": int(k)} for a, k in zip(v, c)]
    return pd.DataFrame(rows, columns=["map", "table", "value", "count"])
