"""The quick profile end to end: Snakemake builds the book, every declared output exists,
nothing is left to do, the output trees hold only declared outputs, and a re-run gives
byte-identical non-timing tables.

The pipeline runs once per session (plus a second, forced run for the determinism check) (:func:`quick_pipeline`, shared with
``test_book_browser.py``) in the working tree, with ``--config profile=quick``:
quick outputs live in their own trees (``data/*/quick``, ``build/quick``,
``logs/quick``) and never touch the full profile's.
"""
from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from cipherlab import paths, results
from cipherlab.notebook import error_cells

pytestmark = pytest.mark.pipeline

PROFILE = paths.Profile("quick")
CORES = "2"
SNAKEMAKE_TIMEOUT = 900  # seconds; the quick profile takes a few minutes on 2 cores from a cold cache


def _env() -> dict[str, str]:
    # No PATH set-up: the rules call the interpreter running Snakemake (workflow/common.smk).
    return dict(os.environ)


def snakemake(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run Snakemake on the repository's Snakefile with the quick profile."""
    cmd = [sys.executable, "-m", "snakemake", "--config", "profile=quick", *args]
    for attempt in range(6):
        proc = subprocess.run(cmd, cwd=paths.ROOT, env=_env(), capture_output=True, text=True,
                              timeout=SNAKEMAKE_TIMEOUT)
        # Another Snakemake (a developer's) may hold the directory lock for a moment.
        if "Directory cannot be locked" not in proc.stdout + proc.stderr:
            break
        time.sleep(20)
    if check and proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-60:])
        pytest.fail(f"snakemake {' '.join(args)} exited {proc.returncode}:\n{tail}", pytrace=False)
    return proc


_RUN: dict[str, object] = {}


def run_quick_pipeline() -> dict[str, object]:
    """Run the quick pipeline once per process; later calls return the first result."""
    if not _RUN:
        start = time.perf_counter()
        proc = snakemake("--cores", CORES, "--rerun-incomplete")
        _RUN["seconds"] = time.perf_counter() - start
        _RUN["log"] = proc.stdout + proc.stderr
    return _RUN


@pytest.fixture(scope="session")
def quick_pipeline():
    return run_quick_pipeline()


def declared_outputs() -> dict[str, str]:
    """Every output file of the DAG behind ``all`` (``snakemake --summary``): path -> rule."""
    proc = snakemake("--summary")
    lines = [ln for ln in proc.stdout.splitlines() if "\t" in ln]
    reader = csv.DictReader(io.StringIO("\n".join(lines)), delimiter="\t")
    out = {row["output_file"]: row["rule"] for row in reader}
    assert out, f"snakemake --summary listed no outputs:\n{proc.stdout}\n{proc.stderr}"
    return out


def detailed_summary() -> list[dict[str, str]]:
    """``snakemake --detailed-summary``: one row per output file with its rule, log and inputs."""
    proc = snakemake("--detailed-summary")
    lines = [ln for ln in proc.stdout.splitlines() if "\t" in ln]
    return list(csv.DictReader(io.StringIO("\n".join(lines)), delimiter="\t"))


@pytest.fixture(scope="module")
def outputs(quick_pipeline):
    return declared_outputs()


def test_book_is_built(quick_pipeline):
    index = PROFILE.html / "index.html"
    assert index.is_file(), f"{index} missing after the quick run"
    assert (PROFILE.html / "intro.html").is_file()
    print(f"quick pipeline wall time: {quick_pipeline['seconds']:.1f} s")


def test_every_declared_output_exists(outputs):
    missing = [p for p in outputs if not (paths.ROOT / p).exists()]
    assert not missing, f"declared but missing: {missing}"
    assert "selfcheck" in outputs.values(), "the correctness check is not part of the pipeline"
    assert str(PROFILE.html.relative_to(paths.ROOT) / "index.html") in outputs


