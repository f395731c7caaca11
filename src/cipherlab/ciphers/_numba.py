"""The one place where Numba options are set.

Every kernel in :mod:`cipherlab` is decorated with :func:`jit` (serial) or
:func:`pjit` (``parallel=True`` for ``numba.prange`` loops). Both cache the
compiled code on disk (``cache=True``) so that a second process, the pipeline
or CI with a warm cache, does not pay the compile time again.

Threading layer: ``workqueue`` (built into Numba), set here once unless the
user chose one with ``NUMBA_THREADING_LAYER``.  Numba's default on Linux is
GNU OpenMP, after which ``fork()`` kills the child ("fork() called from a
process already using GNU OpenMP") and a fork-based ``multiprocessing.Pool``
hangs.  ``workqueue`` is fork-safe but aborts the process when two Python
threads launch parallel kernels at once, so :func:`pjit` kernels take one
process-wide lock per call: parallel kernels run one at a time (each already
uses every thread it is given), serial :func:`jit` kernels stay free of it.
(``tbb`` would be both, but its wheels are missing on some platforms and its
library is not found from a virtual environment without ``LD_LIBRARY_PATH``.)
"""
from __future__ import annotations

import functools
import os
import threading

import numba

__all__ = ["jit", "pjit", "max_threads", "THREADING_LAYER"]

_COMMON = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")

#: The fork-safe threading layer cipherlab selects (unless ``NUMBA_THREADING_LAYER`` is set).
THREADING_LAYER = "workqueue"
if not os.environ.get("NUMBA_THREADING_LAYER"):
    numba.config.THREADING_LAYER = THREADING_LAYER

# workqueue may not be entered by two threads at once: serialise parallel launches.
_PARALLEL_LOCK = threading.Lock()


def _fresh_lock_in_child() -> None:
    # A child forked while another thread held the lock would inherit it held, by a thread
    # that does not exist there, and deadlock on its first parallel call.
    global _PARALLEL_LOCK
    _PARALLEL_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_lock_in_child)


class _Serialised:
    """A ``parallel=True`` dispatcher whose calls hold :data:`_PARALLEL_LOCK`.

    Attribute access (``py_func``, ``signatures``, ``parallel_diagnostics`` ...)
    goes to the dispatcher.  Call these kernels from Python only.
    """

    def __init__(self, dispatcher):
        self._dispatcher = dispatcher
        functools.update_wrapper(self, dispatcher.py_func)

    def __call__(self, *args, **kwargs):
        with _PARALLEL_LOCK:
            return self._dispatcher(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._dispatcher, name)


def jit(fn=None, *, signature=None, **extra):
    """Serial ``numba.njit`` with the project's options (``cache=True``); with ``signature``, compiled
    for it alone, now (an argument of another type is converted to it where that is safe, as a
    writable array to a read-only one, never compiled again)."""
    opts = {**_COMMON, **extra}
    decorate = numba.njit(**opts) if signature is None else numba.njit(signature, **opts)
    if fn is None:
        return decorate
    return decorate(fn)


def pjit(fn=None, **extra):
    """Parallel ``numba.njit(parallel=True)`` with the project's options, called under a
    process-wide lock (the fork-safe ``workqueue`` layer is not thread-safe)."""
    opts = {**_COMMON, "parallel": True, **extra}
    if fn is None:
        return lambda f: _Serialised(numba.njit(**opts)(f))
    return _Serialised(numba.njit(**opts)(fn))


def max_threads() -> int:
    """Largest thread count Numba may use in this process (``NUMBA_NUM_THREADS``)."""
    return int(numba.config.NUMBA_NUM_THREADS)
