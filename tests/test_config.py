"""cipherlab.pipeline.config: loading and validating the profiles, notebook parameters."""
from __future__ import annotations

import pytest

from cipherlab.pipeline import config, paths
@pytest.mark.parametrize("profile", paths.PROFILES)
def test_shipped_configs_load(profile):
    cfg = config.load_config(profile)
    assert cfg["profile"] == profile
    config.input_specs(cfg)  # consistent input declarations


@pytest.mark.parametrize("cfg,match", [
    ({"seed": 1}, "profile: 'profile' is a required property"),
    ({"profile": "quick"}, "seed: 'seed' is a required property"),
    ({"profile": "quick", "seed": "1"}, "seed: '1' is not of type 'integer'"),
    ({"profile": "quick", "seed": 1, "maes": [1]}, r"maes: \[1\] is not of type 'object'"),
])
def test_config_validation_errors(cfg, match):
    with pytest.raises(ValueError, match=match):
        config.validate(cfg)


def test_input_declared_twice_differently_is_an_error():
    cfg = {"profile": "quick", "seed": 1,
           "maes": {"inputs": {"a.bin": {"kind": "random", "bytes": 1}}},
           "aead": {"inputs": {"a.bin": {"kind": "random", "bytes": 2}}}}
    with pytest.raises(ValueError, match="declared twice"):
        config.input_specs(cfg)


def test_notebook_parameters_are_the_profile_and_what_its_file_sets():
    cfg = config.load_config("quick")
    given = config.notebook_parameters(cfg, "maes")
    assert given == {"profile": "quick", "overrides": config.read_config("quick").get("maes") or {}}
    assert config.notebook_parameters(cfg, "variant", variant="v")["variant"] == "v"
    with pytest.raises(ValueError, match="section must be one of"):
        config.notebook_parameters(cfg, "book")


@pytest.mark.parametrize("profile", paths.PROFILES)
def test_loaded_sections_are_complete(profile):
    """load_config fills every chapter's section: the defaults, then the profile's values, then what they
    derive (aead's generated inputs, one per size)."""
    from cipherlab.pipeline import chapters, params
    cfg, raw = config.load_config(profile), config.read_config(profile)
    for section, decl in chapters.load().sections.items():
        made = decl.make_params(raw.get(section))
        assert set(cfg[section]) == {f.name for f in params.fields(decl.params)} | set(params.derived(made))
        assert all(cfg[section][k] == v for k, v in (raw.get(section) or {}).items())
