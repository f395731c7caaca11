"""Loading the pipeline's configuration profiles (``config/config.yaml``, ``config/quick.yaml``)."""
from __future__ import annotations

from typing import Any

import yaml

from .paths import PROFILES, check_profile, config_file

CHAPTER_SECTIONS = ("aes2sbox", "maes", "aead", "security")


def load_config(profile: str) -> dict[str, Any]:
    """The configuration of a profile, checked for the keys every rule relies on."""
    check_profile(profile)
    path = config_file(profile)
    with open(path, encoding="utf-8") as fh:
        cfg = yaml.safe_load(fh) or {}
    validate(cfg, str(path))
    if cfg["profile"] != profile:
        raise ValueError(f"{path}: profile is {cfg['profile']!r}, expected {profile!r}")
    return cfg


def validate(cfg: dict[str, Any], where: str = "config") -> None:
    if cfg.get("profile") not in PROFILES:
        raise ValueError(f"{where}: 'profile' must be one of {PROFILES}, got {cfg.get('profile')!r}")
    if not isinstance(cfg.get("seed"), int):
        raise ValueError(f"{where}: 'seed' must be an integer")
    for section in CHAPTER_SECTIONS:
        if not isinstance(cfg.get(section, {}), dict):
            raise ValueError(f"{where}: section {section!r} must be a mapping")


def input_specs(cfg: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every input file the profile needs: ``{file name: {"kind": ..., "bytes": ...}}``.

    Chapters declare their inputs under ``<chapter>.inputs``; a name declared
    twice must have the same spec.
    """
    specs: dict[str, dict[str, Any]] = {}
    for section in CHAPTER_SECTIONS:
        for name, spec in (cfg.get(section, {}) or {}).get("inputs", {}).items():
            if name in specs and specs[name] != spec:
                raise ValueError(f"input {name!r} is declared twice with different specs: "
                                 f"{specs[name]} and {spec}")
            specs[name] = dict(spec)
    return specs


def notebook_parameters(cfg: dict[str, Any], section: str, **extra: Any) -> dict[str, Any]:
    """Parameters passed to a chapter's notebooks: the section (minus ``inputs``), profile and seed."""
    if section not in CHAPTER_SECTIONS:
        raise ValueError(f"section must be one of {CHAPTER_SECTIONS}, got {section!r}")
    params = {k: v for k, v in (cfg.get(section) or {}).items() if k != "inputs"}
    params.update(profile=cfg["profile"], seed=cfg["seed"])
    params.update(extra)
    return params