def test_timing_rules_depend_on_the_selfcheck(quick_pipeline):
    """No raw timing is taken by a job that does not wait for the known-answer checks."""
    rows = detailed_summary()
    selfcheck = str(PROFILE.table("selfcheck").relative_to(paths.ROOT))
    raw_dir = str(PROFILE.raw.relative_to(paths.ROOT))
    timing_jobs = [r for r in rows if r["output_file"].startswith(raw_dir) and r["output_file"].endswith(".csv")]
    assert timing_jobs, "no job writes raw timings"
    for row in timing_jobs:
        assert selfcheck in row["input-file(s)"].split(","), \
            f"rule {row['rule']} writes {row['output_file']} without depending on {selfcheck}"


def test_every_job_logs_to_logs_dir(quick_pipeline):
    rows = detailed_summary()
    logs_dir = str(PROFILE.logs.relative_to(paths.ROOT))
    for row in rows:
        logs = [f for f in row["log-file(s)"].split(",") if f]
        assert logs, f"rule {row['rule']} declares no log"
        for log in logs:
            assert log.startswith(logs_dir + "/"), f"rule {row['rule']} logs outside {logs_dir}: {log}"
            assert (paths.ROOT / log).is_file(), f"rule {row['rule']}: log {log} missing"


def test_every_executed_notebook_ran_without_error(outputs):
    notebooks = [paths.ROOT / p for p in outputs if p.endswith(".ipynb")]
    assert notebooks, "no executed notebook among the outputs"
    for nb_path in notebooks:
        nb = nbformat.read(nb_path, as_version=4)
        assert not error_cells(nb), f"{nb_path.name}: error output in cells {error_cells(nb)}"
        assert any("parameters" in c.metadata.get("tags", []) for c in nb.cells), \
            f"{nb_path.name}: no cell tagged 'parameters'"
    assert not list(PROFILE.notebooks.glob("*.failed.ipynb")), "a failed notebook run is left behind"


def test_nothing_left_to_do(quick_pipeline):
    proc = snakemake("-n")
    text = proc.stdout + proc.stderr
    assert "Nothing to be done" in text, f"snakemake -n still plans jobs:\n{text[-3000:]}"


def planned_rules(root: Path) -> set[str]:
    """The rules ``snakemake -n`` would run in the checkout at ``root``."""
    env = _env()
    env["CIPHERLAB_ROOT"] = str(root)
    proc = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--config", "profile=quick"], cwd=root,
                          env=env, capture_output=True, text=True, timeout=SNAKEMAKE_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {line.split()[-1].rstrip(":") for line in (proc.stdout + proc.stderr).splitlines()
            if line.startswith(("rule ", "localrule "))}


