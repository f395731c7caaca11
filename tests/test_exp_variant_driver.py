"""Tests of the variant battery: the battery's driver: saving, bad parameters, the chapter's declaration (experiments.variant.driver)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cipherlab.experiments.variant import driver
from cipherlab.experiments.variant.chapter import VARIANTS
from cipherlab.experiments.variant import affinity, bytemaps, correctness, speed
from cipherlab.pipeline import paths

from variant_toys import SMALL, toy_affine

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")


@pytest.fixture(scope="module")
def batteries():
    return {"aes": driver.run_battery("aes", seed=3, **SMALL)}


def _timed(results: dict) -> dict:
    """``results`` with stand-ins for what measuring speed adds (SMALL turns it off)."""
    raw = pd.DataFrame({"cipher": ["aes"], "impl": ["table"], "mode": ["ecb"], "operation": ["encrypt"],
                        "bytes": [16], "trial": [0], "seconds": [1e-6], "run_id": ["r1"]})
    return {**results, "speed_raw": raw, "speed": pd.DataFrame({"x": [1]}), "compile": pd.DataFrame({"x": [1]})}


def test_save_is_byte_identical(batteries, monkeypatch, tmp_path):
    """driver.save writes every declared table through outputs.save, the same bytes from the same seed."""
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path)
    run = VARIANTS.run("quick")
    prof = paths.Profile("quick")
    driver.save(run, _timed(batteries["aes"]))
    first = {t: prof.table(f"variant_aes_{t}").read_bytes() for t in driver.TABLES}
    driver.save(run, _timed(driver.run_battery("aes", seed=3, **SMALL)))
    assert first == {t: prof.table(f"variant_aes_{t}").read_bytes() for t in driver.TABLES}
    assert all(prof.figure(f"variant_aes_{f}", "png").is_file() for f in VARIANTS.figures)
    partial = {k: v for k, v in _timed(batteries["aes"]).items() if k not in ("speed", "compile")}
    with pytest.raises(ValueError, match=r"variant 'aes': tables: missing \['speed', 'compile'\]"):
        driver.save(run, partial)


def test_the_raw_speed_file_records_the_seed_and_the_parameters_that_ran(batteries, monkeypatch, tmp_path):
    import json

    assert batteries["aes"]["seed"] == 3
    assert {k: batteries["aes"]["parameters"][k] for k in SMALL} == SMALL
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path)
    run = VARIANTS.run("quick", {"speed_trials": 3})
    driver.save(run, _timed(batteries["aes"]))
    meta = json.loads(paths.Profile("quick").raw_meta("variant_aes_speed").read_text())
    assert (meta["seed"], meta["config"], meta["run_id"], meta["variant"]) == (run.seed, run.config, "r1", "aes")
    assert meta["config"]["speed_trials"] == 3


# ---------------------------------------------------------------- bad parameters

@pytest.mark.parametrize("kwargs, name", [
    ({"variant": "no-such-cipher"}, "variant"),
    ({"variant": "aes", "affinity_triples": 0}, "affinity_triples"),
    ({"variant": "aes", "image_stride": -1}, "image_stride"),
    ({"variant": "aes", "measure_speed": "yes"}, "measure_speed"),
    ({"variant": "aes", "speed_trials": 1.5}, "speed_trials"),
    ({"variant": "aes", "speed_bytes": 100}, "speed_bytes"),
    ({"variant": "aes", "trail_rounds": 0}, "trail_rounds"),
])
def test_bad_battery_parameters(kwargs, name):
    with pytest.raises(ValueError, match=name):
        driver.run_battery(**kwargs)


@pytest.mark.parametrize("call, name", [
    (lambda: affinity.affinity_test(toy_affine(0)[0], n_triples=0), "n_triples"),
    (lambda: affinity.gf2_inverse(np.zeros((2, 3))), "matrix"),
    (lambda: affinity.decrypt_with_model(None, b"", mode="ctr"), "mode"),
    (lambda: affinity.BlockOracle(42), "encrypt_blocks"),
    (lambda: correctness.correctness_table("aes", n_messages=0), "n_messages"),
    (lambda: speed.measure_speed("aes", nbytes=17), "nbytes"),
    (lambda: bytemaps.is_affine(np.arange(10)), "sbox"),
])
def test_bad_parameters_name_themselves(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# ---------------------------------------------------------------- the declaration

def test_the_battery_runs_with_every_parameter_the_chapter_declares(monkeypatch):
    """driver.battery passes each Params field (names aside: the list a run builds) to run_battery, by name."""
    import dataclasses
    import inspect

    from cipherlab.experiments.variant.chapter import VARIANTS

    run = VARIANTS.run("quick", {"trail_rounds": 5})
    seen = {}
    monkeypatch.setattr(driver, "run_battery", lambda variant, **kw: seen.update(kw, variant=variant) or {})
    driver.battery(run, "aes-4-rounds")
    counts = {f.name: getattr(run.params, f.name) for f in dataclasses.fields(run.params) if f.name != "names"}
    assert seen == {**counts, "variant": "aes-4-rounds", "profile": "quick", "seed": run.seed}
    assert seen["trail_rounds"] == 5
    monkeypatch.undo()
    # and run_battery takes each of them (a renamed keyword fails here, not in the pipeline)
    assert set(counts) <= set(inspect.signature(driver.run_battery).parameters)


@pytest.mark.parametrize("overrides, key", [
    ({"names": ["aes-4-rounds", "aes-4-rounds"]}, "names"), ({"names": ["../x"]}, "names"),
    ({"names": ["no-such-variant"]}, "variant.names"), ({"trail_rounds": 21}, "trail_rounds"),
    ({"speed_bytes": 24}, "speed_bytes"), ({"speed_trials": 1}, "speed_trials"),
    ({"speed_processes": 65}, "speed_processes"), ({"keystream_bytes": 1000}, "keystream_bytes"),
    ({"serial_m": 1}, "serial_m"), ({"lambda_sets": 0}, "lambda_sets"), ({"bogus": 1}, "bogus"),
])
def test_the_variant_section_refuses_what_the_battery_cannot_run(overrides, key):
    from cipherlab.experiments.variant.chapter import VARIANTS

    with pytest.raises(ValueError, match=key):
        VARIANTS.run("quick", overrides)


def test_a_shipped_runs_book_reads_the_speed_trials_instead_of_timing(monkeypatch, tmp_path):
    """In the tree of a shipped run's book, battery() takes the run's speed trials (through the one raw reader:
    measured with these parameters and seed, of this variant) and never times; another configuration is refused."""
    from cipherlab.experiments.variant.chapter import VARIANTS
    from cipherlab.pipeline import paths
    from cipherlab.pipeline.provenance import run_metadata
    from cipherlab.pipeline.results import RawDataError, save_raw

    monkeypatch.setattr(paths, "TREES_DIR", tmp_path)
    monkeypatch.setenv(paths.TREE_ENV, "runs/some-box-2026-11-27")
    run = VARIANTS.run("quick")
    trials = pd.DataFrame({"case": ["aes"], "seconds": [0.1]})
    meta = run_metadata(profile="quick", seed=run.seed, config=run.config, variant="aes-4-rounds")
    save_raw(trials, "variant_aes-4-rounds_speed", run.profile, meta=meta)
    seen = {}
    monkeypatch.setattr(driver, "run_battery", lambda variant, **kw: seen.update(kw) or {})
    monkeypatch.setattr(driver.speed, "measure_speed", lambda *a, **k: pytest.fail("a shipped run's book timed"))
    driver.battery(run, "aes-4-rounds")
    assert seen["speed_raw"].equals(trials)
    other = VARIANTS.run("quick", {"speed_trials": run.params.speed_trials + 1})
    with pytest.raises(RawDataError, match="other parameters.*speed_trials"):
        driver.battery(other, "aes-4-rounds")
