"""AES-128/192/256 (FIPS-197): key expansion, the cipher, single steps.

The cipher itself runs in the shared kernels of :mod:`cipherlab.ciphers._kernels`
(``mix_kind = MIX_COLUMNS``); use it through :func:`cipherlab.new`.

Public step functions let a chapter time one stage alone:
:func:`expand_key`, :func:`mix_columns_blocks`, :func:`inv_mix_columns_blocks`.
"""
from __future__ import annotations

import numpy as np

from cipherlab.ciphers import _kernels as K
from cipherlab.ciphers import _key_kernels as KK
from cipherlab._checks import check_choice
from cipherlab.ciphers._schedule import build_schedule, encryption_schedule
from cipherlab.ciphers.registry import AES_ROUNDS, ROUNDS, STYLES, CipherInfo, check_key, register
from cipherlab.ciphers.sboxes import rijndael_sbox
from cipherlab.names import SOFTWARE_STYLES

__all__ = ["AES", "expand_key", "expand_key_words", "key_from_round_key", "mix_columns_blocks", "inv_mix_columns_blocks",
           "apply_step_blocks", "STEP_IMPLS"]

#: The styles whose round steps are separate functions (:func:`apply_step_blocks`).
STEP_IMPLS = SOFTWARE_STYLES


def _rcon(i: int) -> int:
    # x^(i-1) in GF(2^8); continues past the 10 values FIPS-197 lists, which
    # the MAES "keyexp" IV source needs.
    r = 1
    for _ in range(i - 1):
        r <<= 1
        if r & 0x100:
            r ^= 0x11B
    return r


def _sub_word(t: int, sbox: np.ndarray) -> int:
    return (int(sbox[t >> 24]) << 24) | (int(sbox[(t >> 16) & 0xFF]) << 16) | (int(sbox[(t >> 8) & 0xFF]) << 8) | int(sbox[t & 0xFF])


