"""cipherlab: reproducible checks of published AES-variant and AEAD claims.

The cipher core: ``cipherlab.new(key, cipher="aes", mode="ecb", iv=None,
impl="table", padding=True, threads=None, **options)``; see
:mod:`cipherlab.ciphers.modes`. Which ciphers exist, with their options and styles:
:mod:`cipherlab.ciphers.registry` (``cipher_names()``, ``lookup(name)``).
``aes-2sbox`` and ``maes`` (``maes-1``, ``maes-2``) are research ciphers that
are **not secure**.
"""
__version__ = "0.1.0"

import sys as _sys

if _sys.argv[:1] == ["-m"] or _sys.argv[0].endswith(("/cipherlab", "\\cipherlab.exe")):
    # The command line (``cipherlab``, ``python -m cipherlab[.x]``): Ctrl-C during the seconds of
    # imports (Numba, pandas) ends the process as the signal does, with no traceback; cli.main() restores it.
    import signal as _signal

    _signal.signal(_signal.SIGINT, _signal.SIG_DFL)

# The public API, imported on first use (PEP 562): ``import cipherlab.pipeline`` (the Snakefile reads the
# chapters' declarations) costs no Numba compile set-up; ``cipherlab.new`` costs it once, as before.
_API = {
    "cipherlab.ciphers.modes": ("new", "Cipher", "MODES", "IMPLS"),
    "cipherlab.ciphers.registry": ("InsecureCipherWarning", "cipher_names", "cipher_options", "lookup"),
    "cipherlab.ciphers.sboxes": ("rijndael_sbox", "rijndael_inverse_sbox", "second_sbox"),
}
_HOME = {name: module for module, names in _API.items() for name in names}

__all__ = [*_HOME, "__version__"]


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module 'cipherlab' has no attribute {name!r}")
    import importlib

    importlib.import_module("cipherlab.ciphers.modes")   # the cipher modules register themselves
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))
