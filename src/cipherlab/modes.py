"""ECB, CBC and CTR over every cipher and style; PKCS#7; the ``new()`` dispatcher.

Semantics (differences from PyCryptodome are deliberate and simple):

* Every ``encrypt(data)`` / ``decrypt(data)`` call is one **complete message**.
  ECB and CBC pad with PKCS#7 (unless ``padding=False``) and CBC starts from
  ``iv`` on every call; CTR starts its counter at ``iv`` on every call. An
  object is therefore not a stream: two calls are two messages, and
  ``new(...).encrypt(a + b) != obj.encrypt(a) + obj.encrypt(b)`` in general.
* CTR's ``iv`` is the full 16-byte initial counter block, incremented as one
  128-bit big-endian number (PyCryptodome's ``nonce=b"", initial_value=iv``),
  wrapping modulo 2^128.
* ECB, CTR and CBC decryption run in parallel over blocks (``threads``); CBC
  encryption is sequential.
"""
from __future__ import annotations

import warnings

import numba
import numpy as np

from cipherlab import _kernels as K
from cipherlab._cipher import AES_ROUNDS, InsecureCipherWarning, bytes_param, check_key, check_rounds
from cipherlab._numba import max_threads
from cipherlab.aes import AES
from cipherlab.aes_2sbox import AES2SBox
from cipherlab.maes import MAES

__all__ = ["new", "Cipher", "CIPHERS", "MODES", "IMPLS", "CIPHER_OPTIONS", "pkcs7_pad", "pkcs7_unpad",
           "InsecureCipherWarning"]

CIPHERS = ("aes", "aes-2sbox", "maes-1", "maes-2")
MODES = ("ecb", "cbc", "ctr")
IMPLS = ("reference", "table", "aesni")
BLOCK = 16
CIPHER_OPTIONS = {
    "aes": AES.options,
    "aes-2sbox": AES2SBox.options,
    "maes-1": MAES.options,
    "maes-2": MAES.options,
}
# Inputs smaller than this are run by the serial ECB kernel: thread start-up
# would cost more than it saves.
_PARALLEL_MIN_BYTES = 4096


def pkcs7_pad(data: np.ndarray) -> np.ndarray:
    """PKCS#7: append ``n`` bytes of value ``n`` (1..16) to reach a whole block."""
    n = BLOCK - data.shape[0] % BLOCK
    return np.concatenate([data, np.full(n, n, dtype=np.uint8)])


def pkcs7_unpad(data: np.ndarray) -> np.ndarray:
    """Remove PKCS#7 padding; ``ValueError`` if it is malformed."""
    if data.shape[0] == 0 or data.shape[0] % BLOCK:
        raise ValueError("data: padded input must be a non-empty whole number of 16-byte blocks")
    n = int(data[-1])
    if not 1 <= n <= BLOCK or not np.all(data[-n:] == n):
        raise ValueError("data: bad PKCS#7 padding (wrong key or IV, or the data is not padded; use padding=False for block-exact data)")
    return data[:-n]


def _as_array(data, name="data") -> tuple[np.ndarray, type]:
    if isinstance(data, np.ndarray):
        if data.dtype != np.uint8 or data.ndim != 1 or not data.flags.c_contiguous:
            raise ValueError(f"{name} must be bytes, bytearray, memoryview or a contiguous 1-D uint8 array; "
                             f"got an array of dtype {data.dtype}, shape {data.shape}")
        return data, np.ndarray
    if isinstance(data, (bytes, bytearray, memoryview)):
        kind = type(data)
        if isinstance(data, memoryview):
            if not data.c_contiguous:
                raise ValueError(f"{name}: memoryview must be C-contiguous")
            data = data.cast("B")
        return np.frombuffer(data, dtype=np.uint8), kind
    raise ValueError(f"{name} must be bytes, bytearray, memoryview or a contiguous 1-D uint8 array; got {type(data).__name__}")


def _same_kind(out: np.ndarray, kind: type):
    if kind is np.ndarray:
        return out
    if kind is bytearray:
        return bytearray(out.tobytes())
    if kind is memoryview:
        return memoryview(out.tobytes())
    return out.tobytes()


def _check_threads(threads) -> int:
    limit = max_threads()
    if threads is None:
        return limit
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= int(threads) <= limit:
        raise ValueError(f"threads must be None (all cores) or an integer in 1..{limit} (NUMBA_NUM_THREADS), got {threads!r}")
    return int(threads)


def _choice(name, value, allowed):
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    return value


