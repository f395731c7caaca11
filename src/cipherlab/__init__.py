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
    # The command line (``cipherlab``, ``python -m cipherlab[.x]``): Ctrl-C during the second of
    # imports below ends the process as the signal does, with no traceback; cli.main() restores it.
    import signal as _signal

    _signal.signal(_signal.SIGINT, _signal.SIG_DFL)

from cipherlab.ciphers.modes import IMPLS, MODES, Cipher, new
from cipherlab.ciphers.registry import InsecureCipherWarning, cipher_names, cipher_options, lookup
from cipherlab.ciphers.sboxes import rijndael_inverse_sbox, rijndael_sbox, second_sbox

__all__ = [
    "new", "Cipher", "MODES", "IMPLS", "InsecureCipherWarning", "cipher_names", "cipher_options", "lookup",
    "rijndael_sbox", "rijndael_inverse_sbox", "second_sbox", "__version__",
]
