"""Run identity and the metadata recorded beside every raw measurement.

The record holds the run id, the git commit, the CPU, the OS-reported clock, boost and governor (or
"not readable"), threads, package versions, the seed, the config, the command line's ``config_overrides``,
and the load average when the job started and when it wrote the record.
"""
from __future__ import annotations

import datetime as _dt
import os
import platform
import secrets
import socket
import ssl
import subprocess
from functools import lru_cache
from importlib import metadata as _md
from typing import Any

from cipherlab.pipeline import overrides as _overrides
from cipherlab.pipeline.paths import ROOT

#: Packages whose versions are recorded with every run.
TRACKED_PACKAGES = (
    "cipherlab", "numba", "llvmlite", "numpy", "pandas", "scipy", "matplotlib",
    "pycryptodome", "papermill", "snakemake", "jupyter-book", "tqdm",
)


def new_run_id() -> str:
    """A fresh run id: UTC time plus a random suffix, e.g. ``20261122T203301Z-3f9a``."""
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return f"{now}-{secrets.token_hex(2)}"


@lru_cache(maxsize=1)
def git_commit() -> str:
    """The checkout's commit, with ``+dirty`` when the tree has changes; ``unknown`` outside git."""
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
        return sha + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


@lru_cache(maxsize=1)
def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@lru_cache(maxsize=1)
def _cpuinfo_first() -> dict[str, str]:
    """The first processor's fields of /proc/cpuinfo (``{}`` where there is none)."""
    out: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    if out:
                        break
                    continue
                key, _, value = line.partition(":")
                out.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return out


@lru_cache(maxsize=1)
def cpu_flags() -> tuple[str, ...]:
    """The CPU's feature flags as the OS lists them (``flags`` on x86, ``Features`` on ARM), sorted: all of
    them, for the machine card (``cpu_os_flags``); the size sweep's record keeps the few its kernels care
    about as LLVM names them (``cpu_flags``, :func:`cipherlab.ciphers.cpu.feature_flags`)."""
    info = _cpuinfo_first()
    return tuple(sorted(set((info.get("flags") or info.get("Features") or "").split())))


def cpu_id() -> str:
    """Vendor, family, model and stepping as the OS reports them (``AuthenticAMD family 25 model 17 stepping 1``),
    or ``not readable``."""
    info = _cpuinfo_first()
    parts = [info.get("vendor_id", "")] + [f"{k.split()[-1]} {info[k]}" for k in ("cpu family", "model", "stepping")
                                          if k in info]
    text = " ".join(p for p in parts if p)
    return text or NOT_READABLE


