"""The profiles' schema (the profile's own keys in workflow/schemas/config.schema.yaml, each
chapter's section derived from its Params): every value typed and ranged, no unknown key or
section, checked before any job; notebooks get every parameter from the pipeline."""
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
from cipherlab.report.notebook import check_parameters, declared_parameters, run_notebook


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
    ("maes.trials_bogus=3", "maes", "'trials_bogus' was unexpected"),
    ("maess.trials_block=3", "(top level)", "'maess' was unexpected"),
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
    assert f"\n  {key}" in msg and reason in msg, msg


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


def _tiny_notebook(path):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("profile = 'quick'\ntrials: int = 3\na, b = 1, 2")
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [cell, nbformat.v4.new_code_cell("print(trials)")]
    nbformat.write(nb, path)
    return nb


def test_a_missing_notebook_parameter_is_an_error(tmp_path):
    src = tmp_path / "nb.ipynb"
    nb = _tiny_notebook(src)
    assert declared_parameters(nb) == ["profile", "trials", "a", "b"]
    with pytest.raises(ValueError, match=r"\['trials'\] of the 'parameters' cell are not given"):
        run_notebook(src, tmp_path / "out.ipynb", {"profile": "quick", "a": 1, "b": 2})
    assert not (tmp_path / "out.ipynb").exists()


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
                                          ("maes.trials_bogus=3", "'trials_bogus' was unexpected")])
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
    assert not (root / "data" / "inputs").exists() and not (root / "logs").exists(), "a job ran"
