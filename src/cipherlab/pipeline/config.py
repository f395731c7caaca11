"""The pipeline's profiles (``config/config.yaml``, ``config/quick.yaml``) and what a notebook runs with.

A profile holds the run's own keys (``profile``, ``seed``, ...) and, per chapter, only the
values it changes: each chapter's parameters and their defaults (the full profile's values)
are declared by its package (:mod:`cipherlab.pipeline.chapters`,
:mod:`cipherlab.pipeline.params`).  The profile's schema is the file
``workflow/schemas/config.schema.yaml`` (the run's own keys) with one section per chapter
derived from its ``Params`` (:func:`schema`); the Snakefile applies it to the profile and to the
command line's overrides (:func:`resolve_overrides`: ``--config``, ``--configfile``, handed to
every job by :mod:`cipherlab.pipeline.overrides`) and :func:`load_config` applies it for Python
code.  A chapter's notebook gets its parameters as one checked :class:`Run` (:func:`chapter_run`).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

import jsonschema
import yaml

from cipherlab.pipeline import chapters
from cipherlab.pipeline import overrides as _overrides
from cipherlab.pipeline import params as _params
from cipherlab.pipeline.paths import PROFILES, WORKFLOW_DIR, config_file

#: The schema of a profile's own keys (profile, seed, ...); :func:`schema` adds the chapters' sections.
CONFIG_SCHEMA = WORKFLOW_DIR / "schemas" / "config.schema.yaml"


def chapter_sections() -> tuple[str, ...]:
    """The config sections of the chapters, in reading order, then ``variant`` when the variant
    chapters are declared."""
    return tuple(chapters.load().sections)


def declaration(section: str) -> "chapters.Chapter | chapters.Variants":
    """The chapter (or the variant chapters) owning config section ``section``."""
    sections = chapters.load().sections
    if section not in sections:
        raise ValueError(f"section must be one of {tuple(sections)}, got {section!r}")
    return sections[section]


def schema() -> dict[str, Any]:
    """The profiles' schema: the run's own keys, and each chapter's section derived from its ``Params``
    (every key optional, defaulting to the full profile's value; no other key, and no other section)."""
    with open(CONFIG_SCHEMA, encoding="utf-8") as fh:
        sch = yaml.safe_load(fh)
    props = sch.setdefault("properties", {})
    for section, decl in chapters.load().sections.items():
        props[section] = _params.section_schema(decl.params)
    sch["additionalProperties"] = False
    return sch


def write_schema(path: "str | Path") -> Path:
    """:func:`schema` as a JSON file (for Snakemake's ``validate()`` in a workflow of one's own, which reads a
    schema from a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(schema(), indent=1, sort_keys=True) + "\n"
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        tmp = path.with_name(path.name + ".part")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return path


def variant_list(cfg: dict[str, Any]) -> tuple[str, ...]:
    """The variants a run of this profile builds (``variant.names``), each checked to have its file."""
    if not chapters.load().variants:
        return ()
    return chapters.check_variant_names((cfg.get("variant") or {}).get("names", []),
                                        where=f"config ({cfg.get('profile')}): variant.names")


def built_variants(cfg: dict[str, Any]) -> tuple[str, ...]:
    """Every variant a run of this profile builds: those ``variant.names`` lists, and every variant that comes
    with its paper's claims (a paper of the book, :func:`cipherlab.pipeline.chapters.variant_papers`)."""
    if not chapters.load().variants:
        return ()
    return tuple(dict.fromkeys([*variant_list(cfg), *chapters.variant_papers()]))


def read_config(profile: str) -> dict[str, Any]:
    """The parsed YAML of a profile with the run's overrides applied (:mod:`cipherlab.pipeline.overrides`),
    not yet validated: the values the profile sets."""
    return _params.read_profile(profile)


def _types(sch: Mapping[str, Any]) -> list[str]:
    kind = sch.get("type")
    return [kind] if isinstance(kind, str) else list(kind or [])


def coerce(value: Any, sch: Mapping[str, Any]) -> Any:
    """``value`` from Snakemake's ``--config`` read as the schema ``sch`` types it.

    Snakemake parses a top-level ``KEY=VALUE`` as a number, a boolean or text, but every scalar
    inside a mapping or list (``'maes={trials_block: 50}'``) as text; here a text where the schema
    wants no text is read as YAML (``"50"`` -> 50, ``"[1, 2]"`` -> [1, 2]), and a whole float where it
    wants an integer becomes one. Anything else is left as it is, for the schema to refuse by name.
    """
    types = _types(sch)
    if isinstance(value, str) and types and "string" not in types:
        try:
            value = yaml.safe_load(value)
        except yaml.YAMLError:
            return value
    if isinstance(value, float) and value.is_integer() and "integer" in types and "number" not in types:
        return int(value)
    if isinstance(value, Mapping):
        props, extra = sch.get("properties", {}), sch.get("additionalProperties")
        return {k: coerce(v, props.get(k, extra if isinstance(extra, Mapping) else {})) for k, v in value.items()}
    if isinstance(value, list):
        items = sch.get("items", {})
        return [coerce(v, items if isinstance(items, Mapping) else {}) for v in value]
    return value


def resolve_overrides(snakemake_config: Mapping[str, Any]) -> "tuple[str, dict[str, Any], dict[str, Any]]":
    """The profile a Snakemake run names (``--config profile=...``, default ``full``), the overrides of
    its values (every other key of ``--config`` and ``--configfile``), checked and handed to every job
    (:func:`cipherlab.pipeline.overrides.export`), and the run's resolved config (:func:`load_config`).

    Raises ``ValueError`` in one line: a profile that is not ``full`` or ``quick``; the profile file's own
    problems (naming the file); an override the schema refuses (``--config/--configfile: maes.trials_block:
    -1 is less than the minimum of 1``; an unknown key or section is refused, never ignored); an override
    a chapter's cross-parameter check refuses.
    """
    given = dict(snakemake_config)
    profile = given.pop("profile", "full")
    if profile not in PROFILES:
        raise ValueError(f"--config profile: must be one of {', '.join(PROFILES)}, got {profile!r}")
    sch = schema()
    props = sch.get("properties", {})
    overrides = {k: coerce(v, props.get(k, {})) for k, v in given.items()}
    path = config_file(profile)
    where = str(path.relative_to(path.parent.parent))
    own = _params.read_profile(profile, overrides={})
    validate(own, where)
    merged = _overrides.merge(own, overrides)
    validate(merged, "--config/--configfile")
    _overrides.export(overrides)
    try:
        # checked once above, the profile alone and then with the overrides: complete it without checking again
        cfg = _complete(merged, profile, where + (" with the --config/--configfile overrides" if overrides else ""))
    except ValueError:
        _overrides.export({})
        raise
    return profile, overrides, cfg


def one_line(exc: BaseException) -> str:
    """An error's message as one line (a multi-line message's lines joined by ``; ``)."""
    return "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())


def _key(error: jsonschema.ValidationError) -> str:
    key = ".".join(str(p) for p in error.absolute_path)
    if error.validator == "required":  # name the missing key itself
        missing = error.message.split("'")[1] if "'" in error.message else ""
        key = f"{key}.{missing}" if key else missing
    return key or "(top level)"


#: Problems named in one error (a file with thousands of bad keys gives a short line, not megabytes).
_MAX_ERRORS = 10


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[:limit - 3] + "..."


def _lines(error: jsonschema.ValidationError) -> list[str]:
    """``key: what is wrong``; an unknown key is named itself, with the keys allowed there."""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(error.schema.get("properties", {}))
        prefix = "".join(f"{p}." for p in error.absolute_path)
        hint = ", ".join(allowed[:15]) + (", ..." if len(allowed) > 15 else "")
        return [f"{prefix}{_short(str(k), 60)}: unknown key (allowed: {hint})"
                for k in error.instance if k not in allowed]
    return [f"{_key(error)}: {_short(error.message)}"]


def validate(cfg: Any, where: str = "config") -> None:
    """Check a profile against :func:`schema`; ``ValueError`` in one line naming each bad key (the first
    ten, and how many more)."""
    sch = schema()
    validator_cls = jsonschema.validators.validator_for(sch)
    errors = sorted(validator_cls(sch).iter_errors(cfg), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        lines = [line for e in errors for line in _lines(e)]
        more = f"; and {len(lines) - _MAX_ERRORS} more" if len(lines) > _MAX_ERRORS else ""
        raise ValueError(f"{where}: invalid configuration ({len(lines)} problem(s)): "
                         + "; ".join(lines[:_MAX_ERRORS]) + more)


def load_config(profile: str) -> dict[str, Any]:
    """A profile, validated, with every chapter's section complete (its ``Params``, as JSON values).

    Raises
    ------
    ValueError
        Naming each bad key, e.g. ``config/quick.yaml: aead.trials: -1 is less than the minimum of 2``.
    """
    path = config_file(profile)
    where = str(path.relative_to(path.parent.parent))
    if _overrides.current():
        where += " with the --config/--configfile overrides"
    cfg = read_config(profile)
    validate(cfg, where)
    return _complete(cfg, profile, where)


def _complete(cfg: dict[str, Any], profile: str, where: str) -> dict[str, Any]:
    """A validated profile with every chapter's section complete (its ``Params``, as JSON values)."""
    if cfg["profile"] != profile:
        raise ValueError(f"{where}: profile is {cfg['profile']!r}, expected {profile!r}")
    out = dict(cfg)
    for section, decl in chapters.load().sections.items():
        out[section] = _params.to_config(decl.make_params(cfg.get(section), where=f"{where}: {section}",
                                                          schema_checked=True))   # validate() just did
    return out


# --------------------------------------------------------------------------- what a notebook runs with

#: A chapter's run (profile, seed, checked parameters): :class:`cipherlab.pipeline.params.Run`.
Run = _params.Run


def chapter_run(decl: "chapters.Chapter | chapters.Variants | str", profile: str = "quick",
                overrides: "Mapping[str, Any] | None" = None) -> Run:
    """The run of a chapter (or of the section's declaration, by name): :meth:`Chapter.run`."""
    decl = declaration(decl) if isinstance(decl, str) else decl
    return decl.run(profile, overrides)


def input_specs(cfg: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every input file the profile needs: ``{file name: {"kind": ..., "bytes": ...}}``.

    ``cfg`` is :func:`load_config`'s (sections complete).  Chapters declare their inputs as the
    parameter ``inputs``; a name declared twice must have the same spec.
    """
    specs: dict[str, dict[str, Any]] = {}
    for section in chapter_sections():
        for name, spec in (cfg.get(section, {}) or {}).get("inputs", {}).items():
            if name in specs and specs[name] != spec:
                raise ValueError(f"input {name!r} is declared twice with different specs: "
                                 f"{specs[name]} and {spec}")
            specs[name] = dict(spec)
    return specs


def book_parameters(cfg: dict[str, Any]) -> dict[str, Any]:
    """Parameters of the book's own pages (verdicts, findings, environment): the profile, its seed and
    the chapters whose evidence the verdict page reads (those declaring ``evidence_<name>``)."""
    return {"profile": cfg["profile"], "seed": cfg["seed"], "chapters": list(chapters.evidence_chapters())}


def notebook_parameters(cfg: dict[str, Any], section: str, **extra: Any) -> dict[str, Any]:
    """Parameters passed to a chapter's notebooks: the profile and, as ``overrides``, the values the
    profile file sets in the chapter's section (the notebook resolves the rest from the chapter's defaults)."""
    declaration(section)
    raw = read_config(cfg["profile"])
    params = {"profile": cfg["profile"], "overrides": dict(raw.get(section) or {})}
    params.update(extra)
    return params


def resolved_section(cfg: dict[str, Any], section: str) -> dict[str, Any]:
    """The chapter's complete parameters in this profile (JSON values): what its rules depend on."""
    declaration(section)
    return dict(cfg[section])
