"""cipherlab.pipeline.overrides: the command line's overrides of a profile, handed to every job."""
from __future__ import annotations

import pytest

from cipherlab.pipeline import overrides, params


def test_merge_replaces_own_keys_and_merges_sections_parameter_by_parameter():
    profile = {"profile": "quick", "seed": 1, "maes": {"a": 1, "b": [1, 2]}, "aead": {"c": 3}}
    merged = overrides.merge(profile, {"seed": 2, "maes": {"b": [3]}, "security": {"d": 4}})
    assert merged == {"profile": "quick", "seed": 2, "maes": {"a": 1, "b": [3]}, "aead": {"c": 3},
                      "security": {"d": 4}}
    assert profile["maes"] == {"a": 1, "b": [1, 2]}   # unchanged


def test_export_and_current_round_trip(monkeypatch):
    monkeypatch.setenv(overrides.ENV, "")
    assert overrides.current() == {}
    overrides.export({"seed": 3, "maes": {"trials_block": 5}})
    assert overrides.current() == {"seed": 3, "maes": {"trials_block": 5}}
    assert params.read_profile("quick")["seed"] == 3 and params.read_profile("quick", overrides={})["seed"] != 3
    overrides.export({})
    assert overrides.current() == {}


@pytest.mark.parametrize("text, message", [("{bad", "invalid JSON"), ("[1]", "got list")])
def test_a_corrupt_variable_is_one_line(monkeypatch, text, message):
    monkeypatch.setenv(overrides.ENV, text)
    with pytest.raises(ValueError, match=message) as err:
        overrides.current()
    assert "\n" not in str(err.value) and overrides.ENV in str(err.value)
