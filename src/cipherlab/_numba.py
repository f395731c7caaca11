"""The one place where Numba options are set.

Every kernel in :mod:`cipherlab` is decorated with :func:`jit` (serial) or
:func:`pjit` (``parallel=True`` for ``numba.prange`` loops). Both cache the
compiled code on disk (``cache=True``) so that a second process, the pipeline
or CI with a warm cache, does not pay the compile time again.
"""
from __future__ import annotations

import numba

__all__ = ["jit", "pjit", "max_threads"]

_COMMON = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")


def jit(fn=None, **extra):
    """Serial ``numba.njit`` with the project's options (``cache=True``)."""
    opts = {**_COMMON, **extra}
    if fn is None:
        return lambda f: numba.njit(**opts)(f)
    return numba.njit(**opts)(fn)


def pjit(fn=None, **extra):
    """Parallel ``numba.njit(parallel=True)`` with the project's options."""
    opts = {**_COMMON, "parallel": True, **extra}
    if fn is None:
        return lambda f: numba.njit(**opts)(f)
    return numba.njit(**opts)(fn)


def max_threads() -> int:
    """Largest thread count Numba may use in this process (``NUMBA_NUM_THREADS``)."""
    return int(numba.config.NUMBA_NUM_THREADS)
