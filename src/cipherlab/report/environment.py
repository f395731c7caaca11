"""The Environment page's measured parts: the size sweep of ``cipherlab bench --sizes`` (table, plot,
cycles per byte beside the instruction-throughput bound) and the load around each timing job.

Everything here reads files a run wrote (the sweep CSV and its ``.meta.json``, the raw files'
``.meta.json``); no number is typed in. ``cipherlab bench --sizes`` builds its printed table
with :func:`sweep_table` too, so the terminal and the page show the same thing.
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from cipherlab.pipeline.config import load_config
from cipherlab.pipeline.paths import Profile
from cipherlab.pipeline.results import check_raw, check_raw_file

__all__ = ["SWEEP_EXPERIMENT", "SWEEP_MODE", "sweep_csv", "sweep_parameters", "read_sweep", "SWEEP_SHORT",
           "AES_ROUNDS_PER_CYCLE", "instruction_bound", "sweep_table", "sweep_results", "sweep_figure",
           "bound_table", "timing_loads"]

#: The raw file of the pipeline's size sweep (rule ``bench_sweep``: ``cipherlab bench --sizes --out``).
SWEEP_EXPERIMENT = "bench_sweep"


#: The mode of the pipeline's size sweep (``cipherlab bench --sizes`` without ``--mode``).
SWEEP_MODE = "ctr"


def sweep_csv(profile: str) -> Path:
    """The profile's size-sweep CSV (its ``bench_sweep.meta.json`` beside), written by the rule ``bench_sweep``."""
    return Profile(profile).raw_csv(SWEEP_EXPERIMENT)


def sweep_parameters(repeats: int, mode: str = SWEEP_MODE) -> dict:
    """The sweep's parameters as its provenance records them (``config``) and :func:`read_sweep` expects them."""
    return {"mode": mode, "repeats": int(repeats)}


def read_sweep(profile: str) -> "tuple[pd.DataFrame, dict]":
    """The profile's sweep rows and provenance record, through the raw reader
    (:func:`cipherlab.pipeline.results.check_raw`): whole, of this experiment and profile, measured with
    the profile's ``bench_sweep_repeats`` (the run's resolved value) in :data:`SWEEP_MODE`; else
    :class:`~cipherlab.pipeline.results.RawDataError` in one line."""
    repeats = load_config(profile)["bench_sweep_repeats"]
    record = check_raw(SWEEP_EXPERIMENT, profile, expected={"config": sweep_parameters(repeats)})
    return record.frame, record.meta
MiB = 1 << 20
#: The AES units' throughput the bound assumes: AES round instructions issued per cycle (two on AMD
#: Zen 2-4 and on Intel Ice Lake and later), each on one 128-bit block, or on two with VAES.
AES_ROUNDS_PER_CYCLE = 2
#: The sweep table's short view on the page (the full table folds out).
SWEEP_SHORT = ["message", "cipherlab fresh MB/s", "pycryptodome fresh MB/s", "fresh: cipherlab / PyCryptodome",
               "openssl -evp MB/s", "cipherlab fresh cycles/B"]
_CASES = (("cipherlab", "fresh"), ("cipherlab", "reused"), ("pycryptodome", "fresh"), ("pycryptodome", "reused"))


def instruction_bound(rounds: int = 10, vaes: bool = False, per_cycle: int = AES_ROUNDS_PER_CYCLE) -> float:
    """The instruction-throughput bound in cycles per byte: ``rounds`` AES instructions per 16-byte
    block, ``per_cycle`` of them per cycle, each on two blocks with VAES. The assumption: loads,
    stores, the whitening XOR and the counters run beside the AES units, for free."""
    return rounds / (per_cycle * (2 if vaes else 1) * 16)


def _size_label(n: int) -> str:
    return f"{n // MiB} MiB" if n >= MiB else f"{n // 1024} KiB" if n >= 1024 else f"{n} B"


