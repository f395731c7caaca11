"""A host without AES-NI (every ARM laptop) runs the pipeline: the hardware style is *not measured*, never a crash.

CI runs the chapters that time the hardware style, MAES and AES-2SBox (``snakemake maes aes2sbox``: their
inputs, the selfcheck, the measuring and chapter notebooks), once as the emulated machine without AES
instructions (``--config machine=no-aes``, what ``make reproduce NO_AES=1`` runs: every job gets
``NUMBA_CPU_NAME=generic``, so the JIT target has no ``aes`` feature, see ``cipherlab.ciphers.cpu``, and
PyCryptodome's AES runs without it too), in that machine's own tree (``build/machines/no-aes/quick/``).
The other chapters never ask for ``aesni`` unless their config lists it, and the selfcheck and ``impl="auto"`` already skip it (``available_impls``). The run's evidence is
compared with the session's quick run (``quick_tree``): every condition decided by another style is
there, the verdicts are decided, and nothing claims a hardware-style measurement.

Cheap on purpose (CI's budget): the run, in a copy of the session's quick run, makes the two chapters'
inputs, the selfcheck, the two measuring notebooks and the two chapters in the emulated machine's tree,
with the fewest trials and one process (:data:`FEW_TRIALS`): what is tested is that nothing asks for the
hardware style, not the timings; and that the user's own trees are left alone.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pandas as pd
import pytest
import yaml

from cipherlab.analysis import verdicts as V
from cipherlab.pipeline import paths
from pipeline_tree import copy_tree

NOT_MEASURED = "not measured: this CPU has no AES-NI"
TARGETS = ("maes", "aes2sbox")


#: The quick profile's timing keys, cut to the least the schema allows (per chapter section).
FEW_TRIALS = {
    "maes": {"processes": 1, "trials_keyexp": 3, "trials_stage": 3, "stage_blocks": 1024, "trials_block": 3,
             "trials_bulk": 3, "trials_steps": 3, "steps_states": 64, "warmup": 1},
    "aes2sbox": {"processes": 1, "avalanche_plaintexts": 4},
}


def few_trials(tree) -> None:
    """Cut the tree's quick profile to :data:`FEW_TRIALS` (and each AES-2SBox protocol to 3 trials)."""
    path = tree.root / "config" / "quick.yaml"
    cfg = yaml.safe_load(path.read_text())
    for section, values in FEW_TRIALS.items():
        cfg[section].update(values)
    for protocol in cfg["aes2sbox"]["protocols"].values():
        protocol.update(trials=3, warmup=1)
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))


@pytest.fixture(scope="module")
def generic_tree(quick_tree, tmp_path_factory):
    tree = copy_tree(quick_tree, tmp_path_factory.mktemp("no-aesni") / "tree")
    few_trials(tree)
    start = time.monotonic()
    proc = tree.snakemake("--cores", "2", *TARGETS, config=("machine=no-aes",), check=False)
    tree.seconds = time.monotonic() - start
    tree.log = proc.stdout + proc.stderr
    assert proc.returncode == 0, "\n".join(tree.log.splitlines()[-60:])
    print(f"\nquick pipeline ({' '.join(TARGETS)}) with AES-NI forbidden: {tree.seconds:.0f} s")
    return tree


def test_maes_times_only_the_styles_this_cpu_runs(monkeypatch):
    from cipherlab.experiments.maes import common as X
    from cipherlab.experiments.maes import common
    monkeypatch.setattr(common, "available_impls", lambda: ("reference", "table", "pycryptodome"))
    styles, skipped = X.measured_impls(["reference", "table", "aesni"])
    assert styles == ("reference", "table") and list(skipped) == ["aesni"]
    assert skipped["aesni"].startswith(NOT_MEASURED) and X.NOT_MEASURED_NO_AESNI == NOT_MEASURED
    monkeypatch.setattr(common, "available_impls", lambda: ("reference", "table", "aesni", "pycryptodome"))
    assert X.measured_impls(["reference", "aesni"]) == (("reference", "aesni"), {})


def _profile_in(tree, monkeypatch, machine_tree: str = ""):
    monkeypatch.setattr(paths, "DATA_DIR", tree.root / "data")
    monkeypatch.setattr(paths, "ROOT", tree.root)
    monkeypatch.setattr(paths, "TREES_DIR", tree.root / "build")
    return paths.Profile("quick", tree=machine_tree)


#: The emulated machine's tree (cipherlab.pipeline.paths.Profile).
NO_AES = "machines/no-aes"


def test_aesni_is_really_forbidden_in_the_tree():
    code = "from cipherlab.ciphers.modes import available_impls; print(','.join(available_impls()))"
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_CPU_NAME": "generic"},
                         capture_output=True, text=True, timeout=300, check=True).stdout
    assert "aesni" not in out.split(","), out


@pytest.mark.pipeline
def test_no_hardware_rows_and_the_chapters_say_why(generic_tree):
    base = generic_tree.root / "build" / NO_AES / "quick"
    for name in ("maes_keyexp", "maes_stage", "maes_block", "maes_bulk", "aes2sbox_speed"):
        frame = pd.read_csv(base / "raw" / f"{name}.csv")
        if "impl" in frame:
            assert "aesni" not in set(frame["impl"]), name
        record = json.loads((base / "raw" / f"{name}.meta.json").read_text())
        assert record["jit_target"]["cpu_name"] == "generic", name
    assert NOT_MEASURED in (base / "notebooks" / "maes.ipynb").read_text()
    assert NOT_MEASURED in (base / "notebooks" / "maes_measure.ipynb").read_text()


@pytest.mark.pipeline
def test_the_emulated_machine_leaves_the_users_trees_alone(generic_tree, quick_tree):
    for top in ("data/raw/quick", "data/tables/quick", "build/quick/notebooks"):
        mine = {p.relative_to(generic_tree.root): p.stat().st_mtime_ns for p in (generic_tree.root / top).rglob("*")}
        theirs = {p.relative_to(quick_tree.root): p.stat().st_mtime_ns for p in (quick_tree.root / top).rglob("*")}
        assert mine == theirs, top


@pytest.mark.pipeline
def test_a_partial_emulated_run_is_refused_as_incomplete_in_one_line(generic_tree):
    proc = generic_tree.python("-m", "cipherlab.shipped", "contribute", "--profile", "quick", "--emulated", "no-aes",
                               check=False)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("error: an incomplete run: build/machines/no-aes/quick/raw lacks ")


@pytest.mark.pipeline
def test_every_claim_is_decided_and_the_other_styles_evidence_is_kept(generic_tree, quick_tree, monkeypatch):
    chapters = list(TARGETS)
    generic = V.load_evidence(_profile_in(generic_tree, monkeypatch, NO_AES), chapters)
    full = V.load_evidence(_profile_in(quick_tree, monkeypatch), chapters)
    assert "aesni" not in set(generic["style"])
    # not "size": the run without AES-NI is cut to fewer trials, and some sizes count them ("5120 flips")
    key = ["chapter", "claim_id", "style", "mode", "reading"]
    expected = set(map(tuple, full.loc[full["style"] != "aesni", key].astype(str).values))
    got = set(map(tuple, generic[key].astype(str).values))
    assert expected <= got, f"evidence lost without AES-NI: {sorted(expected - got)[:10]}"
    for chapter in chapters:
        decided = V.decide_all(V.claims_of_chapter(chapter), generic[generic["chapter"] == chapter])
        assert len(decided) and decided["verdict"].notna().all()
        assert "aesni" not in set(decided["style"].astype(str))
