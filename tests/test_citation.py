"""The repository is citable: CITATION.cff is valid Citation File Format 1.2.0 (checked against the
format's own JSON schema, vendored in tests/schemas/ from the `cffconvert` package's copy, CC-BY-4.0, so
the check runs offline), and it, .zenodo.json, LICENSE and pyproject.toml agree."""
from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "tests" / "schemas" / "citation-cff-1.2.0.schema.json").read_text(encoding="utf-8"))


def cff() -> dict:
    # YAML dates would load as datetime.date; the schema wants strings (as cffconvert reads them)
    return yaml.load((ROOT / "CITATION.cff").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)


def validate(doc: dict) -> None:
    jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(doc)


def test_citation_cff_is_valid_cff_1_2_0():
    doc = cff()
    assert doc["cff-version"] == "1.2.0"
    validate(doc)


@pytest.mark.parametrize("breakage", [
    lambda d: d.pop("authors"),
    lambda d: d.pop("title"),
    lambda d: d.update(authors=[{"nickname": 3}]),
    lambda d: d.update({"license": "not-a-licence"}),
    lambda d: d.update({"unknown-key": "x"}),
])
def test_the_schema_check_can_fail(breakage):
    doc = copy.deepcopy(cff())
    breakage(doc)
    with pytest.raises(jsonschema.ValidationError):
        validate(doc)


def test_citation_zenodo_licence_and_pyproject_agree():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    doc = cff()
    zenodo = json.loads((ROOT / ".zenodo.json").read_text(encoding="utf-8"))
    licence = project["license"]["text"]
    assert doc["version"] == zenodo["version"] == project["version"]
    assert doc["license"] == zenodo["license"] == licence
    assert doc["title"] == zenodo["title"]
    assert zenodo["upload_type"] == "software" and zenodo["creators"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith(f"{licence} License"), f"LICENSE is not the {licence} licence pyproject.toml declares"
