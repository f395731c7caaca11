"""cipherlab.pipeline.runs: shipped runs made, checked and unpacked, on synthetic runs in a temporary tree.

Each test gets a tree of its own (``data/``, ``build/``) by pointing the path module's roots at a temporary
directory; a synthetic run is two raw files written by the one raw writer and one chapter's evidence.
"""
from __future__ import annotations

import gzip
import json
import os
import time

import pandas as pd
import pytest

from cipherlab.pipeline import paths, runs
from cipherlab.pipeline.provenance import run_metadata
from cipherlab.pipeline.results import save_raw

CONFIG = {"trials": 3, "sizes": [16, 64]}
EXPECTED = {"toy_a": {"seed": 7, "config": CONFIG}, "toy_b": {"seed": 7, "config": CONFIG}}
EVIDENCE = {"toy": ("toy_a", "toy_b")}   # the chapter and the raw files its evidence is derived from


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """The path module's roots in a temporary directory: data/, data/runs/, build/."""
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path / "data")
    monkeypatch.setattr(paths, "RUNS_DIR", tmp_path / "data" / "runs")
    monkeypatch.setattr(paths, "TREES_DIR", tmp_path / "build")
    monkeypatch.delenv(paths.TREE_ENV, raising=False)
    return tmp_path


def write_run(profile="quick", tree="", **extra):
    """A synthetic run of ``profile``: raw files toy_a and toy_b with their records, and evidence_toy after them."""
    prof = paths.Profile(profile, tree=tree)
    for i, name in enumerate(EXPECTED):
        meta = run_metadata(profile=profile, seed=7, config=CONFIG, run_id=f"20261127T10000{i}Z-abcd", **extra)
        save_raw(pd.DataFrame({"trial": range(5 + i), "seconds": [0.5 + 0.01 * t for t in range(5 + i)]}),
                 name, prof, meta=meta)
    time.sleep(0.01)
    prof.tables.mkdir(parents=True, exist_ok=True)
    prof.table("evidence_toy").write_text("claim_id,estimate\nx,1.5\n")
    return prof


def contribute(**kw):
    return runs.contribute("quick", EXPECTED, EVIDENCE, **kw)


def one_line(exc) -> str:
    text = str(exc.value)
    assert "\n" not in text, text
    return text


def test_contribute_makes_one_folder_named_by_machine_and_date_with_card_raw_and_evidence(tree):
    write_run()
    folder = contribute(machine="lab-box")
    run = runs.load_run(folder.name)
    assert folder == tree / "data" / "runs" / f"lab-box-{run.card['dates']['last'][:10]}"
    assert run.profile == "quick" and run.machine == "lab-box" and run.emulated is None
    card = run.card
    for key in ("model", "id", "flags", "logical_cores", "aes_instructions"):
        assert key in card["cpu"], key
    for key in ("memory_gib", "os", "python", "openssl", "jit_target", "commit", "run_ids"):
        assert key in card, key
    assert set(card["packages"]) >= {"numba", "llvmlite", "pycryptodome"}
    assert sorted(run.raw_names) == ["toy_a", "toy_b"] and run.evidence_chapters == ("toy",)
    src = paths.Profile("quick")
    assert gzip.decompress(run.raw_gz("toy_a").read_bytes()) == src.raw_csv("toy_a").read_bytes()
    assert run.raw_meta("toy_b").read_bytes() == src.raw_meta("toy_b").read_bytes()
    assert card["files"]["raw"]["toy_b"]["rows"] == 6
    readme = (folder / "README.md").read_text()
    assert f"# Shipped run `{folder.name}`" in readme and f"make from-run RUN={folder.name} QUICK=1" in readme
    assert not list(paths.RUNS_DIR.glob(".*"))


def test_the_same_run_is_refused_twice_and_a_second_run_that_day_gets_its_own_folder(tree):
    write_run()
    first = contribute(machine="m")
    with pytest.raises(runs.RunError, match="already shipped as data/runs/" + first.name) as exc:
        contribute(machine="m")
    one_line(exc)
    for path in paths.Profile("quick").raw.glob("*.meta.json"):   # another run: other run ids
        meta = json.loads(path.read_text())
        meta["run_id"] += "x"
        path.write_text(json.dumps(meta))
    second = contribute(machine="m")
    assert second.name == first.name + "-2"


