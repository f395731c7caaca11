"""Reading and writing pipeline outputs, atomically, and checking raw data is whole.

Every file cipherlab writes (the pipeline's tables, raw data, figures and
notebooks; ``cipherlab encrypt -o``, ``bench --out``, ``selfcheck --out``) goes
through one writer, :func:`atomic_path`:

* a regular file (or a new one) is written to a temporary ``.part`` file in
  the target's directory, ``fsync``-ed and renamed into place only when
  complete, so an interrupted run never leaves a half-written file that a later
  run would take as finished; it keeps the old file's permission bits (and
  owner, when allowed); a new file gets ``new_mode`` (default: what ``open()``
  gives under the umask);
* a symlink is followed, and the file it points to is written;
* a character or block device, FIFO or socket is written in place, never
  replaced by a regular file (``/dev/full`` stays a device and the write fails
  with "No space left on device");
* a directory is refused (``IsADirectoryError``);
* a missing directory is created only when the caller asks (``parents=True``:
  the pipeline's own trees); otherwise it is refused (``FileNotFoundError``),
  as the command line does for every path a user names.

Every ``write()`` and ``fsync()`` is checked; failures raise ``OSError``.

Raw data proves it is whole: :func:`save_raw` records the CSV's row count and
SHA-256 in its ``.meta.json`` (``raw_rows``, ``raw_sha256``), and
:func:`read_raw` refuses a file whose rows or digest differ (truncated, edited
by hand), naming the file and what differs (:class:`RawDataError`).
"""
from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping

import pandas as pd

from cipherlab.pipeline.paths import Profile, as_profile
from cipherlab.pipeline.provenance import run_metadata

#: Bytes per write(2) call; each call's result is checked.
_CHUNK = 1 << 20


class RawDataError(ValueError):
    """A raw file does not match the row count and SHA-256 its ``.meta.json`` recorded."""


def write_all(fd: int, data: "bytes | memoryview") -> None:
    """Write every byte to ``fd``, checking each ``write()``; ``OSError`` on failure or no progress."""
    view = memoryview(data)
    done = 0
    while done < len(view):
        n = os.write(fd, view[done:done + _CHUNK])
        if n <= 0:
            raise OSError(errno.EIO, f"write made no progress after {done} of {len(view)} bytes")
        done += n


def fsync(fd: int, special: bool) -> None:
    """``fsync(fd)``; devices, pipes and sockets may not support it (ignored), a regular file must."""
    try:
        os.fsync(fd)
    except OSError as exc:
        if not (special and exc.errno in (errno.EINVAL, errno.ENOTSUP, errno.EROFS, errno.EBADF)):
            raise


def _umask_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _named(exc: OSError, path: Path) -> OSError:
    """``exc`` naming the file it concerns (a failed ``write()`` names none)."""
    if exc.filename is None:
        exc.filename = str(path)
    return exc


def resolve_target(path: "str | os.PathLike[str]", *, parents: bool = False) -> "tuple[Path, os.stat_result | None]":
    """The file a write to ``path`` lands on (symlinks followed) and its ``stat`` (``None``: new file).

    Raises ``IsADirectoryError`` for a directory and ``FileNotFoundError`` for a
    missing directory unless ``parents`` (then it is created).
    """
    target = Path(os.path.realpath(os.fspath(path)))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, f"{str(path)!r} is a directory")
    if not target.parent.is_dir():
        if not parents:
            raise FileNotFoundError(errno.ENOENT, f"the output directory {str(target.parent)!r} does not exist")
        target.parent.mkdir(parents=True, exist_ok=True)
    return target, st


@contextmanager
def atomic_path(path: "str | os.PathLike[str]", *, parents: bool = False,
                new_mode: "int | None" = None) -> Iterator[Path]:
    """Yield a temporary path to write; on success it lands on ``path`` (see the module's rules).

    Parameters
    ----------
    path : path-like
        The target.
    parents : bool
        Create missing directories: only for the pipeline's own trees
        (:func:`save_raw`, :func:`save_table`, figures). By default a missing
        directory is an error, as for every path a user names.
    new_mode : int, optional
        Permission bits of a new file (default ``0o666`` minus the umask);
        ``0o600`` for output that may be plaintext.
    """
    target, st = resolve_target(path, parents=parents)
    if st is not None and not stat.S_ISREG(st.st_mode):
        # a device, FIFO or socket: write the finished bytes into it, in place
        with tempfile.TemporaryDirectory(prefix="cipherlab-") as tmpdir:
            tmp_path = Path(tmpdir) / target.name
            yield tmp_path
            try:
                fd = os.open(target, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
                try:
                    with open(tmp_path, "rb") as src:
                        while chunk := src.read(_CHUNK):
                            write_all(fd, chunk)
                    fsync(fd, special=True)
                finally:
                    os.close(fd)
            except OSError as exc:
                raise _named(exc, target)
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)  # 0600
    tmp_path = Path(tmp)
    try:
        if st is not None:
            os.fchmod(fd, stat.S_IMODE(st.st_mode))
            try:
                os.fchown(fd, st.st_uid, st.st_gid)
            except PermissionError:
                pass
        else:
            os.fchmod(fd, _umask_mode() if new_mode is None else new_mode)
        os.close(fd)
        fd = -1
        yield tmp_path
        try:
            fd = os.open(tmp_path, os.O_RDONLY)
            fsync(fd, special=False)
            os.close(fd)
            fd = -1
            os.replace(tmp_path, target)
        except OSError as exc:
            raise _named(exc, target)
    finally:
        if fd >= 0:
            os.close(fd)
        if os.path.lexists(tmp_path):
            tmp_path.unlink()
    dfd = os.open(target.parent, os.O_RDONLY)
    try:
        fsync(dfd, special=True)
    finally:
        os.close(dfd)