def sweep_table(frame: pd.DataFrame, openssl: "pd.DataFrame | str | None" = None) -> pd.DataFrame:
    """One row per message size: MB/s of cipherlab and PyCryptodome (a fresh object per message, one
    object reused), ``openssl speed -evp`` where measured, cipherlab's cycles per byte, and the ratios.

    ``frame``: the rows of :func:`cipherlab.bench.run_sweep` (``library, object, bytes, mb_per_s,
    cycles_per_byte``, optionally ``openssl_mb_per_s``); ``openssl``: its rows (``bytes, mb_per_s``)
    or None to take the ``openssl_mb_per_s`` column.
    """
    wide = frame.pivot_table(index="bytes", columns=["library", "object"], values="mb_per_s")
    out = pd.DataFrame(index=wide.index)
    for lib, obj in _CASES:
        out[f"{lib} {obj} MB/s"] = wide[(lib, obj)] if (lib, obj) in wide else float("nan")
    if isinstance(openssl, pd.DataFrame):
        out["openssl -evp MB/s"] = openssl.set_index("bytes").mb_per_s.reindex(out.index)
    elif "openssl_mb_per_s" in frame:
        out["openssl -evp MB/s"] = frame.groupby("bytes").openssl_mb_per_s.first().reindex(out.index)
    else:
        out["openssl -evp MB/s"] = float("nan")
    cpb = frame[frame.library == "cipherlab"].pivot_table(index="bytes", columns="object", values="cycles_per_byte",
                                                          dropna=False)
    for obj in ("fresh", "reused"):
        out[f"cipherlab {obj} cycles/B"] = cpb[obj] if obj in cpb else float("nan")
    out["fresh: cipherlab / PyCryptodome"] = out["cipherlab fresh MB/s"] / out["pycryptodome fresh MB/s"]
    out["reused: cipherlab / PyCryptodome"] = out["cipherlab reused MB/s"] / out["pycryptodome reused MB/s"]
    out.index = [_size_label(int(n)) for n in out.index]
    out.index.name = "message"
    return out.reset_index()


def sweep_results(path: "str | Path") -> "tuple[pd.DataFrame, dict] | None":
    """The rows and provenance record of a sweep run by hand (``cipherlab bench --sizes --out <path>``,
    its record ``<path>.meta.json``), checked by the raw reader; None when no CSV is there."""
    path = Path(path)
    if not path.is_file():
        return None
    record = check_raw_file(path, path.with_name(path.name + ".meta.json"), experiment=SWEEP_EXPERIMENT)
    return record.frame, record.meta


def sweep_figure(frame: pd.DataFrame):
    """Throughput (MB/s, log scale) against message size (log scale), one line per library and object."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    for (lib, obj), style in zip(_CASES, ("-o", "--o", "-s", "--s")):
        sel = frame[(frame.library == lib) & (frame.object == obj)].sort_values("bytes")
        ax.plot(sel.bytes, sel.mb_per_s, style, label=f"{lib}, {obj} object", markersize=4)
    if "openssl_mb_per_s" in frame and frame.openssl_mb_per_s.notna().any():
        sel = frame.groupby("bytes").openssl_mb_per_s.first().dropna()
        ax.plot(sel.index, sel.values, ":^", label="openssl speed -evp", markersize=4)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    sizes = sorted(frame.bytes.unique())
    ax.set_xticks(sizes, [_size_label(int(n)) for n in sizes], rotation=45)
    ax.set_xlabel("message size")
    ax.set_ylabel("MB/s (10^6 B/s), one thread")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def bound_table(frame: pd.DataFrame, meta: dict) -> pd.DataFrame:
    """cipherlab's measured cycles per byte on the largest message beside the instruction-throughput
    bound recorded with the run (its assumption in words), or the clock's absence said."""
    largest = frame[(frame.library == "cipherlab") & (frame.bytes == frame.bytes.max())].set_index("object")
    bound = meta.get("instruction_bound_cycles_per_byte")
    rows = []
    for obj in ("fresh", "reused"):
        cpb = float(largest.cycles_per_byte.get(obj, float("nan"))) if obj in largest.index else float("nan")
        rows.append({"case": f"cipherlab, {obj} object, {_size_label(int(frame.bytes.max()))}",
                     "cycles/B measured": "clock unknown" if cpb != cpb else f"{cpb:.3f}",
                     "cycles/B bound": "not recorded" if bound is None else f"{bound:.3f}",
                     "measured / bound": "" if bound is None or cpb != cpb else f"{cpb / bound:.2f}"})
    return pd.DataFrame(rows)


def timing_loads(profile: str) -> pd.DataFrame:
    """For each raw timing file of ``profile``: its run id and the load average (1, 5, 15 min) when its
    job started and when it wrote the file, from the ``.meta.json`` beside it ("not recorded" in older runs)."""
    rows = []
    for meta_path in sorted(Profile(profile).raw.glob("*.meta.json")):
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        rows.append({"raw file": meta_path.name[: -len(".meta.json")], "run_id": meta.get("run_id", ""),
                     "load at start": str(meta.get("load_average_start", "not recorded")),
                     "load at end": str(meta.get("load_average_end", "not recorded"))})
    return pd.DataFrame(rows, columns=["raw file", "run_id", "load at start", "load at end"])
