"""The maes chapter's driver (cipherlab.experiments.maes.driver): measure and build return exactly the declared
names, with provenance, and the deterministic tables are the same run to run.  Tiny inputs; no timing asserted."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from cipherlab.analysis import verdicts as V
from cipherlab.experiments.maes import driver
from cipherlab.experiments.maes.chapter import CHAPTER
from cipherlab.pipeline.inputs import test_image as photograph

TINY = {"processes": 1, "trials_keyexp": 2, "trials_stage": 2, "trials_block": 2, "trials_bulk": 2, "warmup": 1,
        "trials_steps": 2, "steps_states": 16,
        "stage_blocks": 16, "dependency_blocks": 4, "impls": ["reference", "table"],
        "inputs": {"maes_image.npy": {"kind": "image"}, "maes_bulk_64.bin": {"kind": "random", "bytes": 64}},
        "bulk_file": "maes_bulk_64.bin"}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A stand-in run: the tiny parameters, inputs in a temporary folder."""
    folder = tmp_path_factory.mktemp("maes-inputs")
    np.save(folder / "maes_image.npy", np.ascontiguousarray(photograph()[:32, :32]))
    (folder / "maes_bulk_64.bin").write_bytes(bytes(range(64)))
    profile = SimpleNamespace(name="quick", input_file=lambda name: folder / name)
    return SimpleNamespace(profile=profile, seed=5, params=CHAPTER.make_params(TINY))


@pytest.fixture(scope="module")
def measured(run):
    return driver.measure(run)


def test_measure_returns_every_raw_file_with_its_provenance(run, measured):
    assert tuple(measured) == CHAPTER.raw
    run_ids = set()
    for name, (df, extra) in measured.items():
        assert isinstance(df, pd.DataFrame) and len(df)
        assert extra["experiment"] == name and extra["impls_measured"] == ["reference", "table"]
        assert extra["min_trial_seconds"] == driver.min_trial_seconds() > 0
        assert set(df["run_id"]) == {extra["run_id"]}
        run_ids.add(extra["run_id"])
    assert len(run_ids) == 1       # one run, every file
    assert set(measured["maes_bulk"][0]["bytes"]) == {64}


def test_build_returns_exactly_the_declared_outputs_and_is_deterministic(run, measured):
    raw = {name: df for name, (df, _) in measured.items()}
    built = driver.build(run, raw)
    assert set(built) == set(CHAPTER.outputs)
    for name in CHAPTER.all_tables:
        assert isinstance(built[name], pd.DataFrame) and len(built[name]), name
    for name in CHAPTER.figures:
        assert hasattr(built[name], "savefig"), name
    known = set(V.load_claims()["claim_id"])
    assert set(built["evidence_maes"]["claim_id"]) <= known
    assert set(built["maes_entropy"]["mode"]) == {"none", "ecb", "cbc", "ctr"}
    again = driver.build(run, raw)
    for name in CHAPTER.tables + ("maes_table1", "evidence_maes"):   # same raw: same tables, byte for byte
        assert built[name].to_csv(index=False) == again[name].to_csv(index=False), name


def test_setup_reads_key_and_iv_and_checks_the_styles_this_cpu_runs(run, monkeypatch):
    s = driver.setup(run)
    assert s.key == bytes.fromhex(run.params.key_hex) and s.iv == bytes(range(16))
    assert s.options == {"iv_source": "sha3", "sha3": "sha3_256", "sha3_chain": "iv"}
    from cipherlab.experiments.maes import common
    monkeypatch.setattr(common, "available_impls", lambda: ("reference",))
    with pytest.raises(ValueError, match="optimized_style"):   # the paper's optimized AES cannot be timed here
        driver.setup(run)
