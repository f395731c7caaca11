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
* The input is never copied (PKCS#7 pads the last block in the output array).
  A uint8 array comes back as the array the kernels wrote. For ``bytes``,
  ``bytearray`` and ``memoryview`` the kernels write into a scratch array
  this thread keeps (up to :data:`SCRATCH_MAX_BYTES`; larger messages get a
  fresh one) and the result is one copy of it: a fresh output array per call
  would cost a page fault per 4 KiB page (the allocator returns two freed
  buffers of a large message to the OS), several times the cipher's own time.
  A call on ``bytes`` peaks at about twice the message.
* Styles (``impl``): ``reference``, ``table`` and ``aesni`` are cipherlab's
  own kernels for every cipher; ``pycryptodome`` is the outside reference
  (AES only); ``auto`` resolves to ``aesni`` where available, else ``table``.
"""
from __future__ import annotations

import sys
import threading
import warnings

import numba
import numpy as np
from Crypto.Cipher import AES as PyAES

# the cipher modules register themselves on import (aes, aes_2sbox, maes)
import cipherlab.ciphers.aes  # noqa: F401
import cipherlab.ciphers.aes_2sbox  # noqa: F401
import cipherlab.ciphers.maes  # noqa: F401
from cipherlab.ciphers import _aesni as HW
from cipherlab.ciphers import _kernels as K
from cipherlab._checks import check_bytes, check_choice
from cipherlab.names import AUTO, MODES
from cipherlab.ciphers._numba import max_threads
from cipherlab.ciphers._threads import run_team
from cipherlab.ciphers.cpu import check_aesni, has_aesni, pycryptodome_options
from cipherlab.ciphers.registry import (AES_ROUNDS, STYLES, CipherInfo, InsecureCipherWarning, check_key, cipher_entry,
                                        registered)

__all__ = ["new", "Cipher", "MODES", "IMPLS", "pkcs7_pad", "pkcs7_unpad", "resolve_impl", "available_impls",
           "pycryptodome_aes", "InsecureCipherWarning"]

#: Implementation styles (:data:`cipherlab.names.STYLES`): cipherlab's three (byte-wise, T-tables, AES-NI
#: kernels) and PyCryptodome's AES as the outside reference (``aes`` with standard rounds only).
#: Which cipher has which: :func:`cipherlab.ciphers.registry.lookup` ``(cipher).styles``.
IMPLS = STYLES
BLOCK = 16
# fast membership tests for the common case (exact str values); anything else goes through check_choice
_MODE_SET = frozenset(MODES)
_IMPL_SET = frozenset(IMPLS)
# Inputs smaller than this (two chunks of the parallel kernels: below it a second thread has a
# partial chunk at most) run on the serial kernels: starting a parallel region costs tens of
# microseconds, more than the table style takes for a few kilobytes.
_PARALLEL_MIN_BYTES = 2 * 16 * K.CHUNK_BLOCKS
_U8 = np.dtype(np.uint8)  # a dtype object: one given by name or type is looked up on every call


def pycryptodome_aes(key: bytes, mode: str, iv: "bytes | None" = None):
    """PyCryptodome's AES object for ``mode`` with this module's semantics (CTR: ``iv`` is the whole 128-bit
    initial counter block, PyCryptodome's ``nonce=b"", initial_value=iv``): what ``impl="pycryptodome"`` runs,
    and the outside reference the self-check, the benchmark and the chapters compare with.  Trusts its
    arguments (a key PyCryptodome takes, a mode of :data:`MODES`, a 16-byte ``iv`` for CBC and CTR).
    Where this process plays a machine without AES instructions, PyCryptodome does without them too
    (:func:`cipherlab.ciphers.cpu.pycryptodome_options`)."""
    hw = pycryptodome_options()
    if mode == "ecb":
        return PyAES.new(key, PyAES.MODE_ECB, **hw)
    if mode == "cbc":
        return PyAES.new(key, PyAES.MODE_CBC, iv=iv, **hw)
    return PyAES.new(key, PyAES.MODE_CTR, nonce=b"", initial_value=iv, **hw)


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
    if type(data) is bytes:  # the common case first
        return np.frombuffer(data, _U8), bytes
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


#: Messages from SCRATCH_MIN_BYTES to SCRATCH_MAX_BYTES in ``bytes``, ``bytearray`` or ``memoryview`` are
#: written into a scratch array the calling thread keeps (its size is the largest such message it has had,
#: at most this); shorter ones into a fresh array (the allocator keeps those warm: no page faults).
SCRATCH_MIN_BYTES = 1 << 16
SCRATCH_MAX_BYTES = 32 << 20
_SCRATCH = threading.local()


def _output(n: int, kind: type) -> np.ndarray:
    """An ``n``-byte array for the kernels to write a result of ``kind`` into: a fresh array for a uint8
    array (the caller gets it), else this thread's scratch array, taken out of the thread's keeping until
    :func:`_same_kind` has copied the result and gives it back (a call made meanwhile on this thread, from
    a signal handler say, gets a fresh one: no call ever writes where another's result still is)."""
    if kind is np.ndarray or n < SCRATCH_MIN_BYTES or n > SCRATCH_MAX_BYTES:
        return np.empty(n, _U8)
    scratch = _SCRATCH.__dict__.pop("array", None)
    if scratch is None or scratch.shape[0] < n:
        scratch = np.empty(max(n, 4096), _U8)
    return scratch[:n]


def _same_kind(out: np.ndarray, kind: type):
    """The result ``out`` as ``kind``: ``out`` itself for a uint8 array, else one copy of it, after
    which the scratch array under ``out`` (if it is one) goes back to this thread's keeping."""
    if kind is np.ndarray:
        return out
    base = out.base
    if base is None:  # a fresh array (a short message): nothing to give back
        return out.tobytes() if kind is bytes else bytearray(out) if kind is bytearray else memoryview(out.tobytes())
    if kind is bytearray:
        result = bytearray(out)
    elif kind is memoryview:
        result = memoryview(out.tobytes())
    else:  # bytes (and a subclass of bytes or bytearray given: plain bytes, as before)
        result = out.tobytes()
    if type(base) is np.ndarray and base.base is None and base.shape[0] <= SCRATCH_MAX_BYTES:
        scratch = _SCRATCH.__dict__.get("array")
        if scratch is None or scratch.shape[0] < base.shape[0]:
            _SCRATCH.array = base
    return result


def _check_threads(threads) -> int:
    limit = max_threads()
    if threads is None:
        return limit
    if type(threads) is int and 1 <= threads <= limit:  # the common case first
        return threads
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= int(threads) <= limit:
        raise ValueError(f"threads must be None (all cores) or an integer in 1..{limit} (NUMBA_NUM_THREADS), got {threads!r}")
    return int(threads)


def resolve_impl(impl: str) -> str:
    """``"auto"`` becomes the fastest style available here (``aesni``, else ``table``); others pass through."""
    if impl in _IMPL_SET:
        return impl
    check_choice("impl", impl, IMPLS + (AUTO,))
    if impl == AUTO:
        return "aesni" if has_aesni() else "table"
    return impl


def available_impls() -> tuple[str, ...]:
    """The styles that can run in this process (``aesni`` needs AES-NI on the JIT target)."""
    return tuple(i for i in IMPLS if i != "aesni" or has_aesni())


def _warn_insecure(obj: "Cipher") -> None:
    """:class:`InsecureCipherWarning` for a research cipher, however it was made (``new()`` or ``Cipher()``),
    attributed to the user's line (the caller of ``new`` or of ``Cipher``)."""
    what = (f"{obj.cipher!r} is a research cipher" if obj._info.research
            else f"AES reduced to {obj.rounds} of {AES_ROUNDS[obj.key_size // 8]} rounds is a research cipher")
    via_new = sys._getframe(2).f_code is new.__code__
    warnings.warn(f"{what}, NOT secure: do not use it to protect data.", InsecureCipherWarning,
                  stacklevel=4 if via_new else 3)


def _check_choices(cipher, mode, impl, padding, threads) -> tuple:
    """``(entry, impl, threads)`` for the arguments of :func:`new` that are not per message or key
    (``"auto"`` and ``None`` resolved); ``ValueError`` naming the first bad one."""
    info = cipher_entry(cipher)
    if mode not in _MODE_SET:
        check_choice("mode", mode, MODES)
    impl = resolve_impl(impl)
    if impl not in info.styles:
        raise ValueError(f"impl {impl!r} is not a style of cipher {info.name!r}: its styles are {info.styles}")
    if not isinstance(padding, (bool, np.bool_)):
        raise ValueError(f"padding must be True or False, got {padding!r}")
    threads = _check_threads(threads)
    if impl == "aesni":
        check_aesni()  # before anything is compiled: a missing +aes would abort the interpreter
    return info, impl, threads


#: ``(cipher, mode, impl, padding, threads) -> _check_choices(...)`` for the combinations that passed.
#: Only arguments of exactly ``str``, ``bool``, ``int`` or None are kept (``True == 1`` would otherwise
#: let ``threads=True`` through). A hit counts only while the registry still maps the name to the
#: entry that was checked, so registering, re-registering or swapping the registry can never leave
#: it stale. The CPU features and the thread limit are fixed for the life of the process.
_CHECKED: dict = {}


class Cipher:
    """A keyed cipher in one mode; create it with :func:`new` (same arguments, same checks).

    All attributes are read-only: a cipher object never changes after creation
    (make a new one for another key, mode or option).

    Attributes
    ----------
    cipher, mode, impl : str
        ``impl`` is the style in use (``"auto"`` resolved).
    key_size : int (bits)
    rounds : int
    iv : bytes or None
    padding : bool
    threads : int
    options : dict
        The cipher options in effect (defaults filled in; a copy).
    secure : bool
        ``False`` for research ciphers and round-reduced AES.
    """

    def __init__(self, key, cipher: "str | CipherInfo" = "aes", mode: str = "ecb", iv=None, impl: str = "table",
                 padding: bool = True, threads: int | None = None, options: dict | None = None):
        # The checks of (cipher, mode, impl, padding, threads) are made once per combination
        # (_CHECKED); the key, IV and options are checked on every call.
        if (type(cipher) is str and type(mode) is str and type(impl) is str and type(padding) is bool
                and (threads is None or type(threads) is int)):
            memo = (cipher, mode, impl, padding, threads)
            checked = _CHECKED.get(memo)
            if checked is None or registered(cipher) is not checked[0]:
                checked = _CHECKED[memo] = _check_choices(cipher, mode, impl, padding, threads)
        else:
            checked = _check_choices(cipher, mode, impl, padding, threads)
        info, impl, threads = checked
        cipher = info.name
        key = check_key(key, info.key_sizes)
        given = options
        options = info.check_options(given, len(key)) if given else info.defaults(len(key))
        nr = AES_ROUNDS[len(key)]
        rounds = options.get("rounds", nr)
        if impl == "pycryptodome" and rounds != nr:
            raise ValueError("rounds: impl 'pycryptodome' runs the standard number of rounds only; "
                             "use impl 'aesni', 'table' or 'reference'")
        if mode == "ecb":
            if iv is not None:
                raise ValueError("iv must be None for mode 'ecb' (ECB takes no IV)")
        else:
            if iv is None:
                raise ValueError(f"iv is required for mode {mode!r}: 16 bytes "
                                 f"({'the IV' if mode == 'cbc' else 'the initial counter block'})")
            if type(iv) is not bytes:
                iv = check_bytes("iv", iv, "16 bytes (bytes-like or a 1-D uint8 array)")
            if len(iv) != BLOCK:
                raise ValueError(f"iv must be exactly 16 bytes for mode {mode!r}, got {len(iv)} bytes")
        # everything is checked: from here on the core trusts its arguments. The attributes go
        # straight into __dict__ (__setattr__ refuses every write); what is None for most objects
        # (_iv, _iv_array, the decryption schedule _dec) is a class attribute until set.
        d = self.__dict__
        d["_cipher"], d["_mode"], d["_impl"], d["_info"] = cipher, mode, impl, info
        d["_padding"] = bool(padding) if mode != "ctr" else False
        d["_threads"] = threads
        d["_key_size"] = 8 * len(key)
        d["_rounds"] = rounds
        d["_options"] = options
        if iv is not None:
            d["_iv"] = iv
            d["_iv_array"] = np.frombuffer(iv, _U8)
        # The decryption schedule is made on the first decryption (_decryption): an object that only
        # encrypts (every CTR object, most others) never pays for it.
        if impl == "pycryptodome":
            d["_key"] = key
        else:
            spec = d["_spec"] = info.make(key, options if given else None)
            d["_enc"] = HW.plan(spec, decrypt=False) if impl == "aesni" else spec.schedule(impl, decrypt=False)
        if info.research or rounds != nr:
            _warn_insecure(self)

    _iv = _iv_array = _dec = None
    #: The hardware style's one-call path: ``(kernel, keys, team)`` of a VAES entry point per direction (index
    #: 0: encryption, 1: decryption; ``team`` None on one thread), made on the direction's first message; False
    #: where the object runs elsewhere (another style or mode, the 128-bit kernels). An object keeps the width
    #: it ran at.
    _wide = (None, None)

    def _wide_path(self, decrypt: bool):
        """The VAES entry point and keys of this object's ECB or CTR in one direction, or False."""
        hot = False
        if self._impl == "aesni" and self._mode != "cbc":
            plan = self._decryption() if decrypt and self._mode == "ecb" else self._enc
            mode = "ctr" if self._mode == "ctr" else "ecb-decrypt" if decrypt else "ecb-encrypt"
            kernel = HW.wide_kernel(plan, mode)
            if kernel is not None:
                hot = (kernel, plan.rk, HW.wide_team(plan, mode) if self._threads > 1 else None)
        wide = list(self._wide)
        wide[decrypt] = hot
        object.__setattr__(self, "_wide", tuple(wide))
        return hot

    def _one_call(self, arr: np.ndarray, hot: tuple, kind: type) -> np.ndarray:
        """``arr`` through the object's VAES entry point ``hot`` ``(kernel, keys, team)``, into :func:`_output`
        of ``kind``: CTR, or ECB on whole blocks (the caller checked the length). A short message, or any on
        one thread, is one kernel call on the calling thread; a long one on more threads goes straight to
        :func:`cipherlab.ciphers._threads.run_team` (one thread or shared, as measured)."""
        n = arr.shape[0]
        out = _output(n, kind)
        if not n:
            return out
        if n < HW.PARALLEL_MIN_BYTES or self._threads == 1:
            if self._mode == "ctr":
                hot[0](arr, out, self._iv_array, 0, (n + 15) >> 4, hot[1])
            else:
                hot[0](arr, out, 0, n >> 4, hot[1])
            return out
        args = (arr, out, self._iv_array, 0, (n + 15) >> 4, hot[1]) if self._mode == "ctr" else \
            (arr, out, 0, n >> 4, hot[1])
        run_team(hot[0], hot[2], args, n, self._threads)
        return out

    def _decryption(self):
        """The decryption schedule, made once on first use (a benign race: two threads make equal ones)."""
        dec = self._dec
        if dec is None:
            dec = HW.plan(self._spec, decrypt=True) if self._impl == "aesni" else self._spec.schedule(self._impl, True)
            object.__setattr__(self, "_dec", dec)
        return dec

    def __setattr__(self, name, value):
        raise AttributeError(f"Cipher attributes are read-only (tried to set {name!r}); "
                             f"create a new object with cipherlab.new(...)")

    cipher = property(lambda self: self._cipher)
    mode = property(lambda self: self._mode)
    impl = property(lambda self: self._impl)
    iv = property(lambda self: self._iv)
    padding = property(lambda self: self._padding)
    threads = property(lambda self: self._threads)
    key_size = property(lambda self: self._key_size)
    rounds = property(lambda self: self._rounds)
    secure = property(lambda self: not self._info.research and self._rounds == AES_ROUNDS[self._key_size // 8])
    options = property(lambda self: dict(self._options))

    def __repr__(self):
        return (f"<cipherlab.Cipher {self.cipher}-{self.key_size} {self.mode} impl={self.impl} "
                f"rounds={self.rounds} threads={self.threads}>")

    # -- kernels --------------------------------------------------------
    def _run(self, kernel, serial, inp, *args):
        """``kernel(inp, *args)`` on the object's threads, or its ``serial`` twin where threads do
        not pay (one thread, or an input under ``_PARALLEL_MIN_BYTES``)."""
        if self._threads == 1 or inp.shape[0] < _PARALLEL_MIN_BYTES:
            serial(inp, *args)
            return
        previous = numba.get_num_threads()
        numba.set_num_threads(self._threads)
        try:
            kernel(inp, *args)
        finally:
            numba.set_num_threads(previous)

    def _pycryptodome(self, data: np.ndarray, decrypt: bool) -> np.ndarray:
        c = pycryptodome_aes(self._key, self._mode, self._iv)
        raw = c.decrypt(memoryview(data)) if decrypt else c.encrypt(memoryview(data))
        return np.frombuffer(raw, dtype=np.uint8)

    def _blocks(self, inp: np.ndarray, out: np.ndarray, decrypt: bool, iv=None) -> None:
        """ECB or CBC over whole blocks from ``inp`` into ``out`` (same length; in place allowed
        except for CBC decryption); ``iv`` overrides the object's IV (a 16-byte array)."""
        if inp.shape[0] == 0:
            return
        iv = self._iv_array if iv is None else iv
        sched = self._decryption() if decrypt else self._enc
        if self._impl == "aesni":
            if self._mode == "ecb":
                HW.ecb(inp, out, sched, decrypt, self._threads)
            elif decrypt:
                HW.cbc_decrypt(inp, out, HW.block(iv), sched, self._threads)
            else:
                HW.cbc_encrypt(inp, out, HW.block(iv), sched)
        elif self._mode == "ecb":
            self._run(K.ecb, K.ecb_serial, inp, out, *sched)
        elif decrypt:
            self._run(K.cbc_decrypt, K.cbc_decrypt_serial, inp, out, iv, *sched)
        else:
            K.cbc_encrypt(inp, out, iv, *sched)

    def _ctr(self, inp: np.ndarray, out: np.ndarray) -> None:
        if inp.shape[0] == 0:
            return
        if self._impl == "aesni":
            HW.ctr(inp, out, self._iv_array, self._enc, self._threads)
        else:
            self._run(K.ctr, K.ctr_serial, inp, out, self._iv_array, *self._enc)

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
        n = arr.shape[0]
        if self._mode != "ctr" and not self._padding and n % BLOCK:
            raise ValueError(f"data must be a whole number of 16-byte blocks when padding=False "
                             f"(got {n} bytes); use padding=True or the ctr mode")
        hot = self._wide[0]
        if hot is None:
            hot = self._wide_path(False)
        if hot and (self._mode == "ctr" or not self._padding):
            out = self._one_call(arr, hot, kind)  # one kernel call, or the team's path: nothing else
            return out.tobytes() if kind is bytes and out.base is None else _same_kind(out, kind)
        if self._impl == "pycryptodome":
            raw = arr if self._mode == "ctr" or not self._padding else pkcs7_pad(arr)
            return _same_kind(self._pycryptodome(raw, decrypt=False), kind)
        if self._mode == "ctr":
            out = _output(n, kind)
            self._ctr(arr, out)
            return _same_kind(out, kind)
        full = n - n % BLOCK
        out = _output(full + BLOCK if self._padding else full, kind)
        # the whole blocks straight from the input, then the padded last block in place:
        # no padded copy of the input
        if full == n and not self._padding:  # block-exact: no views to make
            self._blocks(arr, out, decrypt=False)
            return _same_kind(out, kind)
        self._blocks(arr[:full], out[:full], decrypt=False)
        if self._padding:
            last = out[full:]
            last[: n - full] = arr[full:]
            last[n - full:] = BLOCK - (n - full)
            iv = None if full == 0 or self._mode == "ecb" else out[full - BLOCK:full]
            self._blocks(last, last, decrypt=False, iv=iv)
        return _same_kind(out, kind)

    def decrypt(self, data):
        """Decrypt one complete message (the inverse of :meth:`encrypt`).

        Raises ``ValueError`` for a length that is not a whole number of blocks
        (ECB/CBC) or for bad PKCS#7 padding.
        """
        arr, kind = _as_array(data)
        if self._mode != "ctr" and (arr.shape[0] % BLOCK or (self._padding and arr.shape[0] == 0)):
            raise ValueError(f"data must be a {'non-empty ' if self._padding else ''}whole number of 16-byte blocks "
                             f"to decrypt in {self._mode} mode (got {arr.shape[0]} bytes)")
        hot = self._wide[self._mode != "ctr"]  # CTR decrypts with its encryption
        if hot is None:
            hot = self._wide_path(self._mode != "ctr")
        if hot:
            out = self._one_call(arr, hot, kind)
            if self._mode != "ctr" and self._padding:
                out = pkcs7_unpad(out)
            return _same_kind(out, kind)
        if self._impl == "pycryptodome":
            out = self._pycryptodome(arr, decrypt=True)
        else:
            out = _output(arr.shape[0], kind)
            if self._mode == "ctr":
                self._ctr(arr, out)
            else:
                self._blocks(arr, out, decrypt=True)
        if self._mode != "ctr" and self._padding:
            out = pkcs7_unpad(out)
        return _same_kind(out, kind)

    def _one_block(self, block, decrypt):
        arr, kind = _as_array(block, "block")
        if arr.shape[0] != BLOCK:
            raise ValueError(f"block must be exactly 16 bytes, got {arr.shape[0]}")
        if self._impl == "pycryptodome":
            c = pycryptodome_aes(self._key, "ecb")
            raw = c.decrypt(arr.tobytes()) if decrypt else c.encrypt(arr.tobytes())
            return _same_kind(np.frombuffer(raw, dtype=np.uint8).copy(), kind)
        out = np.empty(BLOCK, _U8)
        sched = self._decryption() if decrypt else self._enc
        if self._impl == "aesni":
            HW.ecb(arr, out, sched, decrypt, 1)
        else:
            K.ecb_serial(arr, out, *sched)
        return _same_kind(out, kind)

    def encrypt_block(self, block):
        """Encrypt exactly one 16-byte block with the raw cipher (no mode, no padding)."""
        return self._one_block(block, False)

    def decrypt_block(self, block):
        """Decrypt exactly one 16-byte block with the raw cipher (no mode, no padding)."""
        return self._one_block(block, True)


def new(key, cipher: "str | CipherInfo" = "aes", mode: str = "ecb", iv=None, impl: str = "table", padding: bool = True,
        threads: int | None = None, **options) -> Cipher:
    """Create a cipher object, in PyCryptodome's ``new(key, mode, iv=...)`` idiom.

    Parameters
    ----------
    key : bytes-like or uint8 array, 16, 24 or 32 bytes
    cipher : str
        A registered name (:func:`cipherlab.ciphers.registry.cipher_names` with
        ``families=True``: ``"aes"``, ``"aes-2sbox"``, ``"maes"``, ``"maes-1"``,
        ``"maes-2"``), or a registry entry (:class:`~cipherlab.ciphers.registry.CipherInfo`,
        as PyCryptodome's modes take a cipher module), registered or not: a
        described cipher, ``build_from_description(load_variant(path))`` of
        :mod:`cipherlab.ciphers.variant_files`. Everything but ``"aes"`` (and
        ``"aes"`` with fewer rounds than the standard) is a research cipher
        that is **not secure**; creating one emits :class:`InsecureCipherWarning`.
    mode : {"ecb", "cbc", "ctr"}
    iv : bytes-like of 16 bytes
        Required for CBC (the IV) and CTR (the initial counter block); not
        allowed for ECB.
    impl : {"reference", "table", "aesni", "pycryptodome", "auto"}
        Each cipher has the styles its registry entry lists (``styles``).
        ``reference``: byte-oriented FIPS-197 steps; ``table``: T-tables
        (fused tables for the variants); ``aesni``: cipherlab's hardware
        kernels (AES-NI instructions), every cipher and option;
        ``pycryptodome``: PyCryptodome's AES as an outside reference (``aes``
        with standard rounds only); ``auto``: ``aesni`` where the CPU (and the
        JIT target) has AES-NI, else ``table``. ``aesni`` without AES-NI raises
        ``ValueError`` naming the missing feature.
    padding : bool, default True
        PKCS#7 for ECB and CBC; ``False`` for block-exact data. Ignored by CTR.
    threads : int, optional
        Threads for the parallel kernels, ``1..NUMBA_NUM_THREADS``; ``None``
        means all.
    **options
        Cipher options, as the cipher's registry entry declares them
        (:func:`cipherlab.ciphers.registry.cipher_options`): ``rounds`` (all ciphers,
        ``1..Nr``); for ``aes-2sbox``: ``xor_byte``, ``construction``; for
        ``maes``: ``approach`` (fixed by the names ``maes-1`` and ``maes-2``),
        ``iv_source``, ``sha3``, ``sha3_chain``. See the cipher modules.

    Returns
    -------
    Cipher
    """
    return Cipher(key, cipher, mode, iv, impl, padding, threads, options)  # warns if insecure
