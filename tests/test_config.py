"""cipherlab.pipeline.config: loading and validating the profiles, notebook parameters; the profiles' schema (the
profile's own keys in workflow/schemas/config.schema.yaml, each chapter's section derived from its Params): every
value typed and ranged, no unknown key or section, checked before any job; notebooks get every parameter from the
pipeline."""
from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys

import nbformat
import pytest
import yaml

from cipherlab.pipeline import config, paths
from cipherlab.report.notebook import check_parameters


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


# -- the profiles' schema: every value typed and ranged, no unknown key or section, checked before any job ------

def _mutate(cfg, mutation):
    cfg = copy.deepcopy(cfg)
    keys, _, value = mutation.partition("=")
    *parents, last = keys.removeprefix("del ").split(".")
    d = cfg
    for k in parents:   # a section the profile does not set (the defaults run) is made
        d = d.setdefault(k, {})
    if mutation.startswith("del "):
        del d[last]
    else:
        d[last] = yaml.safe_load(value)
    return cfg


# (mutation, the key the message must name, a fragment of the reason)
BAD = [
    ("aead.trials=-1", "aead.trials", "minimum"),
    ("aead.sizes_mb=abc", "aead.sizes_mb", "not of type 'array'"),
    ("aead.sizes_mb=[0.1, abc]", "aead.sizes_mb.1", "not of type 'number'"),
    ("aes2sbox.xor_byte=999", "aes2sbox.xor_byte", "maximum"),
    ("security.xor_byte=-1", "security.xor_byte", "minimum"),
    ("maes.trials_bogus=3", "maes.trials_bogus", "unknown key (allowed: key_hex, "),
    ("maess.trials_block=3", "maess", "unknown key (allowed: profile, seed, "),
    ("del profile", "profile", "required"),
    ("maes.key_hex=2b7e", "maes.key_hex", "does not match"),
    ("maes.iv_source=hash", "maes.iv_source", "is not one of"),
    ("maes.trials_bulk=true", "maes.trials_bulk", "not of type 'integer'"),
    ("aes2sbox.protocols.000.trials=0", "aes2sbox.protocols.000.trials", "minimum"),
    ("aes2sbox.impls=[fast]", "aes2sbox.impls.0", "is not one of"),
    ("aead.nonce_bytes.ccm=20", "aead.nonce_bytes.ccm", "maximum"),
    ("maes.inputs.maes_image.npy.kind=photo", "maes.inputs", "is not one of"),
    ("seed=-5", "seed", "minimum"),
    ("profile=medium", "profile", "is not one of"),
]


@pytest.mark.parametrize("profile", paths.PROFILES)
def test_shipped_profiles_satisfy_the_schema(profile):
    config.validate(config.read_config(profile), profile)


@pytest.mark.parametrize("profile", paths.PROFILES)
@pytest.mark.parametrize("mutation,key,reason", BAD, ids=[b[0] for b in BAD])
def test_bad_values_are_rejected_naming_the_key(profile, mutation, key, reason):
    if mutation.startswith("maes.inputs.maes_image.npy"):
        cfg = copy.deepcopy(config.read_config(profile))
        cfg.setdefault("maes", {})["inputs"] = {"maes_image.npy": {"kind": "photo"}}
    else:
        cfg = _mutate(config.read_config(profile), mutation)
    with pytest.raises(ValueError) as err:
        config.validate(cfg, f"config/{profile}.yaml")
    msg = str(err.value)
    assert f"): {key}" in msg or f"; {key}" in msg, msg
    assert reason in msg and "\n" not in msg, msg


def test_every_notebook_parameter_is_a_config_key():
    """What the pipeline injects covers each notebook's parameters cell (no silent defaults)."""
    from cipherlab.pipeline.config import notebook_parameters

    for profile in paths.PROFILES:
        cfg = config.load_config(profile)
        for nb_path in sorted(paths.NOTEBOOKS_DIR.glob("*.ipynb")):
            nb = nbformat.read(nb_path, as_version=4)
            section = nb_path.stem.removesuffix("_measure")
            extra = {"variant": cfg["variant"]["names"][0]} if section == "variant" else {}   # the rule's --set
            params = (notebook_parameters(cfg, section, **extra) if section in config.chapter_sections()
                      else config.book_parameters(cfg) | ({"paper": "000"} if section == "report" else {}))
            check_parameters(nb, params, nb_path)  # raises if one is missing


