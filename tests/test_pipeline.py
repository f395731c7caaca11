"""The quick profile end to end: Snakemake builds the book, every declared output exists,
nothing is left to do, the output trees hold only declared outputs, and a re-run gives
byte-identical non-timing tables.

The pipeline runs once per session (plus a second, forced run for the determinism check)
in a temporary copy of the tree (``quick_tree`` in ``conftest.py``, shared with the other
pipeline and browser tests), never in the checkout's ``data/`` or ``build/``.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

import nbformat
import pytest

from cipherlab.pipeline import chapters, config, paths
from cipherlab.report.notebook import error_cells
from pipeline_tree import Tree, copy_tree

pytestmark = pytest.mark.pipeline

PROFILE = paths.Profile("quick")
CORES = "2"


def rel(path) -> str:
    """A checkout path as Snakemake prints it (relative to the tree)."""
    return str(Path(path).relative_to(paths.ROOT))


def declared_outputs(tree: Tree) -> dict[str, str]:
    """Every output file of the DAG behind ``all`` (``snakemake --summary``): path -> rule."""
    proc = tree.snakemake("--summary")
    lines = [ln for ln in proc.stdout.splitlines() if "\t" in ln]
    reader = csv.DictReader(io.StringIO("\n".join(lines)), delimiter="\t")
    out = {row["output_file"]: row["rule"] for row in reader}
    assert out, f"snakemake --summary listed no outputs:\n{proc.stdout}\n{proc.stderr}"
    return out


def detailed_summary(tree: Tree) -> list[dict[str, str]]:
    """``snakemake --detailed-summary``: one row per output file with its rule, log and inputs."""
    proc = tree.snakemake("--detailed-summary")
    lines = [ln for ln in proc.stdout.splitlines() if "\t" in ln]
    return list(csv.DictReader(io.StringIO("\n".join(lines)), delimiter="\t"))


@pytest.fixture(scope="module")
def outputs(quick_tree):
    return declared_outputs(quick_tree)


def test_book_is_built(quick_tree):
    index = quick_tree.at(PROFILE.html / "index.html")
    assert index.is_file(), f"{index} missing after the quick run"
    assert quick_tree.at(PROFILE.html / "intro.html").is_file()
    print(f"quick pipeline wall time: {quick_tree.seconds:.1f} s")


def test_every_declared_output_exists(quick_tree, outputs):
    missing = [p for p in outputs if not quick_tree.at(p).exists()]
    assert not missing, f"declared but missing: {missing}"
    assert "selfcheck" in outputs.values(), "the correctness check is not part of the pipeline"
    assert rel(PROFILE.html / "index.html") in outputs


def test_each_chapter_of_the_manifest_has_its_rules_and_outputs(outputs):
    """The manifest's entries are the chapter rules, and every file an entry names is an output of its rule."""
    manifest = chapters.load()
    rules = set(outputs.values())
    expected = {n for c in manifest.chapters for n in (c.name, c.measure_name) if n}
    assert expected <= rules, f"chapters without their rules: {sorted(expected - rules)}"
    for c in manifest.chapters:
        mine = {rel(PROFILE.table(t)) for t in c.all_tables} | {rel(PROFILE.figure(f, e)) for f in c.figures
                                                                 for e in ("png", "svg")}
        assert {outputs.get(p) for p in mine} == {c.name}, f"chapter {c.name}: outputs of other rules"
        for r in c.raw:
            assert outputs.get(rel(PROFILE.raw_csv(r))) == c.measure_name
            assert outputs.get(rel(PROFILE.raw_meta(r))) == c.measure_name
        for page in c.pages:
            assert outputs.get(rel(PROFILE.executed_notebook(page))) == page


