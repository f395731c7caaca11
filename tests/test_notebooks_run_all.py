"""Every notebook runs top to bottom on its own defaults, as a person pressing "Run All" would.

A notebook's ``parameters`` cell runs the quick profile (CONTRIBUTING.md, "Notebooks"):
the pipeline replaces it (papermill injects the profile and, for a chapter, the section's
``overrides`` after the cell), a person running by hand gets the same run.  Two checks keep
that true:

- the defaults: each name the cell assigns equals the value the pipeline gives the
  notebook in the quick profile (a chapter's ``overrides`` compared by what they resolve to,
  ``CHAPTER.run(profile, overrides)``), read from the pipeline's own commands
  (``snakemake -n -p``, parsed by :func:`cipherlab.report.notebook.parse_command`), so a
  notebook the pipeline runs with another section or with ``--set`` is compared with that;
- Run All: each notebook of ``notebooks/`` is executed with nbclient, nothing injected, in
  a copy of the session's quick tree (``CIPHERLAB_ROOT`` at the copy, the kernel from this
  venv, the working directory the copy's ``notebooks/``), measuring notebooks before their
  chapter and the verdict and front pages last, and no cell may raise.

Both pick up every notebook in the folder: a new one is checked without editing this file.
"""
from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from cipherlab.pipeline import chapters, paths
from cipherlab.report.notebook import _parent_bound_kernel_manager, declared_parameters, parse_command
from pipeline_tree import copy_tree, make_tree

NOTEBOOKS = sorted(p.stem for p in paths.NOTEBOOKS_DIR.glob("*.ipynb"))
#: The book's last pages: the verdicts read every chapter's evidence, the front page every table.
LAST = ("verdicts", "findings")
#: Seconds one cell may take (a measuring notebook's timing cell in the quick profile takes well under it).
CELL_TIMEOUT = 900


# --- the defaults are the quick profile's ----------------------------------------------------------------

def notebook_commands(output: str) -> dict[str, list[dict]]:
    """``{notebook stem: [parameters of each run]}`` from the shell commands of ``snakemake -n -p``."""
    runs: dict[str, list[dict]] = {}
    for line in output.splitlines():
        if not line.startswith("Shell command:") or "cipherlab.report.notebook" not in line:
            continue
        words = shlex.split(line.split(":", 1)[1])
        args = words[words.index("cipherlab.report.notebook") + 1:]
        args = args[:next((i for i, w in enumerate(args) if w.startswith((">", "2>"))), len(args))]
        parsed, params = parse_command(args)
        assert parsed.profile == "quick", line
        runs.setdefault(Path(parsed.src).stem, []).append(params)
    return runs


@pytest.fixture(scope="module")
def quick_runs(tmp_path_factory) -> dict[str, list[dict]]:
    """What the quick profile runs each notebook with, from a dry run in a tree without outputs."""
    tree = make_tree(tmp_path_factory.mktemp("plan") / "tree")
    proc = tree.snakemake("-n", "-p")
    runs = notebook_commands(proc.stdout + proc.stderr)
    assert runs, (proc.stdout + proc.stderr)[-3000:]
    return runs


def defaults(nb) -> dict:
    """The values the ``parameters`` cell assigns, by running it alone (as the first cell of Run All does)."""
    cell = next(c for c in nb.cells if c.cell_type == "code" and "parameters" in c.metadata.get("tags", []))
    namespace: dict = {}
    exec(compile(cell.source, "<parameters>", "exec"), namespace)
    return {name: namespace[name] for name in declared_parameters(nb)}


def mismatches(default: dict, given: dict, section: "str | None" = None) -> dict[str, tuple]:
    """``{name: (default, given)}`` for each default the run does not give as it is (a missing one: ``<absent>``).

    A chapter's ``overrides`` are compared by the parameters they resolve to in the profile
    (``CHAPTER.run``): the notebook's ``{}`` and the pipeline's copy of the profile's section are one run."""
    from cipherlab.pipeline import config
    out = {k: (v, given.get(k, "<absent>")) for k, v in default.items() if k not in given or given[k] != v}
    if section and "overrides" in out and "overrides" in given and "profile" in default:
        mine = config.chapter_run(section, default["profile"], default["overrides"]).config
        theirs = config.chapter_run(section, given.get("profile", "quick"), given["overrides"]).config
        if mine == theirs:
            del out["overrides"]
    return out


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_defaults_are_what_the_quick_profile_runs_it_with(name, quick_runs):
    nb = nbformat.read(paths.NOTEBOOKS_DIR / f"{name}.ipynb", as_version=4)
    assert name in quick_runs, f"notebooks/{name}.ipynb is not run by the pipeline (runs: {sorted(quick_runs)})"
    default = defaults(nb)
    assert {"profile"} <= default.keys(), f"{name}: the parameters cell assigns no profile"
    section = name.removesuffix("_measure")
    section = section if section in chapters.load().sections else None
    diffs = [mismatches(default, given, section) for given in quick_runs[name]]
    # A notebook run several times (once per wildcard) must default to one of its runs.
    assert any(not d for d in diffs), (
        f"notebooks/{name}.ipynb: defaults differ from config/quick.yaml as the pipeline passes it "
        f"(name: (default, quick)): {min(diffs, key=len)}")


