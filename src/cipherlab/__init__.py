"""cipherlab: reproducible checks of published AES-variant and AEAD claims.

The cipher core: ``cipherlab.new(key, cipher="aes", mode="ecb", iv=None,
impl="table", padding=True, threads=None, **options)``; see
:mod:`cipherlab.modes`. ``aes-2sbox``, ``maes-1`` and ``maes-2`` are research
ciphers that are **not secure**.
"""
__version__ = "0.1.0"

from cipherlab._cipher import InsecureCipherWarning
from cipherlab.modes import CIPHER_OPTIONS, CIPHERS, IMPLS, MODES, Cipher, new
from cipherlab.sboxes import rijndael_inverse_sbox, rijndael_sbox, second_sbox

__all__ = [
    "new", "Cipher", "CIPHERS", "MODES", "IMPLS", "CIPHER_OPTIONS", "InsecureCipherWarning",
    "rijndael_sbox", "rijndael_inverse_sbox", "second_sbox", "__version__",
]
