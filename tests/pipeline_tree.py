"""Temporary copies of the tree for the pipeline tests: no test writes into the checkout's ``data/`` or ``build/``.

A tree holds the checkout's sources (Snakefile, workflow, config, notebooks,
book, published data, profiles); its ``src`` is a symlink to the checkout's,
so the notebooks import the same library and share its Numba cache
(``src/cipherlab/**/__pycache__``): no kernel compiles twice.  A test that
edits library code asks for a real copy (``src="copy"``; mtimes are kept, so
the cache stays valid).  The Snakefile takes its directory as the root
(``CIPHERLAB_ROOT``, inherited by every job and notebook kernel), so a run in
a tree writes only there.

The test run's quick run (``quick_tree`` in ``conftest.py``) is built once per test run by
:func:`shared_quick_tree`, however many pytest-xdist workers ask for it: the first builds it
in a folder they share, the others wait on a file lock and reuse it.  So no test changes it:
a test that changes a tree (a re-run, an edit, a PDF build) works on a :func:`copy_tree`.
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from cipherlab.pipeline import machine_lock, paths
CHECKOUT = paths.ROOT
#: What a tree copies from the checkout (besides ``src``).
#: (Not ``data/runs``: a tree holds the shipped runs its test makes, so no test depends on what is shipped.)
SOURCES = ("Snakefile", "pyproject.toml", "Makefile", "workflow", "config", "notebooks", "book", "data/paper",
           "profiles", "cluster")
#: Outputs and Snakemake's state, copied by copy_tree with mtimes kept.
OUTPUTS = ("data/inputs", "data/raw", "data/tables", "data/figures", "build", "logs", ".snakemake/metadata")
CORES = "2"
SNAKEMAKE_TIMEOUT = 1800  # seconds; the quick profile takes a few minutes on 2 cores from a cold cache, 20 on a shared one
_IGNORE = shutil.ignore_patterns("__pycache__", "_build", ".ipynb_checkpoints")


class Tree:
    """A copy of the tree at ``root``, with helpers to run Snakemake in it and find its outputs."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.seconds: "float | None" = None
        self.log = ""

    def __repr__(self) -> str:
        return f"Tree({self.root})"

    def at(self, path: "str | os.PathLike[str]") -> Path:
        """``path`` in this tree: a checkout path (``paths.Profile(...).table(...)``) or a relative one."""
        path = Path(path)
        return self.root / (path.relative_to(CHECKOUT) if path.is_absolute() else path)

    def env(self, **extra: str) -> dict[str, str]:
        # a user's shell, not the make that runs the suite (``make test``): no make[1] lines, no inherited flags
        env = {k: v for k, v in os.environ.items()
               if k not in ("CIPHERLAB_ROOT", "PYTHONPATH", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
        # the suite's trees time nothing that a test reads as a result: their timing jobs need not wait for each
        # other's (cipherlab.pipeline.machine_lock); a user's own timing job still runs alone
        env[machine_lock.SHARE_ENV] = "1"
        env.update(extra)
        return env

    def snakemake(self, *args: str, check: bool = True, env: "dict | None" = None,
                  timeout: int = SNAKEMAKE_TIMEOUT, config: "tuple[str, ...]" = ()) -> subprocess.CompletedProcess:
        """``python -m snakemake ARGS --config profile=quick CONFIG`` in this tree (the quick profile; ``config``:
        more ``key=value``, e.g. ``run=<name>`` for the book of a shipped run)."""
        cmd = [sys.executable, "-m", "snakemake", *args, "--config", "profile=quick", *config]
        proc = subprocess.run(cmd, cwd=self.root, env=env or self.env(), capture_output=True, text=True,
                              timeout=timeout)
        if check and proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-60:])
            raise AssertionError(f"snakemake {' '.join(args)} in {self.root} exited {proc.returncode}:\n{tail}")
        return proc

    def python(self, *args: str, check: bool = True, env: "dict | None" = None) -> subprocess.CompletedProcess:
        """``python ARGS`` with this tree as the root (``CIPHERLAB_ROOT``), as its jobs run."""
        proc = subprocess.run([sys.executable, *args], cwd=self.root, capture_output=True, text=True,
                              env=env or self.env(CIPHERLAB_ROOT=str(self.root)), timeout=SNAKEMAKE_TIMEOUT)
        if check and proc.returncode != 0:
            raise AssertionError(f"python {' '.join(args)} in {self.root} exited {proc.returncode}:\n"
                                 f"{proc.stderr[-3000:]}")
        return proc

    def plan(self, *args: str, config: "tuple[str, ...]" = ()) -> dict[str, int]:
        """``snakemake -n``: {rule: job count}; {} when there is nothing to do."""
        import re

        proc = self.snakemake("-n", *args, config=config)
        out = proc.stdout + proc.stderr
        if "Nothing to be done" in out:
            return {}
        block = out.split("Job stats:", 1)[1].split("total", 1)[0]
        jobs = dict(re.findall(r"^([\w-]+)\s+(\d+)\s*$", block, flags=re.M))
        assert jobs, out[-3000:]
        return {k: int(v) for k, v in jobs.items()}


def _copy(src: Path, dst: Path, ignore=_IGNORE) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        shutil.copytree(src, dst, symlinks=True, ignore=ignore)
    else:
        shutil.copy2(src, dst)


