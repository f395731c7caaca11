"""AES variants described in YAML, built from the cipher core's blocks and registered in the registry.

A *variant* is one file, ``config/variants/<name>.yaml`` (its schema:
``src/cipherlab/ciphers/schemas/variant.schema.yaml``, package data, ``paths.VARIANT_SCHEMA``; examples:
``config/variants/aes-*.yaml``): ``name`` (the registered name, the file's stem), ``summary``, optional
``about``, ``key_bytes`` (16, 24, 32 or a list), optional ``rounds`` (1..Nr, default Nr), ``sbox`` and
``linear``, or ``custom``; optional ``shift_rows`` and derived or per-round S-boxes
(:mod:`cipherlab.ciphers.keyed`); for the book, ``paper`` (``citation``, ``url``, ``passages``: a text file
beside it with the passages read, ``stand_in``: what the text leaves open and how the file decides it) and
``tests`` (the claim ids the variant was written to test, shown with their verdicts on its page).

``sbox`` (the main S-box of SubBytes) and ``linear``'s ``map`` are *byte maps*:
``rijndael``; ``second-sbox`` with ``construction`` and ``xor_byte`` (papers
000/001, :func:`cipherlab.ciphers.sboxes.second_sbox`); ``table`` with ``file``
(256 hex bytes, a permutation, the path relative to the YAML file); ``random``
with ``seed`` (``numpy.random.default_rng(seed).permutation(256)``).
``linear`` (the step after ShiftRows, AES's MixColumns): ``mixcolumns``;
``none`` (run as MAES's round shape with zero IVs); ``xor-iv`` with MAES's
options ``approach``, ``iv_source``, ``sha3``, ``sha3_chain`` (paper 002,
:mod:`cipherlab.ciphers.maes`, same defaults and checks); ``byte-map`` with a
``map`` (AES-2SBox's shape: a second byte map after ShiftRows); ``{matrix: [[..] x 4] x 4}``
(``kind: matrix`` may be left out): any invertible 4 x 4 matrix over GF(2^8), AES's
polynomial, applied to each column as MixColumns is (``[[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]]``
is MixColumns), decryption through the inverse matrix (:mod:`cipherlab.ciphers.gfmatrix`).
The escape hatch ``custom: "package.module:callable"`` replaces ``sbox`` and
``linear``: ``callable(key: bytes, rounds: int | None)`` returns a key schedule
in kernel form, an instance of a subclass of :class:`cipherlab.ciphers.aes.AES`
(as :class:`~cipherlab.ciphers.aes_2sbox.AES2SBox` is).

**The key schedule is always AES's** (FIPS-197 KeyExpansion, Rijndael S-box),
whatever ``sbox`` is. **Every variant is a research cipher, NOT secure** unless
proven otherwise: ``cipherlab.new`` warns with ``InsecureCipherWarning``.
An unknown key, a wrong type (``16.0`` is not an integer), a duplicate key, a YAML anchor or alias, a table
that is no permutation or lies outside the variant file's folder (its content never echoed), a name other
than the file's stem or a built-in cipher's (:func:`check_variant_name`), rounds out of range or a
``custom`` that cannot be imported is a ``ValueError`` naming the file and the key.

**A file with ``custom:`` runs Python code** (as a ``setup.py`` does): :func:`load_variant` and
:func:`register_variant_file` refuse it unless the caller passes ``allow_custom=True`` or the environment
sets ``CIPHERLAB_ALLOW_CUSTOM=1`` (the pipeline's jobs inherit it); nothing is imported before that check.
``make variant`` and the ``variant_chapter`` rule check the name and the file (``python -m
cipherlab._variant_check NAME``) before Snakemake and the machine lock.

Styles are computed, not declared: ``reference`` and ``table`` always;
``aesni`` when the main S-box is Rijndael's and the linear layer has an
AES-NI form (MixColumns, none, IVs, or a byte map that is byte-wise affine,
possibly after the AES S-box); ``pycryptodome`` never.  A variant whose S-box changes by round or whose
ShiftRows is not AES's runs in the reference style's general round only (``_kernels.STYLE_GENERAL``; AES's
own path untouched).  Variants are registered only by the code that asks, so ``cipher_names()`` stays the
papers'.  The papers' own ciphers are described the same way in ``config/ciphers/`` (descriptions, not
registrations: the security chapter analyses them) and the selfcheck compares each with the registered
cipher of its name (:mod:`cipherlab.selfcheck`).

API (small on purpose)
----------------------
``load_variant(path) -> VariantDescription``
    Read and check one file (``ValueError`` naming the file and the key).
``build_from_description(desc) -> VariantInfo``
    The cipher, not registered (the papers' ciphers in ``config/ciphers/`` are
    described, not re-registered; tests and the security chapter use this).
``register_variant_file(path) -> VariantInfo``
    Register the variant under its name (idempotent for the same description);
    then ``cipherlab.new(key, cipher=name, mode=..., impl=...)`` works in every
    style of ``lookup(name).styles``; ``rounds`` stays an option.
``variant_byte_maps(name_or_desc) -> {"sbox": uint8[256], "linear": uint8[256]}``
    The main S-box and (``byte-map`` only) the linear layer's byte map;
    also ``VariantInfo.byte_maps``. ``VariantInfo.description`` is the description.
``variant_linear_layer(name_or_desc) -> (kind, matrix or None)``
    The linear layer's kind (one of :data:`LINEAR_LAYERS`) and, for ``mixcolumns``
    and ``matrix``, its ``uint8[4, 4]`` matrix (the trail bounds of the variant battery).

The name-to-file rule (``config/variants/<name>.yaml``) belongs to the
pipeline layer: :func:`cipherlab.pipeline.paths.variant_file`.
"""
from __future__ import annotations