def test_the_compressed_files_are_deterministic(tree):
    write_run()
    a = contribute(machine="m")
    data = {p.name: p.read_bytes() for p in (a / "raw").iterdir()}
    os.rename(a, tree / "elsewhere")
    b = contribute(machine="m")
    assert {p.name: p.read_bytes() for p in (b / "raw").iterdir()} == data


def test_an_incomplete_run_is_refused_in_one_line(tree):
    prof = write_run()
    prof.raw_csv("toy_b").unlink()
    with pytest.raises(runs.RunError, match="an incomplete run: .* lacks toy_b") as exc:
        contribute()
    one_line(exc)
    write_run()
    prof.table("evidence_toy").unlink()
    with pytest.raises(runs.RunError, match="an incomplete run: it lacks .*evidence_toy.csv") as exc:
        contribute()
    one_line(exc)
    assert not paths.RUNS_DIR.exists() or not list(paths.RUNS_DIR.iterdir())


def _edit_record(name, **changes):
    path = paths.Profile("quick").raw_meta(name)
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))


@pytest.mark.parametrize("changes, match", [
    ({"git_commit": "b" * 40}, "more than one commit"),
    ({"node": {"hostname": "another-box"}}, "more than one machine"),
    ({"jit_target": {"cpu_name": "generic", "cpu_features": "host"}}, "more than one JIT target"),
    ({"python": "3.12.0"}, "more than one set of Python and package versions"),
], ids=["commit", "host", "jit-target", "versions"])
def test_a_mixed_run_is_refused_in_one_line(tree, changes, match):
    write_run()
    _edit_record("toy_b", **changes)   # the record only: the CSV's rows and digest still hold
    with pytest.raises(runs.RunError, match=match) as exc:
        contribute()
    assert "a mixed run" in one_line(exc)


def test_evidence_older_than_the_raw_files_is_a_mixed_run(tree):
    prof = write_run()
    old = prof.raw_csv("toy_a").stat().st_mtime - 60
    os.utime(prof.table("evidence_toy"), (old, old))
    with pytest.raises(runs.RunError, match="evidence_toy.csv older than the raw files") as exc:
        contribute()
    one_line(exc)


def test_a_raw_file_measured_with_other_parameters_is_refused(tree):
    write_run()
    with pytest.raises(runs.RunError, match="other parameters.*trials") as exc:
        runs.contribute("quick", {**EXPECTED, "toy_a": {"seed": 7, "config": {**CONFIG, "trials": 4}}}, EVIDENCE)
    one_line(exc)


@pytest.fixture
def shipped(tree):
    write_run()
    return contribute(machine="m")


def test_check_run_passes_a_whole_run_of_this_code(shipped):
    run = runs.check_run(shipped.name, "quick", EXPECTED, EVIDENCE)
    assert run.name == shipped.name