def _link_or_copy_src(dest: Path, src: str) -> None:
    if src == "link":
        (dest / "src").symlink_to(CHECKOUT / "src", target_is_directory=True)
    elif src == "copy":
        # A real copy with the Numba cache beside it (mtimes kept: the cache stays valid).
        shutil.copytree((CHECKOUT / "src").resolve(), dest / "src", ignore=shutil.ignore_patterns("*.egg-info"))
    else:
        raise ValueError(f"src must be one of ('link', 'copy'), got {src!r}")


def make_tree(dest: Path, *, src: str = "link") -> Tree:
    """The checkout's sources at ``dest`` (no outputs, no Snakemake state)."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for name in SOURCES:
        if (CHECKOUT / name).exists():
            _copy(CHECKOUT / name, dest / name)
    _link_or_copy_src(dest, src)
    return Tree(dest)


def copy_tree(tree: Tree, dest: Path, *, src: str = "link") -> Tree:
    """A copy of ``tree`` with its outputs and Snakemake's metadata, mtimes kept (it stays up to date)."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for name in SOURCES:
        if (tree.root / name).exists():
            _copy(tree.root / name, dest / name)
    for name in OUTPUTS:   # everything, the built book (build/<profile>/book/_build) included
        if (tree.root / name).exists():
            _copy(tree.root / name, dest / name, ignore=None)
    _link_or_copy_src(dest, src)
    out = Tree(dest)
    out.seconds, out.log = tree.seconds, tree.log
    return out


def build_quick_tree(dest: Path) -> Tree:
    """A tree in which the whole quick pipeline has run (``snakemake --cores 2``)."""
    tree = make_tree(dest)
    start = time.perf_counter()
    proc = tree.snakemake("--cores", CORES, "--rerun-incomplete")
    tree.seconds = time.perf_counter() - start
    tree.log = proc.stdout + proc.stderr
    return tree


def shared_quick_tree(folder: Path) -> Tree:
    """The quick tree in ``folder`` (``folder/tree``), built by the first process of a test run that asks
    for it and reused by every other (pytest-xdist workers share ``folder``): the builder holds an
    exclusive ``flock`` on ``folder/lock`` while Snakemake runs, the others wait on it.  A build that
    failed is not tried again by each worker: they fail with its message."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    built, failed = folder / "built.json", folder / "failed.txt"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # released when the file closes, also if this process dies
        if failed.is_file():
            raise AssertionError(failed.read_text(encoding="utf-8"))
        if built.is_file():
            record = json.loads(built.read_text(encoding="utf-8"))
            tree = Tree(folder / "tree")
            tree.seconds, tree.log = record["seconds"], record["log"]
            return tree
        if (folder / "tree").exists():   # a build that was stopped (its builder killed): start afresh
            shutil.rmtree(folder / "tree")
        try:
            tree = build_quick_tree(folder / "tree")
        except BaseException as exc:
            failed.write_text(f"the test run's quick pipeline failed to build (shared by every worker):\n{exc}",
                              encoding="utf-8")
            raise
        built.write_text(json.dumps({"seconds": tree.seconds, "log": tree.log}), encoding="utf-8")
        return tree


#: The background builds this process started (pid -> process), so that it reaps them.
_STARTED: "dict[int, subprocess.Popen]" = {}


def start_quick_tree(folder: Path) -> "int | None":
    """Start building the quick tree in ``folder`` in a background process, once per test run: the suite's
    other tests run while it builds, and the first test that needs it waits on :func:`shared_quick_tree`'s
    lock (or builds it itself, should it get the lock first).  Returns the process id, or None when this
    test run has already started it.  The process's output goes to ``folder/background.log``; a failed
    build is reported by :func:`shared_quick_tree` to every test that asks for the tree."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(folder / "started", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return None
    code = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import pipeline_tree; "
            f"pipeline_tree.shared_quick_tree(pipeline_tree.Path({str(folder)!r}))")
    with open(folder / "background.log", "w") as log:
        # a session of its own, so that stop_quick_tree ends it with the jobs Snakemake started
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    os.write(fd, str(proc.pid).encode())
    os.close(fd)
    _STARTED[proc.pid] = proc
    return proc.pid


def stop_quick_tree(folder: Path) -> None:
    """End the background build of :func:`start_quick_tree` if it still runs (the test run is over: it was
    interrupted, or stopped before any test needed the tree)."""
    import signal

    folder = Path(folder)
    if (folder / "built.json").is_file() or (folder / "failed.txt").is_file():
        return   # it has finished
    try:
        pid = int((folder / "started").read_text())
    except (OSError, ValueError):
        return
    if pid in _STARTED and _STARTED[pid].poll() is not None:
        return
    try:
        os.killpg(pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return
    for _ in range(50):   # Snakemake removes the outputs of the jobs it stops
        time.sleep(0.1)
        if pid in _STARTED:
            _STARTED[pid].poll()   # reap it, or it stays in its group as a zombie
        try:
            os.killpg(pid, 0)
        except ProcessLookupError:
            return
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def checkout_outputs() -> dict[str, tuple[int, int]]:
    """Every file under the checkout's ``data/`` and ``build/``: path -> (size, mtime_ns)."""
    found = {}
    for top in ("data", "build"):
        base = CHECKOUT / top
        if base.is_dir():
            for p in base.rglob("*"):
                if p.is_file() and not p.is_symlink():
                    st = p.stat()
                    found[str(p.relative_to(CHECKOUT))] = (st.st_size, st.st_mtime_ns)
    return found