import importlib
import inspect
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from cipherlab._checks import check_choice
from cipherlab.names import SOFTWARE_STYLES
from cipherlab.ciphers import _kernels as K
from cipherlab.ciphers._aesni import _second_sbox_map
from cipherlab.ciphers._schedule import build_schedule
from cipherlab.ciphers._variant_shapes import GENERAL, SHAPES, round_structure
from cipherlab.ciphers._variant_yaml import (MAX_VARIANT_BYTES, SCHEMA_FILE, StrictLoader, read_regular_text, read_table,
                                             schema_message, validator, yaml_message)
from cipherlab.ciphers.keyed import SBoxPlan, ShiftPlan, parse_shift_rows, parse_steps
from cipherlab.ciphers.gfmatrix import AES_MIX_MATRIX, gf_inverse_matrix
from cipherlab.ciphers.aes import AES
from cipherlab.ciphers.registry import (KEY_SIZES, CipherInfo, Option, check_rounds, cipher_names,
                                        lookup, register)
from cipherlab.ciphers.sboxes import SECOND_SBOX_CONSTRUCTIONS, _check_xor_byte, _second_sbox, rijndael_sbox

__all__ = ["ByteMap", "VariantDescription", "VariantInfo", "load_variant", "build_from_description",
           "register_variant_file", "check_variant_name", "variant_byte_maps", "variant_linear_layer",
           "round_structure", "encrypt_with_round_keys", "BYTE_MAPS", "SBOX_KINDS", "LINEAR_LAYERS", "SCHEMA_FILE"]

BYTE_MAPS = ("rijndael", "second-sbox", "table", "random")
#: The main S-box may also be derived from the key (or each round key) or change by round (:mod:`.keyed`).
SBOX_KINDS = BYTE_MAPS + ("derived", "per-round")
LINEAR_LAYERS = ("mixcolumns", "none", "xor-iv", "byte-map", "matrix")
#: MAES's options that ``xor-iv`` takes (checks and defaults: the ``maes`` registry entry).
IV_OPTIONS = ("approach", "iv_source", "sha3", "sha3_chain")


