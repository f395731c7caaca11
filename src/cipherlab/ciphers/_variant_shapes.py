"""The kernel form of a described variant: one key-schedule class per round shape (:mod:`.described`).

Each class is a subclass of :class:`cipherlab.ciphers.aes.AES` (or MAES's) that says what differs:
its main S-box (``main``), its linear layer, and for the general twins (:data:`GENERAL`) each round's
own S-box and ShiftRows permutation, run by the reference style's general kernel.
"""
from __future__ import annotations

import numpy as np

from cipherlab.ciphers import _kernels as K
from cipherlab.ciphers._schedule import build_schedule, word_tables
from cipherlab.ciphers.aes import AES
from cipherlab.ciphers.gfmatrix import gf_mat_vec
from cipherlab.ciphers.keyed import AES_SHIFT_ROWS
from cipherlab.ciphers.maes import MAES
from cipherlab.ciphers.sboxes import rijndael_inverse_sbox, rijndael_sbox

__all__ = ["SHAPES", "GENERAL", "round_structure"]


class _MainSBox:
    """Mixin: SubBytes with the description's main S-box (``None``: Rijndael's, the schedule unchanged)."""

    main: tuple[np.ndarray, np.ndarray] | None = None

    def _extra(self) -> dict:
        extra = super()._extra()
        return extra if self.main is None else {**extra, "sbox": self.main}


class VariantAES(_MainSBox, AES):
    """``linear: mixcolumns``."""


class VariantNoLinear(_MainSBox, AES):
    """``linear: none``: MAES's round shape with every IV zero (``build_schedule``'s default)."""

    mix_kind = K.MIX_XOR_IV


class VariantByteMap(_MainSBox, AES):
    """``linear: byte-map``: AES-2SBox's round shape with any byte map."""

    mix_kind = K.MIX_SECOND_SBOX
    second: tuple[np.ndarray, np.ndarray] | None = None

    def _extra(self) -> dict:
        return {**super()._extra(), "second": self.second}


class VariantMAES(_MainSBox, MAES):
    """``linear: xor-iv``: MAES (its IVs, its options) with the description's S-box."""


class VariantMatrix(_MainSBox, AES):
    """``linear: {matrix: M}``: MixColumns replaced by ``column <- M column`` (``M`` invertible).

    The reference style runs the kernel's ``MIX_MATRIX`` step with ``M`` and
    ``M^-1`` in the spare S-box rows; the table style is AES's table plan with
    T-tables built from ``M``'s columns (encryption) and, for decryption,
    FIPS-197's equivalent inverse cipher with ``M^-1`` in place of InvMixColumns
    (tables from ``M^-1``'s columns, ``M^-1`` applied to the middle round keys).
    """

    mix_kind = K.MIX_MATRIX
    matrix: np.ndarray = None  # uint8[4, 4]
    inverse_matrix: np.ndarray = None

    def schedule(self, impl: str, decrypt: bool):
        extra = self._extra()
        base = build_schedule(self.round_keys, K.MIX_COLUMNS, impl, decrypt, **extra)
        sboxes = base.sboxes.copy()
        sboxes[2:] = 0
        sboxes[2, :16] = self.matrix.reshape(-1)
        sboxes[3, :16] = self.inverse_matrix.reshape(-1)
        params = base.params.copy()
        params[2] = K.MIX_MATRIX
        sbox, inv_sbox = extra.get("sbox") or (rijndael_sbox(), rijndael_inverse_sbox())
        tables = base.tables.copy()
        rk32 = base.rk32.copy()
        # T_k[x] = column k of the matrix times S[x]: the byte in row k of the (shifted) column
        m, sub = (self.inverse_matrix, inv_sbox) if decrypt else (self.matrix, sbox)
        tables[:1024] = np.concatenate([word_tables(sub, tuple(int(v) for v in m[:, k]))[0] for k in range(4)])
        if decrypt:
            rounds = self.round_keys.shape[0] - 1
            for i, r in enumerate(range(rounds - 1, 0, -1), start=1):
                cols = gf_mat_vec(self.inverse_matrix, self.round_keys[r].reshape(4, 4)).astype(np.uint32)
                rk32[i] = (cols[:, 0] << 24) | (cols[:, 1] << 16) | (cols[:, 2] << 8) | cols[:, 3]
        return base._replace(params=params, tables=tables, rk32=rk32, sboxes=sboxes)


class _RoundParts:
    """Mixin: round ``r``'s own S-box and ShiftRows permutation (``round_sboxes``, ``round_perms``: rows
    ``r - 1``), run by the reference style's general kernel (``_kernels.STYLE_GENERAL``)."""

    round_sboxes: np.ndarray = None  # uint8[R, 256]
    round_perms: np.ndarray = None   # uint8[R, 16]

    def schedule(self, impl: str, decrypt: bool):
        extra = {k: v for k, v in self._extra().items() if k != "sbox"}
        base = build_schedule(self.round_keys, K.MIX_COLUMNS if self.mix_kind == K.MIX_MATRIX else self.mix_kind,
                              "reference", decrypt, **extra)
        rounds = self.round_keys.shape[0] - 1
        sboxes = np.zeros((2 * rounds + 6, 256), dtype=np.uint8)
        sboxes[:4] = base.sboxes
        if self.mix_kind == K.MIX_MATRIX:
            sboxes[2:4] = 0
            sboxes[2, :16], sboxes[3, :16] = self.matrix.reshape(-1), self.inverse_matrix.reshape(-1)
        for r in range(1, rounds + 1):
            sub, perm = self.round_sboxes[r - 1], self.round_perms[r - 1]
            sboxes[2 + 2 * r], sboxes[3 + 2 * r] = sub, np.argsort(sub)
            sboxes[2 * rounds + 4, 16 * r:16 * r + 16] = perm
            sboxes[2 * rounds + 5, 16 * r:16 * r + 16] = np.argsort(perm)
        params = base.params.copy()
        params[0], params[2] = K.STYLE_GENERAL, self.mix_kind
        return base._replace(params=params, sboxes=sboxes)


#: the general twin of each round shape (``linear`` kind -> class)
SHAPES = {"mixcolumns": VariantAES, "none": VariantNoLinear, "byte-map": VariantByteMap, "xor-iv": VariantMAES,
           "matrix": VariantMatrix}
GENERAL = {kind: type(f"General{cls.__name__[len('Variant'):]}", (_RoundParts, cls),
                       {"__doc__": f"{cls.__doc__} With round-dependent S-boxes or another ShiftRows."})
            for kind, cls in SHAPES.items()}


def round_structure(spec) -> tuple[np.ndarray, np.ndarray]:
    """``(sboxes uint8[R, 256], perms uint8[R, 16])`` of a key schedule in kernel form: each round's S-box
    and ShiftRows permutation (a described variant's own, or its main S-box and AES's ShiftRows)."""
    rounds = spec.round_keys.shape[0] - 1
    if getattr(spec, "round_sboxes", None) is not None:
        return spec.round_sboxes.copy(), spec.round_perms.copy()
    main = spec._extra().get("sbox")
    sub = rijndael_sbox() if main is None else np.asarray(main[0], dtype=np.uint8)
    return (np.broadcast_to(sub, (rounds, 256)).copy(),
            np.broadcast_to(np.array(AES_SHIFT_ROWS, dtype=np.uint8), (rounds, 16)).copy())
