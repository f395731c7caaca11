"""Loading the pipeline's configuration profiles (``config/config.yaml``, ``config/quick.yaml``)."""
from __future__ import annotations

from typing import Any

import jsonschema
import yaml

from cipherlab.pipeline import chapters
from cipherlab.pipeline.paths import WORKFLOW_DIR, check_profile, config_file

#: The one schema of the profiles; the Snakefile applies it too, with Snakemake's validate().
#: The chapter sections it requires come from the chapter manifest (:func:`schema`).
CONFIG_SCHEMA = WORKFLOW_DIR / "schemas" / "config.schema.yaml"


def chapter_sections() -> tuple[str, ...]:
    """The config sections of the chapters, in reading order (``workflow/chapters.yaml``), then
    ``variant`` when the manifest declares variant chapters."""
    manifest = chapters.load()
    return tuple(c.section for c in manifest.chapters) + ((manifest.variants.section,) if manifest.variants else ())


def variant_list(cfg: dict[str, Any]) -> tuple[str, ...]:
    """The variants a run of this profile builds (``variant.names``), each checked to have its file."""
    if not chapters.load().variants:
        return ()
    return chapters.check_variant_names((cfg.get("variant") or {}).get("names", []),
                                        where=f"config ({cfg.get('profile')}): variant.names")


def read_config(profile: str) -> dict[str, Any]:
    """The parsed YAML of a profile, not yet validated."""
    check_profile(profile)
    with open(config_file(profile), encoding="utf-8") as fh:
        return yaml.safe_load(fh) or {}


def load_config(profile: str) -> dict[str, Any]:
    """The configuration of a profile, validated against :data:`CONFIG_SCHEMA`.

    Raises
    ------
    ValueError
        Naming each key that is missing or has a bad value, e.g.
        ``config/quick.yaml: aead.trials: -1 is less than the minimum of 2``.
    """
    path = config_file(profile)
    cfg = read_config(profile)
    validate(cfg, str(path.relative_to(path.parent.parent)))
    if cfg["profile"] != profile:
        raise ValueError(f"{path}: profile is {cfg['profile']!r}, expected {profile!r}")
    return cfg


def schema() -> dict[str, Any]:
    """The profiles' schema, requiring the section of every chapter of the manifest."""
    with open(CONFIG_SCHEMA, encoding="utf-8") as fh:
        sch = yaml.safe_load(fh)
    sections = chapter_sections()
    sch["required"] = list(dict.fromkeys([*sch.get("required", []), *sections]))
    props = sch.setdefault("properties", {})
    for section in sections:
        props.setdefault(section, {"type": "object"})
    return sch


def _key(error: jsonschema.ValidationError) -> str:
    key = ".".join(str(p) for p in error.absolute_path)
    if error.validator == "required":  # name the missing key itself
        missing = error.message.split("'")[1] if "'" in error.message else ""
        key = f"{key}.{missing}" if key else missing
    return key or "(top level)"


def validate(cfg: Any, where: str = "config") -> None:
    """Check a profile's configuration against the schema; ``ValueError`` naming every bad key."""
    sch = schema()
    validator_cls = jsonschema.validators.validator_for(sch)
    errors = sorted(validator_cls(sch).iter_errors(cfg), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        lines = [f"{_key(e)}: {e.message}" for e in errors]
        raise ValueError(f"{where}: invalid configuration ({len(errors)} problem(s); "
                         f"schema {CONFIG_SCHEMA.relative_to(WORKFLOW_DIR.parent)}):\n  " + "\n  ".join(lines))


def input_specs(cfg: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every input file the profile needs: ``{file name: {"kind": ..., "bytes": ...}}``.

    Chapters declare their inputs under ``<chapter>.inputs``; a name declared
    twice must have the same spec.
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
    """Parameters passed to a chapter's notebooks: the section (minus ``inputs``), profile and seed."""
    sections = chapter_sections()
    if section not in sections:
        raise ValueError(f"section must be one of {sections}, got {section!r}")
    params = {k: v for k, v in (cfg.get(section) or {}).items() if k != "inputs"}
    params.update(profile=cfg["profile"], seed=cfg["seed"])
    params.update(extra)
    return params