class Cipher:
    """A keyed cipher in one mode; create it with :func:`new`.

    Attributes
    ----------
    cipher, mode, impl : str
    key_size : int (bits)
    rounds : int
    iv : bytes or None
    padding : bool
    threads : int
    options : dict
        The cipher options in effect (defaults filled in).
    secure : bool
        ``False`` for research ciphers and round-reduced AES.
    """

    def __init__(self, key, cipher, mode, iv, impl, padding, threads, options):
        self.cipher = cipher
        self.mode = mode
        self.impl = impl
        self.padding = bool(padding) if mode != "ctr" else False
        self.threads = threads
        key = check_key(key)
        self.key_size = 8 * len(key)
        if cipher == "aes":
            spec = AES(key, **options)
        elif cipher == "aes-2sbox":
            spec = AES2SBox(key, **options)
        else:
            spec = MAES(key, approach=int(cipher[-1]), **options)
        self._spec = spec
        self.rounds = spec.rounds
        self.secure = spec.secure
        self.options = {name: getattr(spec, name) for name in spec.options}
        self.iv = iv
        self._iv_array = None if iv is None else np.frombuffer(iv, dtype=np.uint8)
        if impl == "aesni":
            from Crypto.Cipher import AES as _PyAES
            self._py_aes = _PyAES
            self._key = key
        else:
            self._enc = spec.schedule(impl, decrypt=False)
            self._dec = spec.schedule(impl, decrypt=True)

    def __repr__(self):
        return (f"<cipherlab.Cipher {self.cipher}-{self.key_size} {self.mode} impl={self.impl} "
                f"rounds={self.rounds} threads={self.threads}>")

    # -- kernels --------------------------------------------------------
    def _run(self, kernel, *args):
        previous = numba.get_num_threads()
        numba.set_num_threads(self.threads)
        try:
            kernel(*args)
        finally:
            numba.set_num_threads(previous)

    def _ecb(self, data: np.ndarray, decrypt: bool) -> np.ndarray:
        out = np.empty_like(data)
        sched = self._dec if decrypt else self._enc
        if data.shape[0] < _PARALLEL_MIN_BYTES:
            K.ecb_serial(data, out, *sched)
        else:
            self._run(K.ecb, data, out, *sched)
        return out

    def _pycryptodome(self, data: np.ndarray, decrypt: bool) -> np.ndarray:
        if self.mode == "ecb":
            c = self._py_aes.new(self._key, self._py_aes.MODE_ECB)
        elif self.mode == "cbc":
            c = self._py_aes.new(self._key, self._py_aes.MODE_CBC, iv=self.iv)
        else:
            c = self._py_aes.new(self._key, self._py_aes.MODE_CTR, nonce=b"", initial_value=self.iv)
        raw = c.decrypt(data.tobytes()) if decrypt else c.encrypt(data.tobytes())
        return np.frombuffer(raw, dtype=np.uint8).copy()

    def _process(self, data: np.ndarray, decrypt: bool) -> np.ndarray:
        if self.impl == "aesni":
            return self._pycryptodome(data, decrypt)
        if self.mode == "ecb":
            return self._ecb(data, decrypt)
        out = np.empty_like(data)
        if self.mode == "ctr":
            if data.shape[0]:
                self._run(K.ctr, data, out, self._iv_array, *self._enc)
        elif decrypt:
            self._run(K.cbc_decrypt, data, out, self._iv_array, *self._dec)
        else:
            K.cbc_encrypt(data, out, self._iv_array, *self._enc)
        return out

    # -- public ---------------------------------------------------------
    def encrypt(self, data):
        """Encrypt one complete message.

        Parameters
        ----------
        data : bytes, bytearray, memoryview or contiguous 1-D uint8 array
            Any length with padding on (ECB/CBC) or in CTR; a whole number of
            16-byte blocks with ``padding=False``.

        Returns
        -------
        Same kind as ``data`` (a memoryview comes back as a memoryview of bytes).
        """
        arr, kind = _as_array(data)
        if self.mode != "ctr":
            if self.padding:
                arr = pkcs7_pad(arr)
            elif arr.shape[0] % BLOCK:
                raise ValueError(f"data must be a whole number of 16-byte blocks when padding=False "
                                 f"(got {arr.shape[0]} bytes); use padding=True or the ctr mode")
        return _same_kind(self._process(arr, decrypt=False), kind)

    def decrypt(self, data):
        """Decrypt one complete message (the inverse of :meth:`encrypt`).

        Raises ``ValueError`` for a length that is not a whole number of blocks
        (ECB/CBC) or for bad PKCS#7 padding.
        """
        arr, kind = _as_array(data)
        if self.mode != "ctr" and (arr.shape[0] % BLOCK or (self.padding and arr.shape[0] == 0)):
            raise ValueError(f"data must be a {'non-empty ' if self.padding else ''}whole number of 16-byte blocks "
                             f"to decrypt in {self.mode} mode (got {arr.shape[0]} bytes)")
        out = self._process(arr, decrypt=True)
        if self.mode != "ctr" and self.padding:
            out = pkcs7_unpad(out)
        return _same_kind(out, kind)

    def _one_block(self, block, decrypt):
        arr, kind = _as_array(block, "block")
        if arr.shape[0] != BLOCK:
            raise ValueError(f"block must be exactly 16 bytes, got {arr.shape[0]}")
        if self.impl == "aesni":
            c = self._py_aes.new(self._key, self._py_aes.MODE_ECB)
            raw = c.decrypt(arr.tobytes()) if decrypt else c.encrypt(arr.tobytes())
            return _same_kind(np.frombuffer(raw, dtype=np.uint8).copy(), kind)
        out = np.empty(BLOCK, dtype=np.uint8)
        K.ecb_serial(arr, out, *(self._dec if decrypt else self._enc))
        return _same_kind(out, kind)

    def encrypt_block(self, block):
        """Encrypt exactly one 16-byte block with the raw cipher (no mode, no padding)."""
        return self._one_block(block, False)

    def decrypt_block(self, block):
        """Decrypt exactly one 16-byte block with the raw cipher (no mode, no padding)."""
        return self._one_block(block, True)