@dataclass(frozen=True)
class ByteMap:
    """A byte permutation of a description: its ``kind``, its other YAML keys and its 256 values."""

    kind: str
    spec: tuple[tuple[str, Any], ...]
    table: bytes = field(repr=False)

    @property
    def forward(self) -> np.ndarray:
        """``uint8[256]``, a fresh copy."""
        return np.frombuffer(self.table, dtype=np.uint8).copy()

    @property
    def inverse(self) -> np.ndarray:
        return np.argsort(self.forward).astype(np.uint8)

    @property
    def is_rijndael(self) -> bool:
        return self.table == rijndael_sbox().tobytes()


@dataclass(frozen=True)
class VariantDescription:
    """One checked description (:func:`load_variant`); equal descriptions build the same cipher.

    ``sbox``/``linear``/``linear_map``/``iv_options`` are ``None``/empty with ``custom``;
    ``iv_options`` holds all four MAES options (defaults filled in) for ``xor-iv``;
    ``matrix`` the 4 x 4 rows for ``matrix``;
    ``rounds`` ``None`` means Nr; ``source`` is the file (not compared).
    A derived or per-round S-box (:mod:`cipherlab.ciphers.keyed`) has its plan in ``sbox_plan``
    (``sbox`` is then its table for an all-zero key); ``shift_rows`` is AES's unless the file says otherwise;
    ``additional_key`` the default of one secret byte beyond the AES key (an option of ``new``).
    ``paper`` (``citation``, ``url``, ``passages``, ``stand_in``) and ``tests`` (claim ids) are for the book.
    """

    name: str
    summary: str
    key_sizes: tuple[int, ...]
    rounds: int | None = None
    sbox: ByteMap | None = None
    linear: str | None = None
    linear_map: ByteMap | None = None
    iv_options: tuple[tuple[str, Any], ...] = ()
    matrix: tuple[tuple[int, ...], ...] | None = None
    custom: str | None = None
    about: str = ""
    source: str = field(default="", compare=False)
    sbox_plan: SBoxPlan | None = None
    shift_rows: ShiftPlan = ShiftPlan()
    additional_key: int | None = None
    paper: tuple[tuple[str, str], ...] = ()
    tests: tuple[str, ...] = ()

    @property
    def key_dependent(self) -> bool:
        """Whether SubBytes or ShiftRows change with the key (or the additional key byte)."""
        return bool(self.sbox_plan and self.sbox_plan.key_dependent) or self.shift_rows.key_dependent

    @property
    def general(self) -> bool:
        """Whether rounds differ in their S-box or use another ShiftRows: the reference style's general kernel."""
        return bool(self.sbox_plan and self.sbox_plan.round_dependent) or not self.shift_rows.is_aes


@dataclass(frozen=True)
class VariantInfo(CipherInfo):
    """A :class:`~cipherlab.ciphers.registry.CipherInfo` built from a description."""

    description: VariantDescription | None = None

    @property
    def byte_maps(self) -> dict[str, np.ndarray]:
        """``{"sbox": ..., "linear": ...}`` (see :func:`variant_byte_maps`)."""
        return _byte_maps_of(_probe(self))

    def round_tables(self, key: bytes, **options) -> tuple[np.ndarray, np.ndarray]:
        """``(sboxes uint8[R, 256], perms uint8[R, 16])``: SubBytes' S-box and ShiftRows' byte permutation
        (``out[i] = in[p[i]]``) of each round ``1..R`` for ``key`` (checked) and ``options``."""
        key = bytes(key)
        return round_structure(self.make(key, self.check_options(options, len(key))))


# --- kernel form: cipherlab.ciphers._variant_shapes ---------------------------------------------