@lru_cache(maxsize=1)
def openssl_version() -> str:
    """``openssl version`` (the command the size sweep times, ``openssl speed``), or ``not installed``;
    the Python's own OpenSSL is :data:`ssl.OPENSSL_VERSION`."""
    try:
        run = subprocess.run(["openssl", "version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "not installed"
    return run.stdout.strip() or "not installed"


def jit_target() -> dict[str, str]:
    """What Numba compiles for: ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` (``host``: the CPU's own)."""
    import numba   # here, not at import: the Snakefile reads this layer and never compiles
    return {"cpu_name": str(numba.config.CPU_NAME or "host"),
            "cpu_features": "host" if numba.config.CPU_FEATURES is None else str(numba.config.CPU_FEATURES)}


NOT_READABLE = "not readable"


def _read_first_line(path: str) -> "str | None":
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.readline().strip()
    except OSError:
        return None


def os_clock_mhz() -> str:
    """The clock the OS reports for CPU 0 (``cpu MHz`` of /proc/cpuinfo; a virtual machine often
    reports its nominal clock), as text, or ``not readable``."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("cpu MHz"):
                    return f"{float(line.split(':', 1)[1]):.0f} MHz"
    except (OSError, ValueError):
        pass
    return NOT_READABLE


def cpu_governor() -> str:
    """cpufreq's scaling governor of CPU 0, or ``not readable`` (no cpufreq, e.g. most virtual machines)."""
    return _read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") or NOT_READABLE


def cpu_boost() -> str:
    """Turbo/boost: ``on``/``off`` from cpufreq's ``boost`` or intel_pstate's ``no_turbo``, else ``not readable``."""
    boost = _read_first_line("/sys/devices/system/cpu/cpufreq/boost")
    if boost in ("0", "1"):
        return "on" if boost == "1" else "off"
    no_turbo = _read_first_line("/sys/devices/system/cpu/intel_pstate/no_turbo")
    if no_turbo in ("0", "1"):
        return "off" if no_turbo == "1" else "on"
    return NOT_READABLE


def load_average() -> "list[float] | str":
    """The 1, 5 and 15 minute load averages, or ``not readable``."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return NOT_READABLE


#: The load average when this process started (for a timing job: before it measured anything).
LOAD_AT_START = load_average()


def package_versions() -> dict[str, str]:
    out = {}
    for name in TRACKED_PACKAGES:
        try:
            out[name] = _md.version(name)
        except _md.PackageNotFoundError:
            out[name] = "not installed"
    return out


@lru_cache(maxsize=1)
def memory_gib() -> "float | None":
    """Total physical memory in GiB (None where the OS does not say)."""
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        return None


def numba_threads() -> int:
    import numba   # here, not at import: the Snakefile reads this layer and never compiles
    return int(numba.config.NUMBA_NUM_THREADS)


def node() -> dict[str, str]:
    """Where this process runs: the host name, and the Slurm job id inside a Slurm job.

    Timings from different nodes are not comparable; the record says which node took them.
    """
    out = {"hostname": socket.gethostname()}
    for key, var in (("slurm_job_id", "SLURM_JOB_ID"), ("slurm_cluster", "SLURM_CLUSTER_NAME"),
                     ("slurm_partition", "SLURM_JOB_PARTITION")):
        if os.environ.get(var):
            out[key] = os.environ[var]
    return out


def environment_summary() -> dict[str, Any]:
    """What machine and software this run used (no timestamps: see :func:`run_metadata`).

    AES-NI is the cipher core's one decision (:mod:`cipherlab.ciphers.cpu`): ``cpu_aes_ni``, the CPU has it
    (PyCryptodome uses it), and ``jit_aes_ni``, cipherlab's own hardware kernels can run (the JIT target has
    it too; not under ``NUMBA_CPU_NAME=generic``).
    """
    from cipherlab.ciphers import cpu   # the cipher core decides; imported here, when a record is made
    return {
        "cpu_model": cpu_model(),
        "cpu_id": cpu_id(),
        "cpu_os_flags": " ".join(cpu_flags()),
        "cpu_aes_ni": cpu.host_has_aesni(),
        "jit_aes_ni": cpu.has_aesni(),
        "cpu_mhz_os": os_clock_mhz(),
        "cpu_boost": cpu_boost(),
        "cpu_governor": cpu_governor(),
        "logical_cores": os.cpu_count(),
        "memory_gib": memory_gib(),
        "numba_threads": numba_threads(),
        "jit_target": jit_target(),
        "os": f"{platform.system()} {platform.release()}",
        "platform": platform.platform(),
        "python": platform.python_version(),
        "packages": package_versions(),
        "openssl_version": openssl_version(),
        "openssl_python": ssl.OPENSSL_VERSION,
        "git_commit": git_commit(),
    }


def run_metadata(*, profile: str, seed: "int | None" = None, config: "dict | None" = None,
                 run_id: "str | None" = None, **extra: Any) -> dict[str, Any]:
    """The provenance record written beside a raw file.

    Parameters
    ----------
    profile : str
        ``full`` or ``quick``.
    seed : int, optional
        Seed of the generated inputs.
    config : dict, optional
        The parameters the notebook ran with.
    run_id : str, optional
        Defaults to a fresh :func:`new_run_id`.
    **extra
        Anything else worth keeping (JIT compile seconds, trial counts, ...).
    """
    meta = {
        "run_id": run_id or new_run_id(),
        "profile": profile,
        "date_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "seed": seed,
        "config": config or {},
        # the command line's overrides of the profile's values (--config/--configfile), {} when none
        "config_overrides": _overrides.current(),
        "node": node(),
        **environment_summary(),
        # before: when this process started (a timing job's notebook kernel, before its trials);
        # after: now, when the record is written after the measurements
        "load_average_start": LOAD_AT_START,
        "load_average_end": load_average(),
    }
    meta.update(extra)
    return meta