def _tree_copy(tmp_path):
    """The files Snakemake needs to plan, in a temporary tree (never the checkout's config)."""
    root = tmp_path / "tree"
    root.mkdir()
    for name in ("Snakefile", "pyproject.toml"):
        shutil.copy2(paths.ROOT / name, root / name)
    for name in ("workflow", "config", "src", "notebooks", "book"):
        shutil.copytree(paths.ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__", "_build"))
    shutil.copytree(paths.PAPER_DATA_DIR, root / "data" / "paper")
    return root


@pytest.mark.parametrize("mutation,key", [("aead.trials=-1", "aead.trials: -1 is less than the minimum"),
                                          ("aead.sizes_mb=abc", "aead.sizes_mb: 'abc' is not of type"),
                                          ("aes2sbox.xor_byte=999", "aes2sbox.xor_byte: 999 is greater than"),
                                          ("maes.trials_bogus=3", "maes.trials_bogus: unknown key")])
def test_snakemake_stops_before_any_job(tmp_path, mutation, key):
    root = _tree_copy(tmp_path)
    cfg_path = root / "config" / "quick.yaml"
    cfg_path.write_text(yaml.safe_dump(_mutate(yaml.safe_load(cfg_path.read_text()), mutation)))
    env = dict(os.environ, CIPHERLAB_ROOT=str(root))
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "1", "--config", "profile=quick"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert key in out, out
    assert f"cipherlab: config/quick.yaml: invalid configuration (1 problem(s)): {key}" in out, out
    assert not (root / "data" / "inputs").exists() and not (root / "logs").exists(), "a job ran"


# -- overrides on the command line, through Snakemake (issue 33, item 3) ---------------------------------

PROBE = ["profile=quick", "maes={trials_block: -1}", "seed=abc", "bogus=1"]


@pytest.mark.parametrize("given, message", [
    (PROBE, "cipherlab: --config/--configfile: invalid configuration (3 problem(s)): bogus: unknown key "
            "(allowed: profile, seed, bench_sweep_repeats, "),
    (["profile=quick", "seed=1.5"], "seed: 1.5 is not of type 'integer'"),
    (["profile=quick", "aead={sizes_mb: [0.1, 0]}"], "aead.sizes_mb.1: 0 is less than or equal to the minimum of 0"),
    (["profile=quick", "variant={names: [nope]}"], "variant.names: no file config/variants/<name>.yaml for ['nope']"),
    (["profile=nope"], "cipherlab: --config profile: must be one of full, quick, got 'nope'"),
    (["profile=quick", "--configfile", "bad.yaml"], "maes.trials_bogus: unknown key"),
])
def test_snakemake_refuses_a_bad_override_in_one_line_before_any_job(tmp_path, given, message):
    """The probe's line said "Nothing to be done": every override was ignored, the invalid ones too."""
    root = _tree_copy(tmp_path)
    (root / "bad.yaml").write_text("maes: {trials_bogus: 3}\n")
    env = dict(os.environ, CIPHERLAB_ROOT=str(root))
    env.pop("CIPHERLAB_OVERRIDES", None)
    proc = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--config", *given], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip()]
    assert proc.returncode != 0 and len(lines) == 1, lines
    assert message in lines[0], lines[0]
    if given == PROBE:
        assert "maes.trials_block: -1 is less than the minimum of 2" in lines[0] and "seed: 'abc'" in lines[0]


def test_a_valid_override_reaches_the_jobs(tmp_path):
    """A job Snakemake runs with `--config seed=5` (and a --configfile) uses the overridden values: the
    generated input is seed 5's, not the profile's."""
    from cipherlab.pipeline.inputs import write_input

    root = _tree_copy(tmp_path)
    (root / "more.yaml").write_text("aead: {trials: 40}\n")
    env = dict(os.environ, CIPHERLAB_ROOT=str(root))
    env.pop("CIPHERLAB_OVERRIDES", None)
    target = "data/inputs/quick/aead_text_1000.txt"
    proc = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "1", target, "--configfile", "more.yaml",
                           "--config", "profile=quick", "seed=5"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    spec = config.load_config("quick")["aead"]["inputs"]["aead_text_1000.txt"]
    for folder, seed in (("seed5", 5), ("profile", config.read_config("quick")["seed"])):
        (tmp_path / folder).mkdir()
        write_input(tmp_path / folder / "aead_text_1000.txt", spec, seed=seed)   # the name seeds the content too
    made = (root / target).read_bytes()
    assert made == (tmp_path / "seed5" / "aead_text_1000.txt").read_bytes()
    assert made != (tmp_path / "profile" / "aead_text_1000.txt").read_bytes()
