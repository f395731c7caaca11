"""The literature's common AES modifications, described without code: key- and round-dependent S-boxes and ShiftRows.

A variant file (:mod:`cipherlab.ciphers.variant_files`) declares them as data; this
module checks the declarations and derives the tables for a key.

**S-boxes** (``sbox:``):

- ``kind: derived``: ``base`` (a fixed byte map, Rijndael's by default) changed
  by ``steps``, in order, each reading bytes of ``from``: ``key`` (the cipher
  key: one S-box for every round) or ``round-key`` (round key ``r`` of AES's
  key schedule gives round ``r``'s S-box: round- and key-dependent). A *byte
  selector* is an index into those bytes, ``xor-all`` (the XOR of all of them)
  or ``additional`` (the variant's ``additional_key``, one secret byte beyond
  the AES key). The steps:

  - ``shuffle``: the table's entries permuted by RC4's key scheduling driven by
    the selected bytes (``bytes: all`` or a list of indices): ``j += t[i] +
    k[i mod n]``, swap ``t[i]`` and ``t[j]``, for ``i = 0..255``;
  - ``rotate``: ``S'(x) = S((x + b) mod 256)`` for a selected byte ``b`` (the
    table rotated left by ``b`` entries);
  - ``affine``: ``S'(x) = M S(x) ^ c`` over GF(2), ``M`` a bit rotation by a
    selected byte (``matrix: rotate``), the circulant matrix of a selected byte
    (``matrix: circulant``, row ``i`` the byte rotated left by ``i``) or eight
    fixed row bytes; ``c`` a selected byte (``constant_byte``) or a fixed one
    (``constant``);
  - ``xor``: ``S'(x) = S(x) ^ b``, ``b`` a selected byte (``byte``) or a fixed
    one (``value``).

- ``kind: per-round``: ``maps``, a list of fixed byte maps; round ``r`` uses
  ``maps[(r - 1) mod len(maps)]``.

**Every derived S-box is a permutation for every key.** Shuffling, rotating
and XORing permute; an affine step permutes exactly when its matrix is
invertible, which is checked when the file is read: a fixed matrix once, a
matrix made from a key byte for all 256 values that byte can take.  A
derivation that is singular for any of them is refused (one line naming the
file, the key and the first byte value that fails).  Each derived table is
checked again when it is made.

**ShiftRows** (``shift_rows:``) as a byte permutation of the state, ``out[i] =
in[p[i]]`` in FIPS-197's byte order (byte ``r + 4 c`` is row ``r`` of column
``c``): ``kind: aes`` (the default), ``kind: permutation`` with
``permutation`` (16 distinct indices), or ``kind: derived`` from ``key`` or
``round-key`` by ``method: row-offsets`` (row ``i`` rotated left by ``b_i mod
4``, ``bytes`` four selectors) or ``method: shuffle`` (a Fisher-Yates shuffle
of the 16 positions, ``j = k[i] mod (i + 1)`` for ``i = 15..1``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["AES_SHIFT_ROWS", "SOURCES", "SBOX_STEPS", "SHIFT_METHODS", "Step", "SBoxPlan", "ShiftPlan",
           "parse_steps", "parse_shift_rows", "is_permutation", "gf2_rank", "rotl8"]

#: AES's ShiftRows as a byte permutation: ``out[i] = in[AES_SHIFT_ROWS[i]]`` (FIPS-197 byte order).
AES_SHIFT_ROWS = tuple((i + 4 * (i % 4)) % 16 for i in range(16))
#: Where derivations read their bytes: the cipher key, or round key r for round r.
SOURCES = ("key", "round-key")
SBOX_STEPS = ("shuffle", "rotate", "affine", "xor")
SHIFT_METHODS = ("row-offsets", "shuffle")
#: The byte selectors that are not an index.
NAMED_SELECTORS = ("xor-all", "additional")
AFFINE_MATRICES = ("rotate", "circulant")

_PARITY = np.array([bin(x).count("1") & 1 for x in range(256)], dtype=np.uint8)


def rotl8(x, k: int):
    """``x`` (a byte or a uint8 array) rotated left by ``k mod 8`` bits."""
    k %= 8
    x = np.asarray(x, dtype=np.uint16)
    return ((x << k) | (x >> (8 - k))).astype(np.uint8) if k else x.astype(np.uint8)


def gf2_rank(rows) -> int:
    """The rank over GF(2) of a matrix given as row bytes (bit ``j`` of row ``i`` is entry ``(i, j)``)."""
    rows = [int(r) & 0xFF for r in rows]
    rank = 0
    for bit in range(8):
        pivot = next((i for i in range(rank, len(rows)) if rows[i] >> bit & 1), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for i in range(len(rows)):
            if i != rank and rows[i] >> bit & 1:
                rows[i] ^= rows[rank]
        rank += 1
    return rank


def _circulant(b: int) -> tuple[int, ...]:
    """The circulant matrix of byte ``b``: row ``i`` is ``b`` rotated left by ``i`` bits."""
    return tuple(int(rotl8(b, i)) for i in range(8))


def _apply_matrix(rows, values: np.ndarray) -> np.ndarray:
    """``M y`` over GF(2) for every byte ``y`` of ``values``: bit ``i`` of the result is ``parity(rows[i] & y)``."""
    out = np.zeros(values.shape, dtype=np.uint8)
    for i, row in enumerate(rows):
        out |= (_PARITY[values & np.uint8(row)] << np.uint8(i)).astype(np.uint8)
    return out


def is_permutation(table, n: int = 256) -> bool:
    t = np.asarray(table)
    return t.shape == (n,) and bool((np.bincount(t.astype(np.int64), minlength=n)[:n] == 1).all())


# --------------------------------------------------------------------------- steps


@dataclass(frozen=True)
class Step:
    """One derivation step: its operation (:data:`SBOX_STEPS`) and its arguments as sorted pairs."""

    op: str
    args: tuple[tuple[str, Any], ...]

    def arg(self, name: str, default: Any = None) -> Any:
        return dict(self.args).get(name, default)

    def selectors(self) -> list:
        """Every byte selector the step reads (indices, ``xor-all``, ``additional``)."""
        a = dict(self.args)
        out = [a[k] for k in ("byte", "matrix_byte", "constant_byte") if k in a]
        if self.op == "shuffle":
            out += ["xor-all"] if a.get("bytes", "all") == "all" else list(a["bytes"])
        return out


def _select(sel, src: "np.ndarray | None", additional: "int | None") -> int:
    if sel == "additional":
        return int(additional)
    if sel == "xor-all":
        return int(np.bitwise_xor.reduce(src))
    return int(src[sel])


def _ksa(table: np.ndarray, key: np.ndarray) -> np.ndarray:
    """RC4's key scheduling with ``table`` as the starting permutation: its entries shuffled by ``key``."""
    t = table.astype(np.int64)
    k = key.astype(np.int64)
    n, j = len(k), 0
    for i in range(256):
        j = (j + t[i] + k[i % n]) & 0xFF
        t[i], t[j] = t[j], t[i]
    return t.astype(np.uint8)


