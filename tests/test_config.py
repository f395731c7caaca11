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


# -- overrides on Snakemake's command line (issue 33, item 3) ------------------------------------------------


@pytest.fixture
def no_overrides(monkeypatch):
    """The environment as a Snakefile finds it; whatever a test exports is undone after it."""
    from cipherlab.pipeline import overrides
    monkeypatch.setenv(overrides.ENV, "")
    return overrides


def test_a_valid_override_takes_effect_everywhere_the_profile_is_read(no_overrides):
    from cipherlab.experiments.maes.chapter import CHAPTER
    from cipherlab.pipeline.provenance import run_metadata

    quick = config.load_config("quick")
    profile, given, cfg = config.resolve_overrides(
        {"profile": "quick", "seed": 5, "maes": {"trials_block": "50"}, "bench_sweep_repeats": 1.0})
    assert profile == "quick" and given == {"seed": 5, "maes": {"trials_block": 50}, "bench_sweep_repeats": 1}
    assert cfg["seed"] == 5 and cfg["maes"]["trials_block"] == 50 and cfg["bench_sweep_repeats"] == 1
    # the profile's other values of the section stay
    assert {k: v for k, v in cfg["maes"].items() if k != "trials_block"} == \
        {k: v for k, v in quick["maes"].items() if k != "trials_block"}
    assert config.load_config("quick") == cfg                      # what a job's reader sees
    run = CHAPTER.run("quick", {})                                   # what a notebook runs with
    assert run.seed == 5 and run.params.trials_block == 50
    assert config.notebook_parameters(cfg, "maes")["overrides"]["trials_block"] == 50
    assert run_metadata(profile="quick")["config_overrides"] == given   # every record names them


def test_no_override_leaves_the_profile_as_its_file_says(no_overrides):
    profile, given, cfg = config.resolve_overrides({"profile": "quick"})
    assert given == {} and cfg == config.load_config("quick") and not no_overrides.current()
    assert config.resolve_overrides({})[0] == "full"


def test_the_door_checks_the_profile_once_and_the_overrides_once(no_overrides, monkeypatch):
    """A run's config is schema-checked at the door twice, each check with its own job (the profile file alone,
    naming the file; then with the overrides), and never again while it is completed."""
    seen = []
    real = config.validate
    monkeypatch.setattr(config, "validate", lambda cfg, where: (seen.append(where), real(cfg, where)))
    profile, given, cfg = config.resolve_overrides({"profile": "quick", "seed": 7})
    assert seen == ["config/quick.yaml", "--config/--configfile"] and cfg["seed"] == 7
    assert cfg == config.load_config("quick")   # the same config as a job reading it alone


@pytest.mark.parametrize("given, message", [
    ({"profile": "nope"}, "--config profile: must be one of full, quick, got 'nope'"),
    ({"profile": "quick", "bogus": 1}, "--config/--configfile: invalid configuration (1 problem(s)): bogus: unknown key"),
    ({"profile": "quick", "maes": {"trials_block": "-1"}}, "maes.trials_block: -1 is less than the minimum of 2"),
    ({"profile": "quick", "maes": {"trials_blok": 3}}, "maes.trials_blok: unknown key (allowed: key_hex,"),
    ({"profile": "quick", "seed": "abc"}, "seed: 'abc' is not of type 'integer'"),
    ({"profile": "quick", "seed": None}, "seed: None is not of type 'integer'"),
    ({"profile": "quick", "maes": 5}, "maes: 5 is not of type 'object'"),
    ({"profile": "quick", "variant": {"names": ["nope"]}}, "variant.names: no file config/variants/<name>.yaml"),
])
def test_a_bad_override_is_refused_in_one_line_and_never_exported(no_overrides, given, message):
    with pytest.raises(ValueError) as err:
        config.resolve_overrides(given)
    assert message in config.one_line(err.value) and "\n" not in config.one_line(err.value)
    assert not no_overrides.current()


def test_many_unknown_keys_give_a_short_error():
    cfg = {**config.read_config("quick"), **{f"k{i}": i for i in range(300_000)}}
    with pytest.raises(ValueError) as err:
        config.validate(cfg, "x")
    msg = str(err.value)
    assert len(msg) < 3000 and "(300000 problem(s))" in msg and "and 299990 more" in msg


@pytest.mark.parametrize("value, schema, expected", [
    ("50", {"type": "integer"}, 50),
    ("5.0", {"type": "integer"}, 5),
    (5.0, {"type": "integer"}, 5),
    ("0.5", {"type": "number"}, 0.5),
    ("true", {"type": "boolean"}, True),
    ("00ff", {"type": "string"}, "00ff"),                       # text stays text, digits or not
    ("000", {"type": "string"}, "000"),
    (["1", "2"], {"type": "array", "items": {"type": "number"}}, [1, 2]),
    ({"a": {"bytes": "10"}}, {"type": "object", "additionalProperties": {"properties": {"bytes": {"type": "integer"}}}},
     {"a": {"bytes": 10}}),
    ("abc", {"type": "integer"}, "abc"),                          # left for the schema to refuse by name
    ("[unclosed", {"type": "array"}, "[unclosed"),
])
def test_coerce_reads_command_line_text_as_the_schema_types_it(value, schema, expected):
    assert config.coerce(value, schema) == expected