def _temp(prev: int, i: int, nk: int, sbox: np.ndarray) -> int:
    """FIPS-197 KeyExpansion's ``temp`` for word ``i`` from word ``i - 1``: ``w[i] = w[i - nk] ^ temp``."""
    if i % nk == 0:
        return _sub_word(((prev << 8) | (prev >> 24)) & 0xFFFFFFFF, sbox) ^ (_rcon(i // nk) << 24)  # RotWord
    if nk > 6 and i % nk == 4:
        return _sub_word(prev, sbox)
    return prev


_SBOX = rijndael_sbox()
_SBOX.setflags(write=False)


def _expand_words(key: bytes, n_words: int) -> np.ndarray:
    """KeyExpansion's words as ``uint32[n_words]``, in compiled code (``_key_kernels.expand_key_words``)."""
    return KK.expand_key_words(np.frombuffer(key, dtype=np.uint8), n_words, _SBOX)


def expand_key_words(key: bytes, n_words: int) -> list[int]:
    """FIPS-197 KeyExpansion run for ``n_words`` 32-bit words (may exceed the schedule)."""
    return _expand_words(bytes(key), n_words).tolist()


def key_from_round_key(round_key, round_index: int) -> bytes:
    """The AES-128 key whose KeyExpansion gives ``round_key`` as round key ``round_index`` (1..10).

    AES-128's schedule runs backwards: ``w[i - 4] = w[i] ^ temp(w[i - 1])``, so
    one round key determines the key (the last step of the square attack,
    :mod:`cipherlab.experiments.variant.integral`). ``ValueError`` unless
    ``round_key`` is 16 bytes and ``round_index`` is in 1..10.
    """
    round_key = check_key(round_key, (16,))
    if isinstance(round_index, bool) or not isinstance(round_index, (int, np.integer)) \
            or not 1 <= round_index <= AES_ROUNDS[16]:
        raise ValueError(f"round_index must be an integer in 1..{AES_ROUNDS[16]}, got {round_index!r}")
    sbox = rijndael_sbox()
    first = 4 * int(round_index)
    w = {first + j: int.from_bytes(round_key[4 * j:4 * j + 4], "big") for j in range(4)}
    for i in range(first + 3, 3, -1):
        w[i - 4] = w[i] ^ _temp(w[i - 1], i, 4, sbox)
    return b"".join(w[i].to_bytes(4, "big") for i in range(4))


def _words_to_blocks(words) -> np.ndarray:
    """32-bit words (a list or a ``uint32`` array) as ``uint8[n / 4, 16]``, each word big-endian."""
    return np.asarray(words, dtype=np.uint32).astype(">u4").view(np.uint8).reshape(-1, 16)


_U8 = np.dtype(np.uint8)  # a dtype object: a dtype given by name or type is looked up on every call


def _expand_key(key: bytes) -> np.ndarray:
    out = np.empty((AES_ROUNDS[len(key)] + 1, 16), _U8)
    KK.expand_key_into(np.frombuffer(key, _U8), out, _SBOX)
    return out


def expand_key(key) -> np.ndarray:
    """AES key expansion: the round keys ``k_0 .. k_Nr`` as ``uint8[Nr + 1, 16]``.

    Parameters
    ----------
    key : bytes-like or uint8 array of 16, 24 or 32 bytes
    """
    return _expand_key(check_key(key))


class AES:
    """AES (FIPS-197) key schedule in kernel form; create ciphers with :func:`cipherlab.new`.

    Trusts its arguments (:func:`cipherlab.new` has checked them).

    Parameters
    ----------
    key : bytes of 16, 24 or 32 bytes
    rounds : int, optional
        Research option: number of rounds ``1..Nr`` (default ``Nr``). Fewer
        rounds than the standard are **not secure**.
    """

    mix_kind = K.MIX_COLUMNS
    #: The cipher's own round count where it is not AES's Nr (a described variant's ``rounds:``,
    #: :mod:`cipherlab.ciphers.variant_files`), else None. The hardware style compiles its fast
    #: kernel for Nr and for this count; other counts (the ``rounds`` research option) share one.
    own_rounds: int | None = None

    def __init__(self, key: bytes, rounds: int | None = None):
        self.key = key
        self.nr = nr = AES_ROUNDS[len(key)]
        self.rounds = rounds = nr if rounds is None else rounds
        keys = np.empty((nr + 1, 16), _U8)  # _expand_key, inline: cipherlab.new makes one per object
        KK.expand_key_into(np.frombuffer(key, _U8), keys, _SBOX)
        self.round_keys = keys if rounds == nr else keys[: rounds + 1]

    def _extra(self) -> dict:
        return {}

    def schedule(self, impl: str, decrypt: bool):
        if type(self) is AES and not decrypt:  # round keys made by __init__ (contiguous uint8): the short way
            return encryption_schedule(self.round_keys, self.mix_kind, impl)
        return build_schedule(self.round_keys, self.mix_kind, impl, decrypt, **self._extra())


def _check_step_args(state_blocks, impl):
    check_choice("impl", impl, STEP_IMPLS)
    a = np.asarray(state_blocks)
    if a.dtype != np.uint8 or a.ndim != 2 or a.shape[1] != 16:
        raise ValueError(f"state_blocks must be a uint8 array of shape (n, 16), got dtype {a.dtype} shape {a.shape}")
    return np.ascontiguousarray(a)


_NO_IV = np.zeros(16, dtype=np.uint8)
_IDENTITY = np.arange(256, dtype=np.uint8)


def apply_step_blocks(state_blocks, step: int, impl: str = "reference", iv=None, table=None,
                      out=None) -> np.ndarray:
    """Apply one round step (``_kernels.STEP_*``) to each 16-byte state.

    Writes into ``out`` (a ``uint8`` array of the same shape, e.g. one buffer
    reused across timed calls, so that no allocation or page fault lands in the
    timed region) or into a new array; returns it.
    """
    a = _check_step_args(state_blocks, impl)
    if out is None:
        out = np.empty_like(a)
    elif not (isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.shape == a.shape
              and out.flags.c_contiguous and out.flags.writeable):
        raise ValueError(f"out must be a writable contiguous uint8 array of shape {a.shape}")
    K.steps(a, out, step, 0 if impl == "reference" else 1,
            _NO_IV if iv is None else iv, _IDENTITY if table is None else table)
    return out


def mix_columns_blocks(state_blocks, impl: str = "reference", out=None) -> np.ndarray:
    """MixColumns on each state of ``state_blocks`` (``uint8[n, 16]``, FIPS byte order).

    ``impl="reference"`` is the byte-wise xtime form of the reference cipher;
    ``impl="table"`` the 32-bit word-sliced form (in the T-table cipher
    MixColumns has no separate cost: it is folded into the tables).
    """
    return apply_step_blocks(state_blocks, K.STEP_MIX_COLUMNS, impl, out=out)


def inv_mix_columns_blocks(state_blocks, impl: str = "reference", out=None) -> np.ndarray:
    """InvMixColumns on each state (reference: GF products by 9, 11, 13, 14; table: word form)."""
    return apply_step_blocks(state_blocks, K.STEP_INV_MIX_COLUMNS, impl, out=out)


register(CipherInfo(
    "aes", AES, {"rounds": ROUNDS}, styles=STYLES, research=False,
    summary="AES-128/192/256 (FIPS-197); with rounds < Nr a research cipher"))
