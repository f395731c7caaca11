"""A killed run leaves nothing running and nothing half-written: the notebook kernel dies with
its parent, stale ``.part`` files are removed on the next run, and the Makefile explains a
stale lock."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import nbformat
import pytest

from cipherlab.pipeline import paths, results
from pipeline_tree import make_tree


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in state  # a zombie has exited; only its reaper is missing


def _wait_until(cond, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def _sleeping_notebook(path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('pidfile = ""\nmarker = ""')
    params.metadata["tags"] = ["parameters"]
    body = nbformat.v4.new_code_cell(textwrap.dedent("""\
        import os, time
        open(pidfile, "w").write(str(os.getpid()))
        time.sleep(3)
        open(marker, "w").write("written after the kill")  # must never happen
        time.sleep(120)
    """))
    nb.cells = [params, body]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.write(nb, path)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl are Linux")
def test_kernel_dies_with_the_notebook_runner(tmp_path):
    src, dst = tmp_path / "sleep.ipynb", tmp_path / "out.ipynb"
    pidfile, marker = tmp_path / "kernel.pid", tmp_path / "marker"
    _sleeping_notebook(src)
    code = (f"from cipherlab.report.notebook import run_notebook; "
            f"run_notebook({str(src)!r}, {str(dst)!r}, {{'pidfile': {str(pidfile)!r}, 'marker': {str(marker)!r}}})")
    runner = subprocess.Popen([sys.executable, "-c", code], start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _wait_until(lambda: pidfile.exists() and pidfile.read_text(), 120), "the kernel never started"
        kernel = int(pidfile.read_text())
        cmdline = Path(f"/proc/{kernel}/cmdline").read_bytes().split(b"\0")
        assert b"cipherlab.pipeline.parent_bound_kernel" in cmdline, cmdline
        assert os.getsid(kernel) != os.getsid(runner.pid), "the kernel shares the runner's session"
        os.killpg(runner.pid, signal.SIGKILL)  # the whole process group of the runner, as a scheduler would
        runner.wait(timeout=30)
        assert _wait_until(lambda: not _alive(kernel), 5), f"kernel {kernel} survived its parent"
    finally:
        if runner.poll() is None:
            runner.kill()
    time.sleep(3.5)
    assert not marker.exists(), "the orphaned kernel went on writing"
    assert not dst.exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl are Linux")
def test_kill_9_of_snakemake_alone_stops_its_jobs_writing(tmp_path):
    """``kill -9`` of the Snakemake process only (not its group): the job's shell and notebook runner
    are orphaned, but the kernel (what writes outputs) ends at once, so ``make unlock && make reproduce``
    never races a job of the killed run (before: it went on for ~40 s and wrote its outputs)."""
    src, dst = tmp_path / "sleep.ipynb", tmp_path / "out.ipynb"
    pidfile, marker = tmp_path / "kernel.pid", tmp_path / "marker"
    _sleeping_notebook(src)
    code = (f"from cipherlab.report.notebook import run_notebook; "  # no braces: Snakemake formats the shell
            f"run_notebook({str(src)!r}, {str(dst)!r}, dict(pidfile={str(pidfile)!r}, marker={str(marker)!r}))")
    (tmp_path / "Snakefile").write_text(textwrap.dedent(f"""\
        rule all:
            output: {str(dst)!r}
            shell: {f"{sys.executable} -c {code!r}"!r}
        """))
    snake = subprocess.Popen([sys.executable, "-m", "snakemake", "--cores", "1", "--snakefile",
                              str(tmp_path / "Snakefile"), "--directory", str(tmp_path)],
                             cwd=tmp_path, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _wait_until(lambda: pidfile.exists() and pidfile.read_text(), 180), "the kernel never started"
        kernel = int(pidfile.read_text())
        os.kill(snake.pid, signal.SIGKILL)  # Snakemake alone: its jobs are orphaned, not signalled
        snake.wait(timeout=30)
        assert _wait_until(lambda: not _alive(kernel), 5), f"kernel {kernel} went on after Snakemake was killed"
    finally:
        if snake.poll() is None:
            snake.kill()
        try:
            os.killpg(snake.pid, signal.SIGKILL)  # whatever is left of the test's own run
        except ProcessLookupError:
            pass
    time.sleep(3.5)
    assert not marker.exists(), "the orphaned job went on writing"
    assert not dst.exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux")
def test_die_with_parent_watchdog_and_prctl(tmp_path):
    """A process under die_with_parent() ends when its parent is SIGKILLed."""
    pidfile = tmp_path / "child.pid"
    child = (f"import os, time; from cipherlab.pipeline.parent_bound_kernel import die_with_parent; die_with_parent(os.getppid()); "
             f"open({str(pidfile)!r}, 'w').write(str(os.getpid())); time.sleep(120)")
    parent = subprocess.Popen([sys.executable, "-c",
                               f"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', {child!r}], "
                               f"start_new_session=True); time.sleep(120)"])
    try:
        assert _wait_until(lambda: pidfile.exists() and pidfile.read_text(), 60)
        pid = int(pidfile.read_text())
        assert _alive(pid)
        parent.kill()
        parent.wait(timeout=30)
        assert _wait_until(lambda: not _alive(pid), 5), "child survived its parent"
    finally:
        if parent.poll() is None:
            parent.kill()


def test_stale_part_files_are_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path / "data")
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    prof = paths.Profile("quick")
    keep, stale = [], []
    for d in (prof.raw, prof.tables, prof.figures, prof.notebooks, prof.inputs):
        d.mkdir(parents=True, exist_ok=True)
        keep.append(results.write_text(d / "x.csv", "a\n"))
        part = d / ".x.csv.abc123.part"
        part.write_text("half")
        stale.append(part)
    for p in stale:
        assert p.exists()
    removed = results.remove_stale_parts(prof)
    assert sorted(removed) == sorted(stale)
    assert all(not p.exists() for p in stale) and all(p.exists() for p in keep)


@pytest.mark.pipeline
def test_stale_lock_after_sigkill_is_explained_and_unlocked(tmp_path):
    """SIGKILL leaves Snakemake's lock: `make reproduce` says to run `make unlock`, which clears it."""
    tree = make_tree(tmp_path / "tree")   # the sources only, never the checkout (tests/pipeline_tree.py)
    root = tree.root
    (root / ".venv").symlink_to(paths.ROOT / ".venv")
    env = tree.env()
    run = subprocess.Popen([sys.executable, "-m", "snakemake", "--cores", "1", "--config", "profile=quick"],
                           cwd=root, env=env, start_new_session=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    locks = root / ".snakemake" / "locks"
    try:
        assert _wait_until(lambda: locks.is_dir() and any(locks.glob("*.lock")), 300), "no lock was taken"
    finally:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait(timeout=30)
    assert any(locks.glob("*.lock")), "SIGKILL should leave the lock behind"
    proc = subprocess.run(["make", "reproduce", "QUICK=1", "CORES=1"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode != 0
    assert "make unlock QUICK=1" in proc.stderr, proc.stdout[-2000:] + proc.stderr[-2000:]
    proc = subprocess.run(["make", "unlock", "QUICK=1"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert not any(locks.glob("*.lock"))
