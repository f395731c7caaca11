"""Outputs that go missing are rebuilt: after a quick run, deleting one declared output of each
kind (raw CSV, its provenance, a table, a figure, an executed notebook, a generated input)
makes the plan schedule exactly the jobs that rebuild it and what depends on it.

Runs in a copy of the session's quick tree (``quick_tree``, ``tests/pipeline_tree.py``),
never touching the checkout's ``data/`` or ``build/``.
"""
from __future__ import annotations

import os

import pytest

from cipherlab.pipeline import chapters, config, paths
from pipeline_tree import copy_tree

pytestmark = pytest.mark.pipeline

Q = paths.Profile("quick")


def _variants_built() -> list[str]:
    """The variants a quick run builds: those its config lists, and every variant that comes with its paper."""
    return list(dict.fromkeys([*config.variant_list(config.load_config("quick")), *chapters.variant_papers()]))


# Whatever the chapters add, these jobs always follow a changed chapter output
# (the findings page and the referee's report per paper read the verdicts).
DOWNSTREAM = {"verdicts", "machines", "report", "findings", "book", "all"}
#: The papers with a referee's report (rule report, one job per paper: workflow/rules/book.smk).
REPORT_PAPERS = ("000", "001", "002", "003")


def _rel(p):
    return str(p.relative_to(paths.ROOT))


CASES = {
    # file deleted -> jobs the plan must hold (exactly)
    "raw CSV": (_rel(Q.raw_csv("maes_bulk")), {"maes_measure", "maes"} | DOWNSTREAM),
    "raw provenance": (_rel(Q.raw_meta("aes2sbox_speed")), {"aes2sbox_measure", "aes2sbox"} | DOWNSTREAM),
    "table": (_rel(Q.table("maes_entropy")), {"maes"} | DOWNSTREAM),
    "figure": (_rel(Q.figure("security_rounds_figure", "svg")), {"security"} | DOWNSTREAM),
    "executed notebook": (_rel(Q.executed_notebook("maes")), {"maes"} | DOWNSTREAM),
    "measuring notebook": (_rel(Q.executed_notebook("aead_measure")), {"aead_measure", "aead"} | DOWNSTREAM),
    "book page notebook": (_rel(Q.executed_notebook("environment")), {"environment", "book", "all"}),
    # every chapter rule of the manifest waits for the selfcheck
    "selfcheck": (_rel(Q.table("selfcheck")),
                  {"selfcheck"} | {n for c in chapters.load().chapters for n in (c.name, c.measure_name) if n}
                  | ({"variant_chapter"} if _variants_built() else set())
                  | {"bench_sweep", "environment"}   # the Environment page's size sweep is a timing job too
                  | DOWNSTREAM),
    "generated input": (_rel(Q.input_file("maes_image.npy")), {"input_file", "maes_measure", "maes"} | DOWNSTREAM),
}


@pytest.fixture(scope="module")
def tree(quick_tree, tmp_path_factory):
    """A copy of the session's quick tree: sources, outputs and Snakemake's metadata, mtimes kept."""
    return copy_tree(quick_tree, tmp_path_factory.mktemp("recovery") / "tree")


def plan(tree) -> dict[str, int]:
    """``snakemake -n`` in the copy: {rule: job count}; {} when there is nothing to do."""
    return tree.plan()


def test_nothing_to_do_after_the_quick_run(tree):
    assert plan(tree) == {}, "the copy of a finished quick run is not up to date"


@pytest.mark.parametrize("kind", list(CASES))
def test_a_deleted_output_is_rebuilt_with_its_dependants(tree, kind):
    rel, expected = CASES[kind]
    path = tree.at(rel)
    assert path.is_file(), f"{rel} is not an output of the quick run"
    saved = path.read_bytes()
    stat = path.stat()
    path.unlink()
    try:
        jobs = plan(tree)
    finally:
        path.write_bytes(saved)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert set(jobs) == expected, f"deleting {rel}: planned {sorted(jobs)}, expected {sorted(expected)}"
    listed = len(_variants_built())
    per_rule = {"variant_chapter": listed, "report": len(REPORT_PAPERS)}   # one job per variant, per paper
    assert all(n == per_rule.get(rule, 1) for rule, n in jobs.items()), jobs
    assert plan(tree) == {}, f"restoring {rel} did not make the tree up to date again"


def test_the_next_run_removes_stale_part_files(tree):
    """A killed run's `.part` files are deleted when the next run starts (runs last: it re-runs a job)."""
    parts = [tree.at(Q.tables / ".maes_entropy.csv.k1ll3d.part"), tree.at(Q.raw / ".maes_bulk.csv.k1ll3d.part")]
    for p in parts:
        p.write_text("half-written")
    tree.snakemake("--cores", "1", "--forcerun", "selfcheck", "--until", "selfcheck")
    assert not any(p.exists() for p in parts)


def _plan_with(tree, *given: str) -> dict[str, int]:
    """``snakemake -n --config profile=quick GIVEN...`` in the copy: {rule: job count}."""
    import re
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--config", "profile=quick", *given],
                          cwd=tree.root, env=tree.env(), capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    if "Nothing to be done" in out:
        return {}
    block = out.split("Job stats:", 1)[1].split("total", 1)[0]
    return {k: int(v) for k, v in re.findall(r"^([\w-]+)\s+(\d+)\s*$", block, flags=re.M)}


@pytest.mark.parametrize("given, expected", [
    # the Environment page shows the overrides, so every override re-renders it
    (["maes={trials_block: 50}"], {"maes_measure", "maes", "environment"} | DOWNSTREAM),
    (["bench_sweep_repeats=1"], {"bench_sweep", "environment", "book", "all"}),
    (["seed=5"], {"input_file"} | {n for c in chapters.load().chapters for n in (c.name, c.measure_name) if n}
     | ({"variant_chapter"} if config.variant_list(config.load_config("quick")) else set())
     | {"environment"} | DOWNSTREAM),
])
def test_an_override_re_runs_what_it_changes(tree, given, expected):
    """Issue 33, item 3: after a finished run, `--config seed=1` said "Nothing to be done"."""
    assert set(_plan_with(tree, *given)) == expected
    assert _plan_with(tree) == {}, "the plan without the override changed"