def new(key, cipher: str = "aes", mode: str = "ecb", iv=None, impl: str = "table", padding: bool = True,
        threads: int | None = None, **options) -> Cipher:
    """Create a cipher object, in PyCryptodome's ``new(key, mode, iv=...)`` idiom.

    Parameters
    ----------
    key : bytes-like or uint8 array, 16, 24 or 32 bytes
    cipher : {"aes", "aes-2sbox", "maes-1", "maes-2"}
        Everything but ``"aes"`` (and ``"aes"`` with fewer rounds than the
        standard) is a research cipher that is **not secure**; creating one
        emits :class:`InsecureCipherWarning`.
    mode : {"ecb", "cbc", "ctr"}
    iv : bytes-like of 16 bytes
        Required for CBC (the IV) and CTR (the initial counter block); not
        allowed for ECB.
    impl : {"reference", "table", "aesni"}
        ``reference``: byte-oriented FIPS-197 steps; ``table``: T-tables
        (fused tables for the variants); ``aesni``: PyCryptodome's AES
        (hardware AES-NI where available), ``aes`` only, standard rounds.
    padding : bool, default True
        PKCS#7 for ECB and CBC; ``False`` for block-exact data. Ignored by CTR.
    threads : int, optional
        Threads for the parallel kernels, ``1..NUMBA_NUM_THREADS``; ``None``
        means all.
    **options
        Cipher options: ``rounds`` (all ciphers, ``1..Nr``); for
        ``aes-2sbox``: ``xor_byte``, ``construction``; for ``maes-*``:
        ``iv_source``, ``sha3``, ``sha3_chain``. See the cipher modules.

    Returns
    -------
    Cipher
    """
    _choice("cipher", cipher, CIPHERS)
    _choice("mode", mode, MODES)
    _choice("impl", impl, IMPLS)
    if not isinstance(padding, (bool, np.bool_)):
        raise ValueError(f"padding must be True or False, got {padding!r}")
    threads = _check_threads(threads)
    allowed = CIPHER_OPTIONS[cipher]
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"unknown option(s) {unknown} for cipher {cipher!r}; allowed options: {allowed}")
    key = check_key(key)
    check_rounds(options.get("rounds"), len(key))
    if impl == "aesni":
        if cipher != "aes":
            raise ValueError(f"impl 'aesni' is PyCryptodome's AES and exists for cipher 'aes' only, got cipher {cipher!r}; "
                             f"use impl 'reference' or 'table'")
        if options.get("rounds") not in (None, AES_ROUNDS[len(key)]):
            raise ValueError("rounds: impl 'aesni' runs the standard number of rounds only; use impl 'reference' or 'table'")
    if mode == "ecb":
        if iv is not None:
            raise ValueError("iv must be None for mode 'ecb' (ECB takes no IV)")
    else:
        if iv is None:
            raise ValueError(f"iv is required for mode {mode!r}: 16 bytes ({'the IV' if mode == 'cbc' else 'the initial counter block'})")
        iv = bytes_param(iv, "iv", "16 bytes (bytes-like or a 1-D uint8 array)")
        if len(iv) != BLOCK:
            raise ValueError(f"iv must be exactly 16 bytes for mode {mode!r}, got {len(iv)} bytes")
    obj = Cipher(key, cipher, mode, iv, impl, padding, threads, options)
    if not obj.secure:
        what = (f"{cipher!r} is a research cipher" if cipher != "aes"
                else f"AES reduced to {obj.rounds} of {AES_ROUNDS[len(key)]} rounds is a research cipher")
        warnings.warn(f"{what}, NOT secure: do not use it to protect data.", InsecureCipherWarning, stacklevel=2)
    return obj
