"""Matrices over GF(2^8) (AES's polynomial ``0x11B``): products, inverses, branch numbers.

A linear layer ``linear: {matrix: ...}`` of a described variant
(:mod:`cipherlab.ciphers.variant_files`) is a 4 x 4 matrix ``M`` applied to each
column of the state, ``column <- M column``, as MixColumns is with
:data:`AES_MIX_MATRIX`. This module holds the arithmetic it needs, exact and
small (a 4 x 4 matrix costs microseconds):

* :func:`gf_mat_vec`, :func:`gf_mat_mul`, :func:`gf_inverse_matrix` (Gauss-Jordan,
  ``None`` when singular), :func:`gf_rank`;
* :func:`branch_number` (differential: ``min wt(x) + wt(M x)`` over ``x != 0``,
  with ``wt`` the number of non-zero bytes) and :func:`linear_branch_number`
  (the same for ``M``'s transpose: a mask ``u`` on the output is the mask
  ``M^T u`` on the input for the trace inner product, and the change of
  basis between trace masks and bit masks is byte-wise, so byte activity is the
  same). ``M`` is MDS when the branch number is ``n + 1`` (5 for 4 x 4).

The branch number is found without enumerating ``2^32`` inputs: ``x`` with
support ``S`` and ``M x`` zero on the rows ``Z`` exists iff the kernel of
``M[Z, S]`` holds a vector with no zero coordinate, which (over a field of 256
elements, more than the at most 4 coordinates) holds iff no coordinate vanishes
on the whole kernel.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np

from cipherlab.ciphers.sboxes import gf_inverse, gf_mul

__all__ = ["AES_MIX_MATRIX", "AES_INV_MIX_MATRIX", "gf_mul_table", "gf_mat_vec", "gf_mat_mul",
           "gf_inverse_matrix", "gf_rank", "branch_number", "linear_branch_number", "circulant"]

#: FIPS-197 MixColumns, ``column <- M column``
AES_MIX_MATRIX = ((2, 3, 1, 1), (1, 2, 3, 1), (1, 1, 2, 3), (3, 1, 1, 2))
#: FIPS-197 InvMixColumns
AES_INV_MIX_MATRIX = ((14, 11, 13, 9), (9, 14, 11, 13), (13, 9, 14, 11), (11, 13, 9, 14))


@lru_cache(maxsize=1)
def _mul_table() -> np.ndarray:
    t = np.array([[gf_mul(a, b) for b in range(256)] for a in range(256)], dtype=np.uint8)
    t.setflags(write=False)
    return t


def gf_mul_table() -> np.ndarray:
    """``uint8[256, 256]``: ``T[a, b] = a * b`` in GF(2^8) (read-only)."""
    return _mul_table()


def _as_matrix(m) -> np.ndarray:
    a = np.asarray(m, dtype=np.int64)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or a.size == 0 or a.min() < 0 or a.max() > 255:
        raise ValueError(f"matrix must be a square list of lists of bytes 0..255, got {np.asarray(m).tolist()!r}")
    return a.astype(np.uint8)


def gf_mat_vec(m, v) -> np.ndarray:
    """``M v`` over GF(2^8); ``v`` may be ``(..., n)`` (each last-axis vector multiplied)."""
    m = _as_matrix(m)
    v = np.asarray(v, dtype=np.uint8)
    prod = _mul_table()[m[None, :, :], v.reshape(-1, 1, m.shape[1])]       # [k, i, j] = M[i, j] v[k, j]
    return np.bitwise_xor.reduce(prod, axis=2).reshape(v.shape[:-1] + (m.shape[0],))


def gf_mat_mul(a, b) -> np.ndarray:
    """``A B`` over GF(2^8)."""
    a, b = _as_matrix(a), _as_matrix(b)
    return gf_mat_vec(a, b.T).T.copy()


def _eliminate(m: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form over GF(2^8) and the pivot columns."""
    t = _mul_table()
    a = np.array(m, dtype=np.uint8, copy=True)
    rows, cols = a.shape
    pivots: list[int] = []
    r = 0
    for c in range(cols):
        nz = [i for i in range(r, rows) if a[i, c]]
        if not nz:
            continue
        a[[r, nz[0]]] = a[[nz[0], r]]
        a[r] = t[gf_inverse(int(a[r, c])), a[r]]
        for i in range(rows):
            if i != r and a[i, c]:
                a[i] ^= t[int(a[i, c]), a[r]]
        pivots.append(c)
        r += 1
        if r == rows:
            break
    return a, pivots


def gf_rank(m) -> int:
    """The rank of ``M`` over GF(2^8)."""
    m = np.asarray(m, dtype=np.uint8)
    return len(_eliminate(m)[1]) if m.size else 0


def gf_inverse_matrix(m) -> "np.ndarray | None":
    """``M^-1`` over GF(2^8), or ``None`` when ``M`` is singular."""
    m = _as_matrix(m)
    n = m.shape[0]
    red, pivots = _eliminate(np.hstack([m, np.eye(n, dtype=np.uint8)]))
    if pivots[:n] != list(range(n)):
        return None
    return red[:, n:].copy()


def _kernel_basis(m: np.ndarray) -> np.ndarray:
    """A basis (rows) of ``{x : M x = 0}`` over GF(2^8)."""
    cols = m.shape[1]
    if m.shape[0] == 0:
        return np.eye(cols, dtype=np.uint8)
    red, pivots = _eliminate(m)
    basis = []
    for f in (c for c in range(cols) if c not in pivots):
        x = np.zeros(cols, dtype=np.uint8)
        x[f] = 1
        for i, p in enumerate(pivots):
            x[p] = red[i, f]          # characteristic 2: -a == a
        basis.append(x)
    return np.array(basis, dtype=np.uint8).reshape(-1, cols)


def branch_number(m) -> int:
    """The differential branch number ``min_{x != 0} wt(x) + wt(M x)`` (byte weights); ``n + 1`` is MDS."""
    m = _as_matrix(m)
    n = m.shape[0]
    best = 2 * n
    for w in range(1, n + 1):
        for support in combinations(range(n), w):
            for zeros in range(n, -1, -1):        # most zero output rows first
                if w + n - zeros >= best:
                    break
                if any(_full_support(m[list(rows)][:, list(support)]) for rows in combinations(range(n), zeros)):
                    best = w + n - zeros
                    break
    return int(best)


def _full_support(sub: np.ndarray) -> bool:
    """Does the kernel of ``sub`` hold a vector with every coordinate non-zero?"""
    basis = _kernel_basis(sub)
    return bool(len(basis)) and bool(basis.any(axis=0).all())


def linear_branch_number(m) -> int:
    """The linear branch number: the differential branch number of ``M^T`` (see the module's note)."""
    return branch_number(_as_matrix(m).T)


def circulant(first_row) -> np.ndarray:
    """The circulant matrix whose row ``i`` is ``first_row`` rotated right by ``i`` (AES's: ``(2, 3, 1, 1)``)."""
    r = np.asarray(first_row, dtype=np.uint8)
    return np.stack([np.roll(r, i) for i in range(r.size)])