def _pair(m) -> tuple[np.ndarray, np.ndarray]:
    fwd = m.forward if isinstance(m, ByteMap) else np.asarray(m, dtype=np.uint8).copy()
    inv = np.argsort(fwd).astype(np.uint8)
    fwd.setflags(write=False)
    inv.setflags(write=False)
    return fwd, inv


def _factory(desc: VariantDescription):
    """``build(key, rounds=None)``: the description's key schedule in kernel form (trusts its arguments)."""
    if desc.custom is not None:
        fn = _import_custom(desc.source, desc.custom)

        def build_custom(key: bytes, rounds: int | None = None):
            try:
                spec = fn(key, rounds)
            except TypeError as e:
                raise ValueError(f"{desc.source}: key 'custom': {desc.custom}(key, rounds) failed: {e}") from None
            if not isinstance(spec, AES):
                raise ValueError(f"{desc.source}: key 'custom': {desc.custom} returned {type(spec).__name__}, not a key "
                                 "schedule (an instance of a subclass of cipherlab.ciphers.aes.AES)")
            return spec
        return build_custom
    plan, shift = desc.sbox_plan, desc.shift_rows
    keyed = plan is not None and plan.key_dependent
    main = None if desc.sbox.is_rijndael and not keyed else _pair(desc.sbox)
    second = _pair(desc.linear_map) if desc.linear_map is not None else None
    ivs = dict(desc.iv_options)
    matrices = _matrix_pair(desc.matrix) if desc.matrix is not None else None
    shape = (GENERAL if desc.general else SHAPES)[desc.linear]

    def build(key: bytes, rounds: int | None = None, additional_key: int | None = None):
        spec = shape(key, rounds, **ivs) if desc.linear == "xor-iv" else shape(key, rounds)
        if desc.linear == "byte-map":
            spec.second = second
        elif desc.linear == "matrix":
            spec.matrix, spec.inverse_matrix = matrices
        if desc.general:
            spec.round_sboxes = (plan.tables(key, spec.round_keys, additional_key) if plan is not None else
                                 np.broadcast_to(desc.sbox.forward, (spec.round_keys.shape[0] - 1, 256)).copy())
            spec.round_perms = shift.perms(key, spec.round_keys)
        else:
            spec.main = _pair(plan.tables(key, spec.round_keys[:2], additional_key)[0]) if keyed else main
        spec.own_rounds = desc.rounds  # its Nr: the hardware style's fast kernel (AES.own_rounds)
        return spec
    return build


def _matrix_pair(rows) -> tuple[np.ndarray, np.ndarray]:
    m = np.array(rows, dtype=np.uint8)
    inv = gf_inverse_matrix(m)
    m.setflags(write=False)
    inv.setflags(write=False)
    return m, inv


def _linear_matrix(where: str, linear: dict) -> tuple[tuple[int, ...], ...] | None:
    """``linear.matrix`` as rows (``None`` for another kind); ``ValueError`` naming the key if singular."""
    if "matrix" not in linear:
        return None
    rows = tuple(tuple(int(v) for v in row) for row in linear["matrix"])
    if gf_inverse_matrix(rows) is None:
        raise ValueError(f"{where}: key 'linear.matrix': the matrix {[list(r) for r in rows]} is singular over "
                         "GF(2^8) (AES's polynomial 0x11B), so decryption is impossible; give an invertible one")
    return rows


def _probe(info: CipherInfo):
    """The key schedule of ``info`` for an all-zero key of its first size and its default options."""
    size = info.key_sizes[0]
    return info.make(bytes(size), info.check_options({}, size))