def _corrupt_truncated(run):
    data = run.raw_gz("toy_a").read_bytes()
    run.raw_gz("toy_a").write_bytes(data[: len(data) // 2])


def _corrupt_byte(run):
    data = bytearray(run.raw_gz("toy_a").read_bytes())
    data[len(data) // 2] ^= 0x01
    run.raw_gz("toy_a").write_bytes(bytes(data))


def _recompressed_short(run):
    text = gzip.decompress(run.raw_gz("toy_a").read_bytes()).decode().splitlines()
    run.raw_gz("toy_a").write_bytes(gzip.compress(("\n".join(text[:-1]) + "\n").encode(), mtime=0))


def _missing_meta(run):
    run.raw_meta("toy_a").unlink()


def _other_experiment(run):
    run.raw_meta("toy_a").write_bytes(run.raw_meta("toy_b").read_bytes())


def _edited_evidence(run):
    path = run.evidence_file("toy")
    path.write_text(path.read_text().replace("1.5", "2.5"))


@pytest.mark.parametrize("corrupt, match", [
    (_corrupt_truncated, r"data/runs/m-.*/raw/toy_a.csv.gz: not a whole gzip file"),
    (_corrupt_byte, r"data/runs/m-.*/raw/toy_a.csv.gz: (not a whole gzip file|.*SHA-256)"),
    (_recompressed_short, r"data/runs/m-.*/raw/toy_a.csv.gz: 4 rows, but toy_a.meta.json recorded 5"),
    (_missing_meta, r"toy_a.csv.gz: its provenance record toy_a.meta.json is missing"),
    (_other_experiment, r"toy_a.csv.gz: its toy_a.meta.json is the record of experiment 'toy_b'"),
    (_edited_evidence, r"data/runs/m-.*/evidence/evidence_toy.csv: SHA-256"),
], ids=["truncated", "changed-byte", "rows", "missing-meta", "other-experiment", "edited-evidence"])
def test_an_integrity_failure_is_one_line_naming_the_file(shipped, corrupt, match):
    run = runs.load_run(shipped.name)
    corrupt(run)
    with pytest.raises(runs.RunError, match=match) as exc:
        runs.check_run(shipped.name, "quick", EXPECTED, EVIDENCE)
    text = one_line(exc)
    assert "make reproduce measures it anew" not in text   # a shipped file is fetched again, not re-measured


def test_a_run_of_another_profile_is_refused(shipped):
    with pytest.raises(runs.RunError, match=r"a quick-profile run, refused for the full profile \(add QUICK=1\)") as exc:
        runs.check_run(shipped.name, "full", EXPECTED, EVIDENCE)
    one_line(exc)
    with pytest.raises(ValueError, match="quick-profile run"):
        runs.tree_of(run=shipped.name, profile="full")


def test_a_run_lacking_a_raw_file_this_code_needs_is_refused(shipped):
    with pytest.raises(runs.RunError, match="has no raw file toy_c"):
        runs.check_run(shipped.name, "quick", {**EXPECTED, "toy_c": {}}, EVIDENCE)


def test_a_card_of_another_format_or_a_missing_run_is_refused(shipped):
    card = shipped / "card.json"
    card.write_text(json.dumps({**json.loads(card.read_text()), "format": 99}))
    with pytest.raises(runs.RunError, match="format 99, this cipherlab reads format 1"):
        runs.load_run(shipped.name)
    with pytest.raises(runs.RunError, match="no such shipped run"):
        runs.load_run("nothing-here")
    with pytest.raises(runs.RunError, match="run must be a name"):
        runs.load_run("../etc")


def test_unpack_writes_the_checked_file_and_its_record_into_the_runs_own_tree(shipped):
    into = paths.Profile("quick", tree=f"runs/{shipped.name}")
    out = runs.unpack(shipped.name, "toy_a", into, EXPECTED["toy_a"])
    own = paths.Profile("quick", tree="")
    assert out == into.raw_csv("toy_a") and out.read_bytes() == own.raw_csv("toy_a").read_bytes()
    assert into.raw_meta("toy_a").read_bytes() == own.raw_meta("toy_a").read_bytes()
    assert str(into.raw).startswith(str(paths.TREES_DIR / "runs" / shipped.name))
    with pytest.raises(runs.RunError, match="unpacked into its own tree"):
        runs.unpack(shipped.name, "toy_a", own, EXPECTED["toy_a"])


def test_unpack_writes_nothing_when_the_file_is_not_whole(shipped):
    run = runs.load_run(shipped.name)
    _recompressed_short(run)
    into = paths.Profile("quick", tree=f"runs/{shipped.name}")
    with pytest.raises(runs.RunError, match="4 rows"):
        runs.unpack(shipped.name, "toy_a", into, EXPECTED["toy_a"])
    assert not into.raw_csv("toy_a").exists() and not into.raw_meta("toy_a").exists()
    assert not list(into.raw.glob(".*.part")) if into.raw.exists() else True


def test_an_emulated_machines_run_is_contributed_from_its_own_tree_and_named_so(tree, monkeypatch):
    write_run(tree="machines/no-aes", jit_target={"cpu_name": "generic", "cpu_features": "host"})
    folder = runs.contribute("quick", EXPECTED, EVIDENCE, emulated="no-aes")
    run = runs.load_run(folder.name)
    assert run.emulated == "no-aes" and folder.name.split("-")[-4] == "aes" and "-no-aes-" in folder.name
    assert run.card["cpu"]["aes_instructions"] is False and run.card["emulated"]["env"] == {"NUMBA_CPU_NAME": "generic"}
    assert "without AES instructions" in run.label
    write_run()   # the machine itself, the same day
    real = contribute()
    assert runs.latest_run("quick") == real.name and runs.latest_run("quick") != folder.name


def test_an_emulated_run_not_measured_as_that_machine_is_refused(tree):
    write_run(tree="machines/no-aes")   # the host's JIT target
    with pytest.raises(runs.RunError, match="not measured as the emulated machine no-aes"):
        runs.contribute("quick", EXPECTED, EVIDENCE, emulated="no-aes")


def test_shipped_runs_lists_the_runs_of_a_profile(shipped):
    assert [r.name for r in runs.shipped_runs("quick")] == [shipped.name]
    assert runs.shipped_runs("full") == [] and runs.shipped_runs("quick", exclude=[shipped.name]) == []
    with pytest.raises(runs.RunError, match="no shipped run of the full profile"):
        runs.latest_run("full")


def test_tree_of_names_the_tree_and_refuses_both_at_once(shipped):
    assert runs.tree_of() == "" and runs.tree_of(machine="no-aes") == "machines/no-aes"
    assert runs.tree_of(run=shipped.name, profile="quick") == f"runs/{shipped.name}"
    with pytest.raises(ValueError, match="do not go together"):
        runs.tree_of(run=shipped.name, machine="no-aes")
    with pytest.raises(ValueError, match="machine must be one of"):
        runs.tree_of(machine="no-avx")


def test_raw_files_lists_every_chapters_raw_the_sweep_and_each_listed_variant():
    from cipherlab.pipeline import chapters
    from cipherlab.pipeline.config import load_config, variant_list

    cfg = load_config("quick")
    files = runs.raw_files(cfg)
    manifest = chapters.load()
    assert {n for ch in manifest.chapters for n in ch.raw} | {"bench_sweep"} <= set(files)
    for variant in variant_list(cfg):
        assert files[f"variant_{variant}_speed"] == ("variant", variant)


def test_a_measuring_notebook_is_shipped_checked_and_unpacked(tree):
    prof = write_run()
    prof.executed_notebook("toy_measure").parent.mkdir(parents=True, exist_ok=True)
    prof.executed_notebook("toy_measure").write_text('{"cells": []}')
    folder = runs.contribute("quick", EXPECTED, EVIDENCE, {"toy_measure": ("toy_a",)}, machine="m")
    run = runs.check_run(folder.name, "quick", EXPECTED, EVIDENCE, ["toy_measure"])
    assert run.notebooks == ("toy_measure",)
    into = paths.Profile("quick", tree=f"runs/{folder.name}")
    assert runs.unpack_notebook(folder.name, "toy_measure", into).read_text() == '{"cells": []}'
    run.notebook_gz("toy_measure").write_bytes(gzip.compress(b'{"cells": [1]}', mtime=0))
    with pytest.raises(runs.RunError, match="notebooks/toy_measure.ipynb.gz: SHA-256") as exc:
        runs.check_run(folder.name, "quick", EXPECTED, EVIDENCE, ["toy_measure"])
    one_line(exc)
    with pytest.raises(runs.RunError, match="has no measuring notebook other_measure"):
        runs.check_run(folder.name, "quick", EXPECTED, EVIDENCE, ["other_measure"])


def test_a_missing_or_stale_measuring_notebook_is_refused(tree):
    prof = write_run()
    with pytest.raises(runs.RunError, match="an incomplete run: it lacks .*toy_measure.ipynb") as exc:
        runs.contribute("quick", EXPECTED, EVIDENCE, {"toy_measure": ("toy_a",)})
    one_line(exc)
    path = prof.executed_notebook("toy_measure")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}")
    old = prof.raw_csv("toy_a").stat().st_mtime - 60
    os.utime(path, (old, old))
    with pytest.raises(runs.RunError, match="a mixed run: .*toy_measure.ipynb older than the raw files"):
        runs.contribute("quick", EXPECTED, EVIDENCE, {"toy_measure": ("toy_a",)})


def test_a_run_measured_with_another_configuration_names_the_parameter_and_its_commit(shipped):
    other = {**EXPECTED, "toy_b": {"seed": 7, "config": {**CONFIG, "sizes": [16]}}}
    with pytest.raises(runs.RunError, match=r"toy_b.csv.gz: measured with other parameters .*config.sizes.*build it "
                                            r"with its commit") as exc:
        runs.check_run(shipped.name, "quick", other, EVIDENCE)
    assert "fetch the run again" not in one_line(exc)


def test_a_shipped_notebook_names_no_directory_of_the_contributors_machine():
    root = str(paths.ROOT)
    data = json.dumps({"metadata": {"papermill": {"input_path": f"{root}/notebooks/x.ipynb",
                                                  "output_path": f"{root}/build/full/notebooks/x.ipynb"}}}).encode()
    out = json.loads(runs._without_checkout(data))["metadata"]["papermill"]
    assert out == {"input_path": "notebooks/x.ipynb", "output_path": "build/full/notebooks/x.ipynb"}