def test_editing_one_chapter_notebook_reruns_only_what_depends_on_it(quick_pipeline, tmp_path):
    """An edited chapter notebook re-runs that chapter, the verdicts and the book; no timing, no other chapter.

    Edits a copy of the working tree (with its Snakemake metadata and quick outputs), never the tree itself.
    """
    import shutil

    chapters = sorted(p.stem for p in paths.NOTEBOOKS_DIR.glob("*.ipynb")
                      if (paths.NOTEBOOKS_DIR / f"{p.stem}_measure.ipynb").exists())
    if not chapters:
        pytest.skip("no chapter with a separate measuring notebook")
    copy = tmp_path / "tree"
    shutil.copytree(paths.ROOT, copy, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", "full", "log", "*.egg-info"))
    assert planned_rules(copy) == set(), "the copy of the tree is not up to date"
    chapter = chapters[0]
    notebook = copy / "notebooks" / f"{chapter}.ipynb"
    notebook.write_text(notebook.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    planned = planned_rules(copy)
    assert chapter in planned and "book" in planned, planned
    assert f"{chapter}_measure" not in planned, "editing the chapter notebook would re-time"
    others = set(chapters) - {chapter}
    assert not others & planned, f"editing {notebook.name} would also re-run {others & planned}"


def _files_under(*dirs: Path) -> list[str]:
    found = []
    for d in dirs:
        if d.exists():
            found += [str(p.relative_to(paths.ROOT)) for p in d.rglob("*") if p.is_file()]
    return sorted(found)


def test_manifest_output_trees_hold_only_declared_outputs(outputs):
    files = _files_under(PROFILE.tables, PROFILE.figures, PROFILE.raw, PROFILE.inputs)
    assert not [f for f in files if f.endswith(".part")], "a half-written temporary file is left behind"
    undeclared = [f for f in files if f not in outputs]
    assert not undeclared, ("files in the quick output trees that no rule declares "
                            f"(declare them as outputs, or stop writing them): {undeclared}")
    # ...and every declared table, figure and raw file is in those trees, under the quick profile.
    for p in outputs:
        if p.startswith("data/"):
            assert "/quick/" in p, f"{p}: a quick output outside the quick trees"


def test_every_declared_output_is_used(quick_pipeline):
    """Each output feeds another job, or comes from a job whose notebook is a page of the book."""
    rows = detailed_summary()
    consumed = {f for r in rows for f in r["input-file(s)"].split(",") if f}
    notebooks_of_rule = {r["rule"]: Path(r["output_file"]).stem for r in rows
                         if r["output_file"].endswith(".ipynb")}
    book_pages = {p.stem for p in PROFILE.html.glob("*.html")}
    index = str((PROFILE.html / "index.html").relative_to(paths.ROOT))
    # Provenance records are read by the book's run banner (cipherlab.book.measurement_runs).
    unused = [r["output_file"] for r in rows
              if r["output_file"] not in consumed and r["output_file"] != index
              and not r["output_file"].endswith(".meta.json")
              and notebooks_of_rule.get(r["rule"]) not in book_pages]
    assert not unused, f"declared outputs that nothing uses (no job reads them, no book page shows them): {unused}"


def test_raw_files_have_provenance(outputs):
    for p in outputs:
        if p.startswith(str(PROFILE.raw.relative_to(paths.ROOT))) and p.endswith(".csv"):
            meta = Path(paths.ROOT / p).with_suffix(".meta.json")
            assert meta.is_file(), f"{p} has no provenance record {meta.name}"
            assert str(meta.relative_to(paths.ROOT)) in outputs, f"{meta.name} is not a declared output"


def declared_timing_tables(tmp_path) -> set[str]:
    """Tables the rule files declare with ``timing_table()`` (workflow/common.smk)."""
    import json

    out = tmp_path / "timing_tables.json"
    env = _env()
    env["CIPHERLAB_TIMING_TABLES_OUT"] = str(out)
    proc = subprocess.run([sys.executable, "-m", "snakemake", "--config", "profile=quick", "-n", "--quiet"],
                          cwd=paths.ROOT, env=env, capture_output=True, text=True, timeout=SNAKEMAKE_TIMEOUT)
    assert out.is_file(), f"the Snakefile did not report its timing tables:\n{proc.stderr[-2000:]}"
    return set(json.loads(out.read_text()))


def non_timing_tables(outputs, declared_timing: set[str]) -> list[str]:
    """Tables that must be byte-identical between runs (CONTRIBUTING.md, "Timing tables")."""
    import pandas as pd

    out = []
    for p in outputs:
        path = paths.ROOT / p
        if path.parent == PROFILE.tables and path.suffix == ".csv" and p not in declared_timing:
            columns = pd.read_csv(path, nrows=0).columns
            if not results.is_timing_table(path.stem, columns):
                out.append(p)
    return sorted(out)


def test_two_quick_runs_give_byte_identical_non_timing_tables(outputs, tmp_path):
    """Run the whole quick pipeline a second time (``--forceall``: new inputs, new timings, new
    tables) and compare the bytes of every non-timing table (CONTRIBUTING.md, "Timing tables")."""
    tables = non_timing_tables(outputs, declared_timing_tables(tmp_path))
    assert str(PROFILE.table("selfcheck").relative_to(paths.ROOT)) in tables
    before = {p: (paths.ROOT / p).read_bytes() for p in tables}
    snakemake("--cores", CORES, "--forceall")
    changed = [p for p in tables if (paths.ROOT / p).read_bytes() != before[p]]
    assert not changed, (f"non-timing tables changed between two runs: {changed}; make them "
                         "deterministic, or declare them with timing_table() in the rule file "
                         "(CONTRIBUTING.md, 'Timing tables')")
    assert (PROFILE.html / "index.html").is_file()
