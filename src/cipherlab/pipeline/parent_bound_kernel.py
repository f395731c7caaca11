"""A Jupyter kernel that dies with the process that started it.

jupyter_client starts kernels in their own session, so a signal to the
pipeline's process group (``kill -9 -PGID``, a scheduler killing a job) misses
them: an orphaned kernel went on writing raw files after the run was killed.
:mod:`cipherlab.report.notebook` therefore launches its kernels as
``python -m cipherlab.pipeline.parent_bound_kernel --parent PID -f CONNECTION_FILE``, which

* asks Linux to SIGKILL it when the parent dies (``prctl(PR_SET_PDEATHSIG)``,
  through ctypes),
* exits at once if the parent is already gone (the race before ``prctl``), and
* runs a watchdog thread that exits the process when the parent pid changes
  (covers systems without ``prctl``),

* also ends when the Snakemake process that started its job dies (the
  nearest ``snakemake`` among its ancestors, found in ``/proc``): ``kill -9``
  of Snakemake alone orphans the job's shell and notebook runner, which are
  not its children, and the kernel, which writes the raw files and tables,
  would go on for the rest of its notebook and race an immediate
  ``make unlock && make reproduce``.  It dies within
  :data:`WATCHDOG_SECONDS` instead; the runner then fails without writing its
  output (atomic writes),

then starts ipykernel as ``ipykernel_launcher`` would.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
WATCHDOG_SECONDS = 0.2


def _orphaned(parent: int) -> bool:
    return os.getppid() != parent


def _stat(pid: int) -> "tuple[str, int, str] | None":
    """``(state, ppid, start time)`` of ``pid`` from ``/proc/<pid>/stat``; ``None`` if it is gone."""
    try:
        text = open(f"/proc/{pid}/stat", encoding="ascii", errors="replace").read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # after "pid (comm) "
    return fields[0], int(fields[1]), fields[19]


def _is_snakemake(pid: int) -> bool:
    try:
        args = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    except OSError:
        return False
    return any(os.path.basename(a) == b"snakemake" for a in args[:3])  # snakemake ... or python -m snakemake


def pipeline_ancestor(pid: "int | None" = None) -> "tuple[int, str] | None":
    """The nearest Snakemake process among the ancestors of ``pid`` (default: this process) and its
    start time, or ``None`` (not run by Snakemake, or no ``/proc``)."""
    seen = set()
    pid = os.getppid() if pid is None else pid
    while pid > 1 and pid not in seen:
        seen.add(pid)
        st = _stat(pid)
        if st is None:
            return None
        if _is_snakemake(pid):
            return pid, st[2]
        pid = st[1]
    return None


def _gone(ancestor: "tuple[int, str] | None") -> bool:
    """Whether the process ``ancestor`` names has exited (a zombie, or its pid gone or reused)."""
    if ancestor is None:
        return False
    st = _stat(ancestor[0])
    return st is None or st[0] in ("Z", "X") or st[2] != ancestor[1]


def die_with_parent(parent: int) -> None:
    """Make this process end when process ``parent`` does, or the Snakemake process that ran its job."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - the watchdog still works
            pass
    if _orphaned(parent):
        os._exit(1)
    pipeline = pipeline_ancestor() if sys.platform.startswith("linux") else None

    def watch() -> None:
        while not _orphaned(parent) and not _gone(pipeline):
            time.sleep(WATCHDOG_SECONDS)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="cipherlab-parent-watchdog", daemon=True).start()


def main(argv: "list[str] | None" = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) < 2 or argv[0] != "--parent" or not argv[1].isdigit():
        sys.exit("usage: python -m cipherlab.pipeline.parent_bound_kernel --parent PID -f CONNECTION_FILE")
    die_with_parent(int(argv[1]))
    sys.argv = [sys.argv[0], *argv[2:]]
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