def test_timing_rules_depend_on_the_selfcheck(quick_tree):
    """No raw timing is taken by a job that does not wait for the known-answer checks."""
    rows = detailed_summary(quick_tree)
    selfcheck = rel(PROFILE.table("selfcheck"))
    raw_dir = rel(PROFILE.raw)
    timing_jobs = [r for r in rows if r["output_file"].startswith(raw_dir) and r["output_file"].endswith(".csv")]
    assert timing_jobs, "no job writes raw timings"
    for row in timing_jobs:
        assert selfcheck in row["input-file(s)"].split(","), \
            f"rule {row['rule']} writes {row['output_file']} without depending on {selfcheck}"


def test_every_job_logs_to_logs_dir(quick_tree):
    rows = detailed_summary(quick_tree)
    logs_dir = rel(PROFILE.logs)
    for row in rows:
        logs = [f for f in row["log-file(s)"].split(",") if f]
        assert logs, f"rule {row['rule']} declares no log"
        for log in logs:
            assert log.startswith(logs_dir + "/"), f"rule {row['rule']} logs outside {logs_dir}: {log}"
            assert quick_tree.at(log).is_file(), f"rule {row['rule']}: log {log} missing"


def test_every_executed_notebook_ran_without_error(quick_tree, outputs):
    notebooks = [quick_tree.at(p) for p in outputs if p.endswith(".ipynb")]
    assert notebooks, "no executed notebook among the outputs"
    for nb_path in notebooks:
        nb = nbformat.read(nb_path, as_version=4)
        assert not error_cells(nb), f"{nb_path.name}: error output in cells {error_cells(nb)}"
        assert any("parameters" in c.metadata.get("tags", []) for c in nb.cells), \
            f"{nb_path.name}: no cell tagged 'parameters'"
    assert not list(quick_tree.at(PROFILE.notebooks).glob("*.failed.ipynb")), "a failed notebook run is left behind"


def test_nothing_left_to_do(quick_tree):
    proc = quick_tree.snakemake("-n")
    text = proc.stdout + proc.stderr
    assert "Nothing to be done" in text, f"snakemake -n still plans jobs:\n{text[-3000:]}"


