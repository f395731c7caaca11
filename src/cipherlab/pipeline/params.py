"""A chapter's parameters: one frozen dataclass, its defaults the full profile's values.

Each chapter package declares its parameters once (``experiments/<name>/chapter.py``)::

    @dataclass(frozen=True)
    class Params:
        trials: int = param(120, "phase 1 trials per case, all processes", minimum=2)
        sizes_mb: tuple[float, ...] = param((0.1, 0.5, 1, 3, 5), "file sizes (Figs. 3-10)", SIZES_MB)

Everything else is derived from that class:

- the JSON schema of the chapter's config section (:func:`section_schema`), which
  :mod:`cipherlab.pipeline.config` applies to the profile and the command line's overrides
  (the Snakefile, before any job) and for Python code: the door where a value is checked, once;
- the validated instance a notebook runs with (:func:`make`, and :func:`run_for` for a whole
  :class:`Run`), the full profile's values overridden by the profile file's section and then by
  the notebook's ``overrides``: the job's door, where each value is checked once; the chapter's
  code trusts ``Run.params``;
- the provenance record of a run (:func:`to_config`, JSON-able).

The quick profile (``config/quick.yaml``) names only the values it shrinks.
"""
from __future__ import annotations

import copy
import dataclasses
import typing
from typing import Any, Callable, Mapping

import jsonschema
import yaml

from cipherlab.pipeline import overrides as _overrides
from cipherlab import names
from cipherlab.pipeline.paths import Profile, check_profile, config_file

# --------------------------------------------------------------------------- shared schema pieces
# Pieces of JSON schema that several chapters' parameters share; pass them to param().
PROCESSES = {"description": "fresh interpreters the timings are spread over, one after another "
                            "(trials count all of them)", "minimum": 1, "maximum": 64}
BYTE = {"minimum": 0, "maximum": 255}
PROBABILITY = {"exclusiveMinimum": 0, "exclusiveMaximum": 1}
KEY_HEX = {"pattern": "^(" + "|".join(f"[0-9a-fA-F]{{{2 * n}}}" for n in names.AES_KEY_BYTES) + ")$"}
BLOCK_HEX = {"pattern": "^[0-9a-fA-F]{32}$"}
MODE = {"enum": list(names.MODES)}
MODES = {"minItems": 1, "uniqueItems": True, "items": MODE}
IMPL = {"enum": list(names.OWN_STYLES)}
IMPLS = {"minItems": 1, "uniqueItems": True, "items": IMPL}
FILE_NAME = {"pattern": "^[A-Za-z0-9_.-]+$"}
SIZES_MB = {"minItems": 1, "items": {"type": "number", "exclusiveMinimum": 0}}
INPUTS = {
    "description": "the generated files the chapter reads: {file name: {kind, bytes}}",
    "propertyNames": {"pattern": "^[A-Za-z0-9_.-]+$"},
    "additionalProperties": {
        "type": "object", "required": ["kind"], "additionalProperties": False,
        "properties": {"kind": {"enum": ["text", "random", "zeros", "image"]},
                       "bytes": {"type": "integer", "minimum": 1}},
        "if": {"properties": {"kind": {"not": {"const": "image"}}}},
        "then": {"required": ["kind", "bytes"]},
    },
}

_DOC, _SCHEMA = "cipherlab_doc", "cipherlab_schema"