def _styles(spec) -> tuple[str, ...]:
    """The styles a kernel-form object runs in: ``aesni`` only where the hardware round maps."""
    own = SOFTWARE_STYLES
    main = spec._extra().get("sbox")
    if main is not None and not np.array_equal(main[0], rijndael_sbox()):
        return own  # aesenc has the Rijndael S-box built in
    if spec.mix_kind == K.MIX_SECOND_SBOX:
        second = getattr(spec, "second", None)
        if second is None:
            return own
        try:
            _second_sbox_map(np.asarray(second[0]), False)
            _second_sbox_map(np.asarray(second[1]), True)
        except ValueError:
            return own
    elif spec.mix_kind not in (K.MIX_COLUMNS, K.MIX_XOR_IV):
        return own
    return own + ("aesni",)


def _byte_maps_of(spec) -> dict[str, np.ndarray]:
    extra = spec._extra()
    maps = {"sbox": np.array(extra["sbox"][0], dtype=np.uint8) if "sbox" in extra else
            round_structure(spec)[0][0] if getattr(spec, "round_sboxes", None) is not None else rijndael_sbox()}
    if spec.mix_kind == K.MIX_SECOND_SBOX and getattr(spec, "second", None) is not None:
        maps["linear"] = np.array(spec.second[0], dtype=np.uint8)
    return maps


# --- loading -------------------------------------------------------------------------------------

#: The environment variable that allows ``custom:`` (a variant file that runs Python code).
ALLOW_CUSTOM_ENV = "CIPHERLAB_ALLOW_CUSTOM"


def custom_allowed(allow_custom: "bool | None" = None) -> bool:
    """Whether a variant file may name a ``custom:`` callable: ``allow_custom``, else ``CIPHERLAB_ALLOW_CUSTOM=1``."""
    if allow_custom is not None:
        return bool(allow_custom)
    return os.environ.get(ALLOW_CUSTOM_ENV, "") == "1"


def _named(where: str, key: str, check, *args):
    """``check(*args)``, its ``ValueError`` prefixed with the file and the key."""
    try:
        return check(*args)
    except ValueError as e:
        raise ValueError(f"{where}: key {key!r}: {e}") from None


def _byte_map(where: str, key: str, spec: dict, base: Path) -> ByteMap:
    kind = spec["kind"]
    if kind == "rijndael":
        table = rijndael_sbox()
    elif kind == "second-sbox":
        xor_byte = _named(where, f"{key}.xor_byte", _check_xor_byte, spec["xor_byte"])
        construction = _named(where, f"{key}.construction", check_choice, "construction", spec["construction"],
                              SECOND_SBOX_CONSTRUCTIONS)
        table = _second_sbox(xor_byte, construction)[0]
    elif kind == "table":
        table = read_table(where, f"{key}.file", _confined(where, f"{key}.file", base, spec["file"]))
    else:
        table = np.random.default_rng(spec["seed"]).permutation(256).astype(np.uint8)
    return ByteMap(kind, tuple(sorted((k, v) for k, v in spec.items() if k != "kind")), table.tobytes())


def _confined(where: str, key: str, base: Path, name: str) -> Path:
    """``base / name``, which must lie inside ``base`` (the variant file's folder), symlinks resolved."""
    path = (base / name).resolve()
    if not path.is_relative_to(base.resolve()):
        raise ValueError(f"{where}: key {key!r}: a table file must lie in the variant file's folder "
                         f"{base} (a relative path, no '..'), got {name!r}")
    return path


def _import_custom(where: str, target: str):
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(f"{where}: key 'custom': cannot import module {module_name!r} ({e})") from None
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise ValueError(f"{where}: key 'custom': module {module_name!r} has no callable {attr!r}")
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):   # a builtin without one: the call below says so if it fails
        return fn
    try:
        signature.bind(b"", None)
    except TypeError as e:
        raise ValueError(f"{where}: key 'custom': {target} must take (key: bytes, rounds: int | None), "
                         f"its signature is {attr}{signature} ({e})") from None
    return fn