def _apply(step: Step, table: np.ndarray, src, additional) -> np.ndarray:
    a = dict(step.args)
    if step.op == "shuffle":
        chosen = src if a.get("bytes", "all") == "all" else src[list(a["bytes"])]
        return _ksa(table, chosen)
    if step.op == "rotate":
        return np.roll(table, -_select(a["byte"], src, additional))
    if step.op == "xor":
        b = a["value"] if "value" in a else _select(a["byte"], src, additional)
        return table ^ np.uint8(b)
    # affine
    c = a["constant"] if "constant" in a else (_select(a["constant_byte"], src, additional)
                                              if "constant_byte" in a else 0)
    m = a.get("matrix", "rotate")
    if m == "rotate":
        out = rotl8(table, _select(a["matrix_byte"], src, additional)) if "matrix_byte" in a else table.copy()
    else:
        rows = _circulant(_select(a["matrix_byte"], src, additional)) if m == "circulant" else m
        out = _apply_matrix(rows, table)
    return out ^ np.uint8(c)


def parse_steps(where: str, key: str, steps: list, source: "str | None", source_len: int,
                additional: bool) -> tuple[Step, ...]:
    """The checked steps of ``sbox.steps`` (``ValueError`` naming the file and the key, on one line).

    ``source_len``: the bytes a selector may index (16 for ``round-key``, the smallest key size for ``key``);
    ``additional``: whether the variant declares an ``additional_key``.
    """
    out = []
    for n, raw in enumerate(steps):
        (op, args), = raw.items()   # the schema allows one key per step
        args = args or {}
        here = f"{key}[{n}].{op}"
        step = Step(op, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in (args or {}).items())))
        for sel in step.selectors():
            _check_selector(where, here, sel, source, source_len, additional)
        if op == "xor" and ("value" in args) == ("byte" in args):
            raise ValueError(f"{where}: key {here!r}: give exactly one of 'byte' (a byte selector) or 'value' "
                             "(a fixed byte)")
        if op == "rotate" and "byte" not in args:
            raise ValueError(f"{where}: key {here!r}: needs 'byte' (a byte selector)")
        if op == "affine":
            _check_affine(where, here, args)
        out.append(step)
    return tuple(out)


