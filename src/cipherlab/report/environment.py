"""The Environment page's measured parts: where the pipeline's size sweep is, its figure, and the load
around each timing job.  The sweep's tables (MB/s, cycles per byte beside the bound measured on the
running CPU) are :mod:`cipherlab.analysis.sweep`'s, which ``cipherlab bench --sizes`` prints too.

Everything here reads files a run wrote (the sweep CSV and its ``.meta.json``, the raw files'
``.meta.json``); no number is typed in.
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from cipherlab.analysis.sweep import CASES, SWEEP_EXPERIMENT, SWEEP_MODE, part, size_label, sweep_parameters
from cipherlab.pipeline.config import load_config
from cipherlab.pipeline.paths import Profile
from cipherlab.pipeline.results import check_raw

__all__ = ["SWEEP_EXPERIMENT", "SWEEP_MODE", "sweep_csv", "read_sweep", "sweep_figure", "timing_loads"]

def sweep_csv(profile: str) -> Path:
    """The profile's size-sweep CSV (its ``bench_sweep.meta.json`` beside), written by the rule ``bench_sweep``."""
    return Profile(profile).raw_csv(SWEEP_EXPERIMENT)


def read_sweep(profile: str) -> "tuple[pd.DataFrame, dict]":
    """The profile's sweep rows and provenance record, through the raw reader
    (:func:`cipherlab.pipeline.results.check_raw`): whole, of this experiment and profile, measured with
    the profile's ``bench_sweep_repeats`` (the run's resolved value) in :data:`SWEEP_MODE`; else
    :class:`~cipherlab.pipeline.results.RawDataError` in one line."""
    repeats = load_config(profile)["bench_sweep_repeats"]
    record = check_raw(SWEEP_EXPERIMENT, profile, expected={"config": sweep_parameters(repeats)})
    return record.frame, record.meta


def sweep_figure(frame: pd.DataFrame):
    """Throughput (MB/s, log scale) against message size (log scale), one line per library and object
    (one thread, AES-128: the ``sizes`` part)."""
    import matplotlib.pyplot as plt

    frame = part(frame, "sizes")
    frame = frame[frame.threads == 1]
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    for (lib, obj), style in zip(CASES, ("-o", "--o", "-s", "--s")):
        sel = frame[(frame.library == lib) & (frame.object == obj)].sort_values("bytes")
        ax.plot(sel.bytes, sel.mb_per_s, style, label=f"{lib}, {obj} object", markersize=4)
    if "openssl_mb_per_s" in frame and frame.openssl_mb_per_s.notna().any():
        sel = frame.groupby("bytes").openssl_mb_per_s.first().dropna()
        ax.plot(sel.index, sel.values, ":^", label="openssl speed -evp", markersize=4)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    sizes = sorted(frame.bytes.unique())
    ax.set_xticks(sizes, [size_label(int(n)) for n in sizes], rotation=45)
    ax.set_xlabel("message size")
    ax.set_ylabel("MB/s (10^6 B/s), one thread")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


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