def test_a_default_that_differs_from_the_quick_profile_is_found():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell('profile = "quick"\nseed = 0\nimpls = ["reference"]')
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell("# t"), cell]
    given = {"profile": "quick", "seed": 20261122, "impls": ["reference"], "trials": 3}
    assert mismatches(defaults(nb), given) == {"seed": (0, 20261122)}
    assert mismatches(defaults(nb), {"profile": "quick"}) == {"seed": (0, "<absent>"), "impls": (["reference"], "<absent>")}
    assert mismatches({"x": 1.0e12}, {"x": 1e12}) == {}


def test_pipeline_commands_are_parsed_into_the_notebook_parameters():
    python = shlex.quote(sys.executable)
    out = "\n".join([
        "rule maes:",
        f"Shell command: {python} -m cipherlab.report.notebook notebooks/maes.ipynb build/quick/notebooks/maes.ipynb"
        " --profile quick --section maes --timing > logs/quick/maes.log 2>&1",
        f"Shell command: {python} -m cipherlab.report.notebook notebooks/verdicts.ipynb x.ipynb --profile quick"
        " --section book --set 'extra=[1, 2]' > logs/quick/verdicts.log 2>&1",
        f"Shell command: {python} -m cipherlab.selfcheck --out x.csv > log 2>&1",
    ])
    runs = notebook_commands(out)
    assert sorted(runs) == ["maes", "verdicts"]
    assert runs["maes"][0]["profile"] == "quick" and set(runs["maes"][0]) == {"profile", "overrides"}
    assert runs["verdicts"][0]["chapters"] == list(chapters.evidence_chapters())
    assert runs["verdicts"][0]["extra"] == [1, 2]


# --- Run All ---------------------------------------------------------------------------------------------

def run_all_order(names, manifest) -> list[str]:
    """The order a person would run them in: each chapter's measuring notebook, then the chapter (manifest
    order), then any other notebook (by name), then the verdicts and the front page."""
    chapter_pages = [p for ch in manifest.chapters for p in ((ch.measure_name, ch.name) if ch.measure else (ch.name,))]
    first = [p for p in chapter_pages if p in names]
    last = [p for p in LAST if p in names]
    return first + sorted(set(names) - set(first) - set(last)) + last


def test_run_all_order_puts_measuring_first_and_the_book_pages_last():
    order = run_all_order(NOTEBOOKS + ["zz_new"], chapters.load())
    assert sorted(order) == sorted(NOTEBOOKS + ["zz_new"])
    assert order[-2:] == ["verdicts", "findings"]
    for ch in chapters.load().chapters:
        if ch.measure:
            assert order.index(ch.measure_name) < order.index(ch.name)
    assert order.index("zz_new") < order.index("verdicts")


#: Appended to each notebook after its last cell: where the kernel ran (never part of the notebook).
PROBE = ("import json, os, sys\nfrom cipherlab.pipeline import paths\n"
         "print(json.dumps({'prefix': sys.prefix, 'cwd': os.getcwd(), 'root': str(paths.ROOT)}))")


def run_all(path: Path, cwd: Path) -> tuple[str | None, dict]:
    """Execute every cell of ``path`` in order with nothing injected; (error or None, the probe's answer)."""
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(nb, kernel_name="python3", timeout=CELL_TIMEOUT, resources={"metadata": {"path": str(cwd)}},
                            kernel_manager_class=_parent_bound_kernel_manager())
    try:
        client.execute()
    except CellExecutionError as exc:
        return str(exc).strip().splitlines()[-1][:500], {}
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    return None, json.loads(text.strip().splitlines()[-1])


@pytest.mark.pipeline
def test_every_notebook_runs_top_to_bottom_on_its_defaults(quick_tree, tmp_path, monkeypatch):
    # A copy: the measuring notebooks re-time and rewrite data/raw, which the shared tree's other tests read.
    tree = copy_tree(quick_tree, tmp_path / "tree")
    notebooks = tree.root / "notebooks"
    names = sorted(p.stem for p in notebooks.glob("*.ipynb"))
    assert names == NOTEBOOKS
    monkeypatch.setenv("CIPHERLAB_ROOT", str(tree.root))
    monkeypatch.delenv("PYTHONPATH", raising=False)
    failed, seconds = {}, {}
    for name in run_all_order(names, chapters.load()):
        start = time.perf_counter()
        error, where = run_all(notebooks / f"{name}.ipynb", notebooks)
        seconds[name] = round(time.perf_counter() - start, 1)
        if error:
            failed[name] = error
            continue
        assert where == {"prefix": sys.prefix, "cwd": str(notebooks), "root": str(tree.root)}, (name, where)
    print(f"Run All, seconds per notebook: {seconds}; total {sum(seconds.values()):.0f} s")
    assert not failed, f"cells raised (notebook: last line of the error): {failed}"
    # What a run on the defaults writes is the quick profile's (the defaults name it).
    assert os.listdir(tree.at(paths.Profile("quick").raw)) and not tree.at(paths.Profile("full").raw).exists()
