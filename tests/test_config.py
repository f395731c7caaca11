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


def test_notebook_parameters():
    cfg = {"profile": "quick", "seed": 3, "maes": {"trials": 2, "inputs": {"x": {}}}}
    assert config.notebook_parameters(cfg, "maes") == {"trials": 2, "profile": "quick", "seed": 3}
    with pytest.raises(ValueError, match="section must be one of"):
        config.notebook_parameters(cfg, "book")