def write_bytes(path: "str | os.PathLike[str]", data: bytes, *, parents: bool = False,
                new_mode: "int | None" = None) -> Path:
    """Write ``data`` to ``path`` through :func:`atomic_path`, each ``write()`` checked."""
    with atomic_path(path, parents=parents, new_mode=new_mode) as tmp:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            write_all(fd, data)
        finally:
            os.close(fd)
    return Path(path)


def write_text(path: "str | os.PathLike[str]", text: str, *, parents: bool = False) -> Path:
    return write_bytes(path, text.encode("utf-8"), parents=parents)


def csv_bytes(df: pd.DataFrame) -> bytes:
    """``df`` as the project writes CSV: no index, ``\\n`` line endings, UTF-8."""
    buf = io.StringIO()
    df.to_csv(buf, index=False, lineterminator="\n")
    return buf.getvalue().encode("utf-8")


def write_csv(df: pd.DataFrame, path: "str | os.PathLike[str]", *, parents: bool = False) -> Path:
    """Write ``df`` without its index, with ``\\n`` line endings, atomically."""
    return write_bytes(path, csv_bytes(df), parents=parents)


def write_json(obj: Any, path: "str | os.PathLike[str]", *, parents: bool = False) -> Path:
    return write_text(path, json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n", parents=parents)


#: Keys :func:`save_raw` adds to a raw file's ``.meta.json``: what :func:`read_raw` checks.
RAW_ROWS, RAW_SHA256 = "raw_rows", "raw_sha256"


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
        beside the CSV as ``<experiment>.meta.json``, with the CSV's row count
        (``raw_rows``) and SHA-256 (``raw_sha256``) that :func:`read_raw` checks.
    """
    prof = as_profile(profile)
    if meta is None:
        meta = run_metadata(profile=prof.name)
    data = csv_bytes(df)
    record = {**dict(meta), RAW_ROWS: int(len(df)), RAW_SHA256: hashlib.sha256(data).hexdigest()}
    # the record first: a CSV that lands without its matching record is refused, never used
    write_json(record, prof.raw_meta(experiment), parents=True)
    return write_bytes(prof.raw_csv(experiment), data, parents=True)


def read_raw(experiment: str, profile: "str | Profile") -> pd.DataFrame:
    """The raw rows of ``experiment``, checked against the row count and SHA-256 of its ``.meta.json``.

    Raises
    ------
    RawDataError
        Naming the file and what differs (rows, digest, a missing record), e.g.
        ``data/raw/quick/maes_block.csv: 1200 rows, but its maes_block.meta.json
        recorded 2400 ...``. A file truncated or edited by hand is never used.
    """
    prof = as_profile(profile)
    path, meta_path = prof.raw_csv(experiment), prof.raw_meta(experiment)
    data = path.read_bytes()
    meta = read_raw_meta(experiment, prof)
    fix = "delete it and run the pipeline again (make reproduce measures it anew)"
    if RAW_ROWS not in meta or RAW_SHA256 not in meta:
        raise RawDataError(f"{path}: its {meta_path.name} records no row count and SHA-256 "
                           f"(written by an older cipherlab, or edited); {fix}")
    frame = pd.read_csv(io.BytesIO(data))
    digest = hashlib.sha256(data).hexdigest()
    problems = []
    if len(frame) != meta[RAW_ROWS]:
        problems.append(f"{len(frame)} rows, but {meta_path.name} recorded {meta[RAW_ROWS]}")
    if digest != meta[RAW_SHA256]:
        problems.append(f"SHA-256 {digest[:16]}..., but {meta_path.name} recorded {str(meta[RAW_SHA256])[:16]}...")
    if problems:
        raise RawDataError(f"{path}: " + "; ".join(problems) + f": the file was truncated or edited; {fix}")
    return frame


def read_raw_meta(experiment: str, profile: "str | Profile") -> dict:
    return json.loads(as_profile(profile).raw_meta(experiment).read_text())


def save_table(df: pd.DataFrame, name: str, profile: "str | Profile") -> Path:
    """Save a derived table to ``data/tables/<profile>/<name>.csv``."""
    return write_csv(df, as_profile(profile).table(name), parents=True)


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
