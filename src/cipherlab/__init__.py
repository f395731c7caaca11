"""cipherlab: reproducible checks of published AES-variant and AEAD claims.

The cipher core: ``cipherlab.new(key, cipher="aes", mode="ecb", iv=None,
impl="table", padding=True, threads=None, **options)``; see
:mod:`cipherlab.ciphers.modes`. Which ciphers exist, with their options and styles:
:mod:`cipherlab.ciphers.registry` (``cipher_names()``, ``lookup(name)``).
``aes-2sbox`` and ``maes`` (``maes-1``, ``maes-2``) are research ciphers that
are **not secure**.
"""
__version__ = "0.1.0"

from cipherlab.ciphers.modes import IMPLS, MODES, Cipher, new
from cipherlab.ciphers.registry import InsecureCipherWarning, cipher_names, cipher_options, lookup
from cipherlab.ciphers.sboxes import rijndael_inverse_sbox, rijndael_sbox, second_sbox

__all__ = [
    "new", "Cipher", "MODES", "IMPLS", "InsecureCipherWarning", "cipher_names", "cipher_options", "lookup",
    "rijndael_sbox", "rijndael_inverse_sbox", "second_sbox", "__version__",
]
