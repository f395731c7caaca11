"""One lock per machine, so that a timing job never shares the cores with another job.

Snakemake's scheduler is meant to keep a job with ``threads: <all cores>``
alone on the machine, but some releases start a second job beside it anyway
(upstream issue 3913, since 9.10: the greedy scheduler over-commits cores).
A timing job measured beside a chapter notebook measures that notebook's
load as much as the ciphers, so the rule does not rely on the scheduler:

* every pipeline job holds this lock **shared** while it runs
  (:mod:`cipherlab.report.notebook`, :mod:`cipherlab.pipeline.inputs`);
* a timing job holds it **exclusively**: it waits until every running job
  has finished, and every job that starts meanwhile waits for it.

The lock is an ``flock`` on a file in the temporary directory, one per user and
machine (``CIPHERLAB_MACHINE_LOCK`` names another file), so two checkouts or
two profiles running at once on one machine are kept apart too, while jobs
on other machines (a cluster's nodes) are not.  The kernel releases an
``flock`` when its holder dies, so a killed run leaves no stale lock.

The test suite's trees set ``CIPHERLAB_TIMING_SHARES_MACHINE=1``: their timing jobs then hold the lock
**shared**.  Their timings are never read as results (no test asserts a speed), so the suite's trees need
not wait for each other's timing jobs; a user's own timing job still runs alone, since it waits for
every shared holder and they wait for it.  The job's log says so.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

try:  # POSIX; elsewhere the lock is a no-op and says so
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


#: The environment variable under which a timing job holds the lock shared (the test suite's trees).
SHARE_ENV = "CIPHERLAB_TIMING_SHARES_MACHINE"


def timing_shares_machine() -> bool:
    """Whether this process's timing jobs hold the machine lock shared: ``$CIPHERLAB_TIMING_SHARES_MACHINE``
    is ``1`` (the test suite's trees); ``0`` or unset keeps them alone.  Any other value is refused."""
    value = os.environ.get(SHARE_ENV, "0")
    if value not in ("0", "1"):
        raise ValueError(f"{SHARE_ENV} must be 0 or 1, got {value!r}")
    return value == "1"


def lock_path() -> Path:
    """The lock file: ``$CIPHERLAB_MACHINE_LOCK`` or ``<tmp>/cipherlab-machine-<uid>.lock``."""
    env = os.environ.get("CIPHERLAB_MACHINE_LOCK")
    if env:
        return Path(env)
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"cipherlab-machine-{uid}.lock"


@contextmanager
def machine_lock(exclusive: bool, *, path: "str | os.PathLike[str] | None" = None,
                 announce: "Callable[[str], None] | None" = None) -> Iterator[float]:
    """Hold the machine lock (exclusively for a timing job, shared otherwise) for the ``with`` block.

    Yields the seconds spent waiting for it.  ``announce`` (default: print to
    stderr) is told when the lock is busy and when it was obtained.
    """
    if not isinstance(exclusive, bool):
        raise ValueError(f"exclusive must be True or False, got {exclusive!r}")
    say = announce or (lambda msg: print(msg, file=sys.stderr, flush=True))
    if fcntl is None:  # pragma: no cover
        say("machine lock: not available on this platform; timing jobs may share the cores")
        yield 0.0
        return
    target = Path(path) if path is not None else lock_path()
    if exclusive and timing_shares_machine():
        say(f"machine lock: a timing job holding it shared ({SHARE_ENV}=1, the test suite's trees): "
            "its timings are not measured alone")
        exclusive = False
    fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
        start = time.monotonic()
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            say(f"machine lock {target}: busy, waiting for "
                + ("every running job to finish (timing job)" if exclusive else "a timing job to finish"))
            fcntl.flock(fd, mode)
            say(f"machine lock: obtained after {time.monotonic() - start:.1f} s")
        yield time.monotonic() - start
    finally:
        os.close(fd)
