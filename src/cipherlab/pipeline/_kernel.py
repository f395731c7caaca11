"""A Jupyter kernel that dies with the process that started it.

jupyter_client starts kernels in their own session, so a signal to the
pipeline's process group (``kill -9 -PGID``, a scheduler killing a job) misses
them: an orphaned kernel went on writing raw files after the run was killed.
:mod:`cipherlab.report.notebook` therefore launches its kernels as
``python -m cipherlab.pipeline._kernel --parent PID -f CONNECTION_FILE``, which

* asks Linux to SIGKILL it when the parent dies (``prctl(PR_SET_PDEATHSIG)``,
  through ctypes),
* exits at once if the parent is already gone (the race before ``prctl``), and
* runs a watchdog thread that exits the process when the parent pid changes
  (covers systems without ``prctl``),

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


def die_with_parent(parent: int) -> None:
    """Make this process end when process ``parent`` does."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - the watchdog still works
            pass
    if _orphaned(parent):
        os._exit(1)

    def watch() -> None:
        while not _orphaned(parent):
            time.sleep(WATCHDOG_SECONDS)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="cipherlab-parent-watchdog", daemon=True).start()


def main(argv: "list[str] | None" = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) < 2 or argv[0] != "--parent" or not argv[1].isdigit():
        sys.exit("usage: python -m cipherlab.pipeline._kernel --parent PID -f CONNECTION_FILE")
    die_with_parent(int(argv[1]))
    sys.argv = [sys.argv[0], *argv[2:]]
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
