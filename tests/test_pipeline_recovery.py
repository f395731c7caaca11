"""Outputs that go missing are rebuilt: after a quick run, deleting one declared output of each
kind (raw CSV, its provenance, a table, a figure, an executed notebook, a generated input)
makes the plan schedule exactly the jobs that rebuild it and what depends on it.

Runs in a temporary copy of the tree (``CIPHERLAB_ROOT`` points the library's paths at it),
never touching the checkout's ``data/`` or ``build/``.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from cipherlab import paths
from test_pipeline import run_quick_pipeline

pytestmark = pytest.mark.pipeline

Q = paths.Profile("quick")
# Whatever the chapters add, these jobs always follow a changed chapter output
# (the findings page reads the verdicts).
DOWNSTREAM = {"verdicts", "findings", "book", "all"}


def _rel(p):
    return str(p.relative_to(paths.ROOT))


CASES = {
    # file deleted -> jobs the plan must hold (exactly)
    "raw CSV": (_rel(Q.raw_csv("maes_bulk")), {"maes_measure", "maes"} | DOWNSTREAM),
    "raw provenance": (_rel(Q.raw_meta("aes2sbox_speed")), {"aes2sbox_measure", "aes2sbox"} | DOWNSTREAM),
    "table": (_rel(Q.table("maes_entropy")), {"maes"} | DOWNSTREAM),
    "figure": (_rel(Q.figure("security_rounds", "svg")), {"security"} | DOWNSTREAM),
    "executed notebook": (_rel(Q.executed_notebook("maes")), {"maes"} | DOWNSTREAM),
    "measuring notebook": (_rel(Q.executed_notebook("aead_measure")), {"aead_measure", "aead"} | DOWNSTREAM),
    "book page notebook": (_rel(Q.executed_notebook("environment")), {"environment", "book", "all"}),
    "selfcheck": (_rel(Q.table("selfcheck")),
                  {"selfcheck", "maes_measure", "maes", "aes2sbox_measure", "aes2sbox", "aead_measure", "aead",
                   "security"} | DOWNSTREAM),
    "generated input": (_rel(Q.input_file("maes_image.npy")), {"input_file", "maes_measure", "maes"} | DOWNSTREAM),
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A copy of the tree after the quick run: sources, outputs and Snakemake's metadata, mtimes kept."""
    run_quick_pipeline()  # once per session, in the checkout (shared with test_pipeline.py)
    root = tmp_path_factory.mktemp("tree")
    for name in ("Snakefile", "pyproject.toml"):
        shutil.copy2(paths.ROOT / name, root / name)
    ignore = shutil.ignore_patterns("__pycache__")
    for name in ("workflow", "config", "src", "notebooks", "book", "data/paper",
                 "data/inputs/quick", "data/raw/quick", "data/tables/quick", "data/figures/quick",
                 "build/quick", "logs/quick", ".snakemake/metadata"):
        if (paths.ROOT / name).exists():
            shutil.copytree(paths.ROOT / name, root / name, symlinks=True, ignore=ignore)
    return root


def plan(root) -> dict[str, int]:
    """``snakemake -n`` in the copy: {rule: job count}; {} when there is nothing to do."""
    env = dict(os.environ, CIPHERLAB_ROOT=str(root))
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--config", "profile=quick"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    if "Nothing to be done" in out:
        return {}
    block = out.split("Job stats:", 1)[1].split("total", 1)[0]
    jobs = dict(re.findall(r"^(\w+)\s+(\d+)\s*$", block, flags=re.M))
    assert jobs, out[-3000:]
    return {k: int(v) for k, v in jobs.items()}


def test_nothing_to_do_after_the_quick_run(tree):
    assert plan(tree) == {}, "the copy of a finished quick run is not up to date"


@pytest.mark.parametrize("kind", list(CASES))
def test_a_deleted_output_is_rebuilt_with_its_dependants(tree, kind):
    rel, expected = CASES[kind]
    path = tree / rel
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
    assert all(n == 1 for n in jobs.values()), jobs
    assert plan(tree) == {}, f"restoring {rel} did not make the tree up to date again"


def test_the_next_run_removes_stale_part_files(tree):
    """A killed run's `.part` files are deleted when the next run starts (runs last: it re-runs a job)."""
    parts = [tree / _rel(Q.table("maes_entropy")).replace("maes_entropy.csv", ".maes_entropy.csv.k1ll3d.part"),
             tree / _rel(Q.raw_csv("maes_bulk")).replace("maes_bulk.csv", ".maes_bulk.csv.k1ll3d.part")]
    for p in parts:
        p.write_text("half-written")
    env = dict(os.environ, CIPHERLAB_ROOT=str(tree))
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "1", "--forcerun", "selfcheck",
                           "--until", "selfcheck", "--config", "profile=quick"],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert not any(p.exists() for p in parts)