def load_variant(path, *, allow_custom: "bool | None" = None) -> VariantDescription:
    """Read and check the description in the YAML file ``path``.

    ``ValueError`` naming the file and the key for: unreadable or invalid YAML,
    a duplicate key, an anchor or alias, an unknown or missing key, a wrong
    type (``16.0`` is not an integer), ``name`` other than the file's stem, a
    key size or round count out of range, a table file outside the variant
    file's folder or that is not 256 hex bytes forming a permutation, and a
    ``custom`` callable that cannot be imported.

    **A variant file with ``custom:`` runs Python code** (it imports a module
    and calls a callable, as a ``setup.py`` does): it is refused unless
    ``allow_custom=True`` or the environment sets ``CIPHERLAB_ALLOW_CUSTOM=1``
    (:func:`custom_allowed`); nothing is imported before that check.
    """
    path = Path(path)
    where = str(path)
    text = read_regular_text(path, MAX_VARIANT_BYTES, f"variant file {where}")
    try:
        doc = yaml.load(text, Loader=StrictLoader)  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as e:
        raise ValueError(f"{where}: not valid YAML: {yaml_message(e)}") from None
    if not isinstance(doc, dict):
        raise ValueError(f"{where}: must be a mapping (name, summary, key_bytes, sbox, linear, ...), "
                         f"got {type(doc).__name__}")
    errors = sorted(validator().iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        more = f"; and {len(errors) - 10} more problem(s)" if len(errors) > 10 else ""
        raise ValueError(f"{where}: " + "; ".join(schema_message(e)[:500] for e in errors[:10]) + more)
    if doc["name"] != path.stem:
        raise ValueError(f"{where}: key 'name' must equal the file's stem {path.stem!r}, got {doc['name']!r}")
    sizes = doc["key_bytes"] if isinstance(doc["key_bytes"], list) else [doc["key_bytes"]]
    for size in sizes:
        _named(where, "key_bytes", check_choice, "key_bytes", size, KEY_SIZES)
    sizes = tuple(sorted(sizes))
    rounds = doc.get("rounds")
    if rounds is not None:  # the smallest key has the fewest rounds
        _named(where, "rounds", check_rounds, "rounds", rounds, sizes[0])
    common = dict(name=doc["name"], summary=doc["summary"], key_sizes=sizes, rounds=rounds,
                  about=doc.get("about", ""), source=where, paper=tuple(sorted(doc.get("paper", {}).items())),
                  tests=tuple(doc.get("tests", ())))
    if "custom" in doc:
        given = [k for k in ("sbox", "linear", "shift_rows", "additional_key") if k in doc]
        if given:
            raise ValueError(f"{where}: key 'custom' replaces the blocks: remove {given} or 'custom'")
        if not custom_allowed(allow_custom):
            raise ValueError(f"{where}: key 'custom': {doc['custom']!r} would run Python code; refused unless "
                             f"allowed ({ALLOW_CUSTOM_ENV}=1, or load_variant(..., allow_custom=True))")
        _import_custom(where, doc["custom"])
        return VariantDescription(custom=doc["custom"], **common)
    linear = doc["linear"]
    kind = linear.get("kind", "matrix")  # the schema asks for kind unless matrix is given
    matrix = _linear_matrix(where, linear)
    iv_options = ()
    if kind == "xor-iv":
        maes = lookup("maes").options
        iv_options = tuple((o, _named(where, f"linear.{o}", maes[o].validate, o, linear.get(o, maes[o].default),
                                      sizes[0])) for o in IV_OPTIONS)
    plan = _sbox_plan(where, doc["sbox"], path.parent, sizes[0], "additional_key" in doc)
    if "additional_key" in doc and not (plan and plan.uses_additional):
        raise ValueError(f"{where}: key 'additional_key': no S-box step reads it (byte: additional); remove it "
                         "or use it")
    sbox = (_byte_map(where, "sbox", doc["sbox"], path.parent) if plan is None else
            ByteMap(doc["sbox"]["kind"], (("plan", plan),),   # its table for an all-zero key
                    plan.tables(bytes(sizes[0]), AES(bytes(sizes[0])).round_keys[:2],
                                doc.get("additional_key"))[0].tobytes()))
    return VariantDescription(
        sbox=sbox, linear=kind, sbox_plan=plan, shift_rows=parse_shift_rows(where, doc.get("shift_rows"), sizes[0]),
        additional_key=doc.get("additional_key"),
        linear_map=_byte_map(where, "linear.map", linear["map"], path.parent) if kind == "byte-map" else None,
        iv_options=iv_options, matrix=matrix, **common)


def _sbox_plan(where: str, spec: dict, base: Path, min_key: int, additional: bool) -> "SBoxPlan | None":
    """The plan of a ``derived`` or ``per-round`` S-box (:mod:`cipherlab.ciphers.keyed`); None for a fixed one."""
    if spec["kind"] == "per-round":
        return SBoxPlan(per_round=tuple(_byte_map(where, f"sbox.maps[{i}]", m, base).table
                                        for i, m in enumerate(spec["maps"])))
    if spec["kind"] != "derived":
        return None
    source = spec.get("from")
    origin = _byte_map(where, "sbox.base", spec.get("base", {"kind": "rijndael"}), base)
    steps = parse_steps(where, "sbox.steps", spec["steps"], source, 16 if source == "round-key" else min_key,
                        additional)
    return SBoxPlan(origin.table, source, steps)


# --- building and registering --------------------------------------------------------------------

def build_from_description(desc: VariantDescription) -> VariantInfo:
    """The cipher ``desc`` describes, as a registry entry that is **not** registered.

    ``info.make(key, info.check_options({"rounds": r}, len(key)))`` is its key
    schedule; :func:`register_variant_file` registers one.
    """
    summary = desc.summary if "NOT secure" in desc.summary else f"{desc.summary}; NOT secure (a described variant)"
    options = {"rounds": Option(desc.rounds, check=check_rounds,
                                doc=f"rounds 1..Nr (default {desc.rounds or 'Nr'}); fewer are not secure")}
    if desc.additional_key is not None:
        options["additional_key"] = Option(desc.additional_key, check=_check_additional_key,
                                           doc="the additional secret byte beyond the AES key (0..255; default "
                                               f"{desc.additional_key}, the file's)")
    info = VariantInfo(desc.name, _factory(desc), options, desc.key_sizes, SOFTWARE_STYLES, True,
                       summary=summary, description=desc)
    if desc.general:   # the general kernel is the reference style's; AES-NI and T-tables fix S-box and ShiftRows
        return replace(info, styles=("reference",))
    return info if desc.key_dependent else replace(info, styles=_styles(_probe(info)))


def _check_additional_key(name: str, value, key_len: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= int(value) <= 255:
        raise ValueError(f"{name} must be an integer byte 0..255, got {value!r}")
    return int(value)


_REGISTERED: dict[str, VariantInfo] = {}


def check_variant_name(name: str, where: str) -> str:
    """``name`` unless it is a cipher registered by cipherlab itself (``aes``, ``maes-1``, ...): a variant file
    of that name would be shadowed by the built-in cipher, so that its chapter measured the built-in one.
    ``ValueError`` in one line naming the file; a variant registered from a file keeps its name."""
    import cipherlab.ciphers.aes_2sbox  # noqa: F401 - the built-in ciphers register on import: all of them
    import cipherlab.ciphers.maes  # noqa: F401       are known before a name is checked against them
    if name in cipher_names(families=True) and name not in _REGISTERED:
        raise ValueError(f"{where}: key 'name': {name!r} is the name of a cipher built into cipherlab; a variant "
                         f"needs a name (and file) of its own, e.g. {name}-variant")
    return name


def register_variant_file(path, *, allow_custom: "bool | None" = None) -> VariantInfo:
    """Register the variant described in ``path`` under its ``name`` (a research cipher, NOT secure).

    Registering the same description again returns the same entry; a name
    taken by any other cipher (``aes.yaml``, or the same name with another
    description) is a ``ValueError``.
    """
    desc = load_variant(path, allow_custom=allow_custom)
    check_variant_name(desc.name, desc.source)
    if desc.name in cipher_names(families=True):
        known = _REGISTERED.get(desc.name)
        if known is not None and lookup(desc.name) is known and known.description == desc:
            return known
        raise ValueError(f"{desc.source}: key 'name': cipher {desc.name!r} is already registered as a different "
                         "cipher; give the variant a name (and file) of its own")
    info = register(build_from_description(desc))
    _REGISTERED[desc.name] = info
    return info


def variant_byte_maps(name_or_desc) -> dict[str, np.ndarray]:
    """The byte maps of a registered cipher (by name) or of a description.

    ``{"sbox": uint8[256]}`` (the main S-box) plus ``"linear": uint8[256]``
    when the linear layer is a byte map; fresh copies.
    """
    if isinstance(name_or_desc, VariantDescription):
        return build_from_description(name_or_desc).byte_maps
    return _byte_maps_of(_probe(lookup(name_or_desc)))


def variant_linear_layer(name_or_desc) -> tuple[str, "np.ndarray | None"]:
    """``(kind, matrix)`` of a registered cipher (by name) or a description.

    ``kind`` is one of :data:`LINEAR_LAYERS`, read from the key schedule's round
    shape (so a ``custom`` variant and the registered ciphers have one too:
    AES-2SBox is ``byte-map``, MAES ``xor-iv``); ``matrix`` is ``uint8[4, 4]``
    for ``mixcolumns`` (FIPS-197's) and ``matrix``, else ``None``.
    """
    if isinstance(name_or_desc, VariantDescription):
        desc, spec = name_or_desc, _probe(build_from_description(name_or_desc))
    else:
        info = lookup(name_or_desc)
        desc, spec = getattr(info, "description", None), _probe(info)
    if spec.mix_kind == K.MIX_MATRIX:
        return "matrix", np.array(spec.matrix, dtype=np.uint8)
    if spec.mix_kind == K.MIX_COLUMNS:
        return "mixcolumns", np.array(AES_MIX_MATRIX, dtype=np.uint8)
    if spec.mix_kind == K.MIX_SECOND_SBOX:
        return "byte-map", None
    return ("none" if desc is not None and desc.linear == "none" else "xor-iv"), None


def encrypt_with_round_keys(round_keys, blocks) -> np.ndarray:
    """AES's rounds (Rijndael's S-box, ShiftRows, MixColumns but in the last round) run with the round keys
    ``uint8[R + 1, 16]`` given, without a key schedule, on ``uint8[n, 16]`` blocks; returns ``uint8[n, 16]``.

    What a variant is compared with when it is AES under a transformation of its round keys (the variant
    battery's structural equivalence, :mod:`cipherlab.experiments.variant.equivalence`).
    """
    rk = np.asarray(round_keys)
    if rk.dtype != np.uint8 or rk.ndim != 2 or rk.shape[1] != 16 or not 2 <= rk.shape[0] <= 15:
        raise ValueError(f"round_keys must be a uint8 array of shape (R + 1, 16), R in 1..14; got dtype {rk.dtype} "
                         f"shape {rk.shape}")
    b = np.asarray(blocks)
    if b.dtype != np.uint8 or b.ndim != 2 or b.shape[1] != 16:
        raise ValueError(f"blocks must be a uint8 array of shape (n, 16), got dtype {b.dtype} shape {b.shape}")
    flat = np.ascontiguousarray(b).reshape(-1)
    out = np.empty_like(flat)
    K.ecb_serial(flat, out, *build_schedule(np.ascontiguousarray(rk), K.MIX_COLUMNS, "reference", False))
    return out.reshape(-1, 16)