def test_editing_one_chapter_notebook_reruns_only_what_depends_on_it(quick_tree, tmp_path):
    """An edited chapter notebook re-runs that chapter, the verdicts and the book; no timing, no other chapter.

    Edits a copy of the session's tree (with its Snakemake metadata and quick outputs).
    """
    measured = [c for c in chapters.load().chapters if c.measure]
    assert measured, "the declarations have no chapter with a measuring notebook: this test would test nothing"
    copy = copy_tree(quick_tree, tmp_path / "tree")
    assert copy.plan() == {}, "the copy of the tree is not up to date"
    chapter = measured[0]
    notebook = copy.at(chapter.notebook)
    notebook.write_text(notebook.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    planned = set(copy.plan())
    assert chapter.name in planned and "book" in planned, planned
    assert chapter.measure_name not in planned, "editing the chapter notebook would re-time"
    others = {n for c in chapters.load().chapters for n in c.pages} - set(chapter.pages)
    assert not others & planned, f"editing {notebook.name} would also re-run {others & planned}"


def _files_under(tree: Tree, *dirs: Path) -> list[str]:
    found = []
    for d in dirs:
        d = tree.at(d)
        if d.exists():
            found += [str(p.relative_to(tree.root)) for p in d.rglob("*") if p.is_file()]
    return sorted(found)


def test_manifest_output_trees_hold_only_declared_outputs(quick_tree, outputs):
    files = _files_under(quick_tree, PROFILE.tables, PROFILE.figures, PROFILE.raw, PROFILE.inputs)
    assert not [f for f in files if f.endswith(".part")], "a half-written temporary file is left behind"
    undeclared = [f for f in files if f not in outputs]
    assert not undeclared, ("files in the quick output trees that no rule declares "
                            f"(declare them as outputs, or stop writing them): {undeclared}")
    # ...and every declared table, figure and raw file is in those trees, under the quick profile.
    for p in outputs:
        if p.startswith("data/"):
            assert "/quick/" in p, f"{p}: a quick output outside the quick trees"


def test_every_table_written_is_declared_by_its_chapter(quick_tree):
    """Timing or not is decided by the declarations alone: every table the run wrote is declared."""
    written = {p.stem for p in quick_tree.at(PROFILE.tables).glob("*.csv")}
    assert written, "the quick run wrote no table"
    manifest = chapters.load()
    built = set(config.variant_list(config.load_config("quick"))) | set(chapters.variant_papers())
    variant_tables = {s for v in built for s in manifest.variants.table_stems(v)} if manifest.variants else set()
    undeclared = sorted(written - manifest.tables - variant_tables)
    assert not undeclared, f"tables no chapter declares: {undeclared}"
    assert variant_tables <= written, f"variant tables declared but not written: {sorted(variant_tables - written)}"


def test_every_declared_output_is_used(quick_tree):
    """Each output feeds another job, or comes from a job whose notebook is a page of the book."""
    rows = detailed_summary(quick_tree)
    consumed = {f for r in rows for f in r["input-file(s)"].split(",") if f}
    notebooks_of_rule = {r["rule"]: Path(r["output_file"]).stem for r in rows
                         if r["output_file"].endswith(".ipynb")}
    book_pages = {p.stem for p in quick_tree.at(PROFILE.html).glob("*.html")}
    index = rel(PROFILE.html / "index.html")
    # Provenance records are read by the book's run banner (cipherlab.report.book.measurement_runs).
    unused = [r["output_file"] for r in rows
              if r["output_file"] not in consumed and r["output_file"] != index
              and not r["output_file"].endswith(".meta.json")
              and notebooks_of_rule.get(r["rule"]) not in book_pages]
    assert not unused, f"declared outputs that nothing uses (no job reads them, no book page shows them): {unused}"


def test_raw_files_have_provenance(quick_tree, outputs):
    for p in outputs:
        if p.startswith(rel(PROFILE.raw)) and p.endswith(".csv"):
            meta = Path(p).with_suffix(".meta.json")
            assert quick_tree.at(meta).is_file(), f"{p} has no provenance record {meta.name}"
            assert str(meta) in outputs, f"{meta.name} is not a declared output"


def non_timing_tables(outputs) -> list[str]:
    """Tables that must be byte-identical between runs: those no declaration lists as timing tables."""
    return sorted(p for p in outputs if Path(p).parent == Path(rel(PROFILE.tables)) and p.endswith(".csv")
                  and not chapters.is_timing_table(Path(p).stem))


def test_two_quick_runs_give_byte_identical_non_timing_tables(quick_tree, outputs, tmp_path):
    """Run a second time every job a non-timing table depends on (``--forceall`` with the non-timing
    tables as targets: new inputs, new timings, every timing job upstream of such a table, new tables),
    in a copy of the run's tree (the shared one never changes), and compare the bytes of every
    non-timing table with the first run's (CONTRIBUTING.md, "Timing tables").  The jobs no such table
    depends on (the book, its pages, the report PDFs) cannot change one, so they are not re-run."""
    tables = non_timing_tables(outputs)
    assert rel(PROFILE.table("selfcheck")) in tables
    again = copy_tree(quick_tree, tmp_path / "tree")
    # the timing jobs are re-run too: a table whose bytes follow the timings differs
    measured = {c.measure_name for c in chapters.load().chapters if c.measure}
    assert measured <= set(again.plan("--forceall", *tables)), "the re-run would keep the first run's timings"
    again.snakemake("--cores", CORES, "--forceall", *tables)
    changed = [p for p in tables if again.at(p).read_bytes() != quick_tree.at(p).read_bytes()]
    assert not changed, (f"non-timing tables changed between two runs: {changed}; make them "
                         "deterministic, or list them under timing_tables in their chapter's declaration "
                         "(CONTRIBUTING.md, 'Timing tables')")
    assert again.plan(*tables) == {}