def param(default: Any, doc: str, *schemas: Mapping[str, Any], **keywords: Any) -> Any:
    """A field of a chapter's ``Params``: its default (the full profile's value), what it means,
    and the JSON-schema constraints beyond its type (shared pieces and keywords, e.g. ``minimum=2``)."""
    schema: dict[str, Any] = {}
    for piece in schemas:
        schema.update(copy.deepcopy(dict(piece)))
    schema.update(keywords)
    metadata = {_DOC: doc, _SCHEMA: schema}
    if isinstance(default, (dict, list, set)):
        frozen = copy.deepcopy(default)
        return dataclasses.field(default_factory=lambda: copy.deepcopy(frozen), metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


# --------------------------------------------------------------------------- schema

_TYPES = {int: "integer", float: "number", str: "string", bool: "boolean", dict: "object"}


def _type_schema(hint: Any) -> dict[str, Any]:
    origin = typing.get_origin(hint)
    if hint in _TYPES:
        return {"type": _TYPES[hint]}
    if origin in (tuple, list):
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        return {"type": "array", **({"items": _type_schema(args[0])} if args else {})}
    if origin is dict:
        return {"type": "object"}
    raise TypeError(f"parameter type {hint!r} has no JSON-schema type: use int, float, str, bool, "
                    "tuple[X, ...] or dict")


def fields(cls: type) -> tuple[dataclasses.Field, ...]:
    """The parameters of a ``Params`` class, in declaration order."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"params must be a dataclass, got {cls!r}")
    return dataclasses.fields(cls)


def default_of(field: dataclasses.Field) -> Any:
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:   # type: ignore[misc]
        return field.default_factory()                     # type: ignore[misc]
    raise TypeError(f"parameter {field.name!r} has no default (the full profile's value)")


def doc_of(field: dataclasses.Field) -> str:
    return field.metadata.get(_DOC, "")


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def section_schema(cls: type) -> dict[str, Any]:
    """The JSON schema of a chapter's config section: every key optional (its default is the full
    profile's), typed and ranged as the class declares, and no other key (a misspelt key is an error)."""
    hints = typing.get_type_hints(cls)
    props: dict[str, Any] = {}
    for f in fields(cls):
        schema = _type_schema(hints[f.name])
        schema.update(copy.deepcopy(f.metadata.get(_SCHEMA, {})))
        desc = doc_of(f)
        if desc and "description" not in schema:
            schema["description"] = desc
        schema["default"] = _jsonable(default_of(f))
        props[f.name] = schema
    return {"type": "object", "additionalProperties": False, "properties": props}


# --------------------------------------------------------------------------- instances


def _key(error: jsonschema.ValidationError) -> str:
    return ".".join(str(p) for p in error.absolute_path) or "(section)"


#: Where a bad value came from: a source's name, or a function of the key giving it.
Where = str | Callable[[str | None], str]


def _where(where: "Where", key: "str | None") -> str:
    return where(key) if callable(where) else where


def check_section(cls: type, values: Any, where: "Where") -> None:
    """``ValueError`` naming every key of ``values`` the section schema refuses, one per line, each after
    ``where``: the source's name, or a function of the key giving it (a section merged from a profile
    and a notebook's overrides names the one each key came from; ``None`` for the section as a whole)."""
    schema = section_schema(cls)
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = sorted(validator.iter_errors(values), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        lines = [f"{_where(where, str(e.absolute_path[0]))}.{_key(e)}: {e.message}" if e.absolute_path
                 else f"{_where(where, None)}: {e.message}" for e in errors]
        raise ValueError("\n".join(lines))


def _convert(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin is tuple and isinstance(value, (list, tuple)):
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        item = args[0] if args else None
        return tuple(_convert(item, v) for v in value)
    return value


def make(cls: type, values: "Mapping[str, Any] | None" = None, *, where: "Where" = "params",
         schema_checked: bool = False) -> Any:
    """An instance of ``cls``: its defaults, replaced by ``values`` (a config section, overrides),
    checked against :func:`section_schema` and the class's own ``check()`` (cross-field rules).

    ``schema_checked``: the caller has just checked ``values`` against the schema (a whole profile,
    :func:`cipherlab.pipeline.config.load_config`), so only ``check()`` runs here: a value passes the
    schema once per process.

    Raises ``ValueError`` with one line per bad key, each naming ``<where>.<key>``.
    """
    values = dict(values or {})
    if not schema_checked:
        check_section(cls, _jsonable(values), where)
    hints = typing.get_type_hints(cls)
    obj = cls(**{k: _convert(hints[k], v) for k, v in values.items()})
    check = getattr(obj, "check", None)
    if callable(check):
        try:
            check()
        except ValueError as exc:
            msg, whole = str(exc), _where(where, None)
            raise ValueError(msg if msg.startswith(whole) else f"{whole}: {msg}") from None
    return obj


def derived(params: Any) -> dict[str, Any]:
    """What a ``Params`` derives from its parameters alone (its method ``derived()``, if it has one; e.g.
    aead's generated ``inputs``, one per size): never set by a profile, recorded beside the parameters."""
    method = getattr(params, "derived", None)
    return dict(method()) if callable(method) else {}


def to_config(params: Any) -> dict[str, Any]:
    """The parameters as a JSON-able dict (provenance, Snakemake's params), in declaration order, then what
    they derive (:func:`derived`)."""
    out = {f.name: _jsonable(getattr(params, f.name)) for f in fields(type(params))}
    out.update((k, _jsonable(v)) for k, v in derived(params).items())
    return out


def changed(params: Any) -> dict[str, Any]:
    """The parameters that differ from the class's defaults (what a profile overrides)."""
    return {f.name: _jsonable(getattr(params, f.name)) for f in fields(type(params))
            if _jsonable(getattr(params, f.name)) != _jsonable(default_of(f))}


# --------------------------------------------------------------------------- what a notebook runs with


def read_profile(profile: str, overrides: "Mapping[str, Any] | None" = None) -> dict[str, Any]:
    """The parsed YAML of a profile (``config/<profile>.yaml``), not yet validated: the values it sets,
    with ``overrides`` applied (default: the run's ``--config``/``--configfile`` overrides,
    :func:`cipherlab.pipeline.overrides.current`)."""
    check_profile(profile)
    with open(config_file(profile), encoding="utf-8") as fh:
        values = yaml.safe_load(fh) or {}
    if not isinstance(values, dict):
        return values   # not a mapping: the schema refuses it, naming the file
    return _overrides.merge(values, _overrides.current() if overrides is None else overrides)


@dataclasses.dataclass(frozen=True)
class Run:
    """A chapter's run: the profile (its tree of inputs and outputs), its seed, and the chapter's
    checked parameters."""

    profile: Profile
    seed: int
    params: Any
    section: str

    @property
    def config(self) -> dict[str, Any]:
        """The parameters as JSON values, for provenance and display."""
        return to_config(self.params)


def run_for(cls: type, section: str, profile: str = "quick", overrides: "Mapping[str, Any] | None" = None) -> Run:
    """The run of the chapter whose parameters are ``cls`` and whose config section is ``section``: the
    defaults, replaced by the profile's section, then by ``overrides`` (a notebook's, e.g.
    ``{"trials": 50}``).  The job's door: each value is checked once, here, and the chapter trusts
    ``Run.params`` (a bad key is named with the source it came from, the profile file or ``overrides``)."""
    cfg = read_profile(profile)
    path = config_file(profile)
    where = str(path.relative_to(path.parent.parent))
    if overrides is not None and not isinstance(overrides, Mapping):
        raise ValueError(f"overrides must be a mapping of {section} parameters, got {overrides!r}")
    given = dict(overrides or {})
    section_values = cfg.get(section)
    if section_values is not None and not isinstance(section_values, Mapping):
        raise ValueError(f"{where}: {section} must be a mapping of its parameters, got {section_values!r}")
    merged = {**(section_values or {}), **given}
    params = make(cls, merged, where=lambda key: f"overrides: {section}" if key in given
                  else f"{where}: {section}" + (" with overrides" if given and key is None else ""))
    seed = cfg.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"{where}: seed must be a non-negative integer, got {seed!r}")
    return Run(profile=Profile(profile), seed=seed, params=params, section=section)