def _check_selector(where, here, sel, source, source_len, additional) -> None:
    if sel == "additional":
        if not additional:
            raise ValueError(f"{where}: key {here!r}: the selector 'additional' needs the variant's "
                             "'additional_key' (one secret byte beyond the AES key)")
        return
    if source is None:
        raise ValueError(f"{where}: key {here!r}: reads key bytes ({sel!r}); say where they come from with "
                         f"'from' ({' or '.join(SOURCES)})")
    if sel != "xor-all" and not 0 <= sel < source_len:
        raise ValueError(f"{where}: key {here!r}: byte index {sel} is outside the {source_len} bytes of the "
                         f"{'round key' if source == 'round-key' else 'shortest key'} (0..{source_len - 1})")


def _check_affine(where: str, here: str, args: dict) -> None:
    """The affine step's matrix must be invertible for every value it can take, else the S-box is no permutation."""
    m = args.get("matrix", "rotate")
    if "constant" in args and "constant_byte" in args:
        raise ValueError(f"{where}: key {here!r}: give 'constant' (a fixed byte) or 'constant_byte' (a byte "
                         "selector), not both")
    if m in AFFINE_MATRICES:
        if m == "circulant" and "matrix_byte" not in args:
            raise ValueError(f"{where}: key {here!r}: matrix 'circulant' needs 'matrix_byte' (a byte selector)")
        if m == "circulant":
            singular = [b for b in range(256) if gf2_rank(_circulant(b)) < 8]
            raise ValueError(f"{where}: key {here!r}: the circulant matrix of a key byte is singular over GF(2) "
                             f"for {len(singular)} of the 256 values that byte takes (first 0x{singular[0]:02X}), "
                             "so for those keys the derived S-box is not a permutation; use matrix 'rotate' or "
                             "eight fixed row bytes of an invertible matrix")
        return
    if isinstance(m, str) or len(m) != 8:
        raise ValueError(f"{where}: key {here!r}: matrix must be 'rotate', 'circulant' or eight row bytes, got {m!r}")
    if gf2_rank(m) < 8:
        raise ValueError(f"{where}: key {here!r}: the matrix {[f'0x{int(r):02X}' for r in m]} is singular over "
                         f"GF(2) (rank {gf2_rank(m)} of 8), so the derived S-box is not a permutation; give an "
                         "invertible one")


# --------------------------------------------------------------------------- plans


@dataclass(frozen=True)
class SBoxPlan:
    """A derived (``steps`` over ``base``) or per-round (``per_round`` maps) S-box: its tables for a key.

    ``source`` is ``"key"``, ``"round-key"`` or None (no step reads key bytes).
    """

    base: bytes = b""
    source: "str | None" = None
    steps: tuple[Step, ...] = ()
    per_round: tuple[bytes, ...] = ()

    @property
    def reads_key(self) -> bool:
        return any(s not in ("additional",) for st in self.steps for s in st.selectors())

    @property
    def uses_additional(self) -> bool:
        return any(s == "additional" for st in self.steps for s in st.selectors())

    @property
    def key_dependent(self) -> bool:
        """Whether the S-box changes with the key (or the additional key byte)."""
        return self.reads_key or self.uses_additional

    @property
    def round_dependent(self) -> bool:
        """Whether rounds may have different S-boxes (per-round maps, or derived from each round key)."""
        return len(self.per_round) > 1 or (self.source == "round-key" and self.reads_key)

    def table(self, src: "np.ndarray | None" = None, additional: "int | None" = None) -> np.ndarray:
        """The S-box derived from the bytes ``src`` (and the additional key byte); a permutation, checked."""
        t = np.frombuffer(self.base, dtype=np.uint8).copy()
        for step in self.steps:
            t = _apply(step, t, src, additional)
        if not is_permutation(t):   # cannot happen after the checks on reading; never run a non-bijective S-box
            raise ValueError("sbox: a derived S-box is not a permutation of 0..255")
        return t.astype(np.uint8)

    def tables(self, key: bytes, round_keys: np.ndarray, additional: "int | None" = None) -> np.ndarray:
        """``uint8[R, 256]``: the S-box of rounds ``1..R`` (``R = len(round_keys) - 1``)."""
        rounds = round_keys.shape[0] - 1
        if self.per_round:
            return np.stack([np.frombuffer(self.per_round[(r - 1) % len(self.per_round)], dtype=np.uint8)
                             for r in range(1, rounds + 1)])
        if self.source == "round-key" and self.reads_key:
            return np.stack([self.table(np.asarray(round_keys[r], dtype=np.uint8), additional)
                             for r in range(1, rounds + 1)])
        one = self.table(np.frombuffer(key, dtype=np.uint8), additional)
        return np.broadcast_to(one, (rounds, 256)).copy()


