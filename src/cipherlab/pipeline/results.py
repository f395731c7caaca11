"""Reading and writing pipeline outputs, atomically.

Every write goes to a temporary file in the target directory and is renamed
into place only when complete, so an interrupted run never leaves a
half-written file that a later run would take as finished.
"""
from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping

import pandas as pd

from cipherlab.pipeline.paths import Profile, as_profile
from cipherlab.pipeline.provenance import run_metadata

@contextmanager
def atomic_path(path: "str | os.PathLike[str]") -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it onto ``path`` on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    # mkstemp creates 0600; give the file the permissions an ordinary open() would.
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp_path, 0o666 & ~umask)
    try:
        yield tmp_path
        os.replace(tmp_path, path)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def write_text(path: "str | os.PathLike[str]", text: str) -> Path:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def write_bytes(path: "str | os.PathLike[str]", data: bytes) -> Path:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def write_csv(df: pd.DataFrame, path: "str | os.PathLike[str]") -> Path:
    """Write ``df`` without its index, with ``\\n`` line endings, atomically."""
    with atomic_path(path) as tmp:
        df.to_csv(tmp, index=False, lineterminator="\n")
    return Path(path)


def write_json(obj: Any, path: "str | os.PathLike[str]") -> Path:
    return write_text(path, json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n")


def save_raw(df: pd.DataFrame, experiment: str, profile: "str | Profile",
             meta: "Mapping[str, Any] | None" = None) -> Path:
    """Save raw per-trial measurements and their provenance record.

    Parameters
    ----------
    df : DataFrame
        One row per trial.  Timing frames carry at least ``cipher, impl, mode,
        operation, bytes, trial, seconds, run_id``.
    experiment : str
        File stem: ``data/raw/<profile>/<experiment>.csv``.
    profile : str or Profile
    meta : mapping, optional
        Run metadata (see :func:`cipherlab.pipeline.provenance.run_metadata`); written
        beside the CSV as ``<experiment>.meta.json``.
    """
    prof = as_profile(profile)
    if meta is None:
        meta = run_metadata(profile=prof.name)
    write_json(dict(meta), prof.raw_meta(experiment))
    return write_csv(df, prof.raw_csv(experiment))


def read_raw(experiment: str, profile: "str | Profile") -> pd.DataFrame:
    return pd.read_csv(as_profile(profile).raw_csv(experiment))


def read_raw_meta(experiment: str, profile: "str | Profile") -> dict:
    return json.loads(as_profile(profile).raw_meta(experiment).read_text())


def save_table(df: pd.DataFrame, name: str, profile: "str | Profile") -> Path:
    """Save a derived table to ``data/tables/<profile>/<name>.csv``."""
    return write_csv(df, as_profile(profile).table(name))


def read_table(name: str, profile: "str | Profile") -> pd.DataFrame:
    return pd.read_csv(as_profile(profile).table(name), keep_default_na=False, na_values=[""])


def remove_stale_parts(profile: "str | Profile") -> list[Path]:
    """Delete the ``.part`` files a killed run left in a profile's output trees.

    :func:`atomic_path` writes ``.<name>.<random>.part`` beside its target and
    renames it on success; a process killed with SIGKILL cannot remove it.
    The pipeline calls this when a run starts (Snakemake holds its directory
    lock then, so no other run of this tree is writing).  Returns the paths
    removed.
    """
    prof = as_profile(profile)
    removed = []
    for root in (prof.inputs, prof.raw, prof.tables, prof.figures, prof.build):
        if not Path(root).is_dir():
            continue
        for part in Path(root).rglob(".*.part"):
            if part.is_file() and not part.is_symlink():
                part.unlink()
                removed.append(part)
    return removed