def parse_shift_rows(where: str, spec: "dict | None", min_key: int) -> "ShiftPlan":
    """The checked ``shift_rows`` block (None or ``kind: aes``: AES's)."""
    if not spec or spec.get("kind", "aes") == "aes":
        return ShiftPlan()
    if spec["kind"] == "permutation":
        p = tuple(int(v) for v in spec["permutation"])
        if sorted(p) != list(range(16)):
            missing = sorted(set(range(16)) - set(p))
            raise ValueError(f"{where}: key 'shift_rows.permutation': must hold each of 0..15 once (a permutation "
                             f"of the 16 state bytes); missing {missing}")
        return ShiftPlan("permutation", p)
    source, method = spec["from"], spec["method"]
    length = 16 if source == "round-key" else min_key
    sels = spec.get("bytes", [0, 1, 2, 3] if method == "row-offsets" else "all")
    sels = "all" if sels == "all" else tuple(sels)
    if method == "row-offsets" and (sels == "all" or len(sels) != 4):
        raise ValueError(f"{where}: key 'shift_rows.bytes': row-offsets takes four byte selectors (one per row), "
                         f"got {sels!r}")
    for sel in (() if sels == "all" else sels):
        if sel == "additional":
            raise ValueError(f"{where}: key 'shift_rows.bytes': the selector 'additional' is for S-box steps only")
        _check_selector(where, "shift_rows.bytes", sel, source, length, False)
    return ShiftPlan("derived", (), source, method, sels)


@dataclass(frozen=True)
class ShiftPlan:
    """ShiftRows as a byte permutation: AES's, a fixed one, or derived from the key or each round key."""

    kind: str = "aes"
    permutation: tuple[int, ...] = ()
    source: "str | None" = None
    method: str = ""
    bytes: Any = ()

    @property
    def is_aes(self) -> bool:
        return self.kind == "aes" or self.permutation == AES_SHIFT_ROWS

    @property
    def key_dependent(self) -> bool:
        return self.kind == "derived"

    def _derive(self, src: np.ndarray) -> np.ndarray:
        if self.method == "row-offsets":
            offsets = [_select(s, src, None) % 4 for s in self.bytes]
            return np.array([r + 4 * ((i // 4 + offsets[r]) % 4) for i in range(16) for r in (i % 4,)],
                            dtype=np.uint8)
        chosen = src if self.bytes == "all" else src[list(self.bytes)]
        p = list(range(16))
        for i in range(15, 0, -1):
            j = int(chosen[i % len(chosen)]) % (i + 1)
            p[i], p[j] = p[j], p[i]
        return np.array(p, dtype=np.uint8)

    def perms(self, key: bytes, round_keys: np.ndarray) -> np.ndarray:
        """``uint8[R, 16]``: the byte permutation of rounds ``1..R``."""
        rounds = round_keys.shape[0] - 1
        if self.kind == "derived" and self.source == "round-key":
            return np.stack([self._derive(np.asarray(round_keys[r], dtype=np.uint8)) for r in range(1, rounds + 1)])
        if self.kind == "derived":
            one = self._derive(np.frombuffer(key, dtype=np.uint8))
        else:
            one = np.array(self.permutation or AES_SHIFT_ROWS, dtype=np.uint8)
        return np.broadcast_to(one, (rounds, 16)).copy()
