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
* a path naming one of this process's open descriptors (``/dev/stdout``,
  ``/dev/stderr``, ``/dev/fd/N``, ``/proc/self/fd/N``) is written through that
  descriptor: ``>>file`` keeps what the file held, a pipe works
  (:func:`descriptor_of`);
* a directory (and an empty path) is refused (``IsADirectoryError``, ``FileNotFoundError``);
* a missing directory is created only when the caller asks (``parents=True``:
  the pipeline's own trees); otherwise it is refused (``FileNotFoundError``),
  as the command line does for every path a user names.

Every ``write()`` and ``fsync()`` is checked; failures raise ``OSError``.

Raw data proves it is whole and where it came from: every raw file is written by
:func:`write_raw` (the pipeline's through :func:`save_raw`), which records the
experiment and profile, and the CSV's row count and SHA-256 (``raw_rows``,
``raw_sha256``) in its ``.meta.json`` beside the run's provenance (parameters,
seed, commit); and read by :func:`check_raw_file` (:func:`read_raw`,
:func:`check_raw`), which refuses a file whose rows or digest differ (truncated,
edited by hand), whose record is another experiment's or profile's, or whose
parameters differ from the run's, naming the file and what differs in one line
(:class:`RawDataError`). The commit is reported, not checked
(:attr:`RawRecord.commit`): a shipped run may come from another commit.
"""
from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import re
import stat
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

import pandas as pd

from cipherlab._files import file_kind
from cipherlab.pipeline.paths import Profile, as_profile
from cipherlab.pipeline.provenance import run_metadata

#: Bytes per write(2) call; each call's result is checked.
_CHUNK = 1 << 20


class RawDataError(ValueError):
    """A raw file is not whole (rows, SHA-256), not of the experiment, profile or parameters expected, or
    its ``.meta.json`` record is missing or corrupt: one line naming the file and what differs."""


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


#: A path that names one of this process's open descriptors: /dev/stdout, /dev/fd/3, /proc/self/fd/1, ...
_DESCRIPTOR_PATH = re.compile(r"^/dev/(?P<std>stdin|stdout|stderr)$|^/dev/fd/(?P<dev>\d+)$"
                              r"|^/proc/(?:self|thread-self|(?P<pid>\d+))/fd/(?P<proc>\d+)$")
_STD_FDS = {"stdin": 0, "stdout": 1, "stderr": 2}


def descriptor_of(path: "str | os.PathLike[str]") -> "int | None":
    """The descriptor of this process that ``path`` names (``/dev/stdout``: 1, ``/dev/fd/N``, ``/proc/self/fd/N``,
    directly or through symlinks), or None. Writing to such a path means writing to the descriptor (a shell's
    ``>>file`` appends, a pipe stays a pipe), never replacing the file behind it."""
    current = os.path.abspath(os.fspath(path))
    for _ in range(40):   # symlinks, one at a time (a loop ends here)
        match = _DESCRIPTOR_PATH.match(current)
        if match:
            if match["pid"] is not None and int(match["pid"]) != os.getpid():
                return None
            return _STD_FDS[match["std"]] if match["std"] else int(match["dev"] or match["proc"])
        try:
            link = os.readlink(current)
        except OSError:
            return None
        current = os.path.normpath(os.path.join(os.path.dirname(current), link))
    return None


def resolve_target(path: "str | os.PathLike[str]", *, parents: bool = False) -> "tuple[Path, os.stat_result | None]":
    """The file a write to ``path`` lands on (symlinks followed) and its ``stat`` (``None``: new file); for a
    path naming an open descriptor (:func:`descriptor_of`), the descriptor's ``stat``.

    Raises ``FileNotFoundError`` for an empty path, ``OSError`` (``EBADF``) for a descriptor that is not open,
    ``IsADirectoryError`` for a directory and ``FileNotFoundError`` for a missing directory unless ``parents``
    (then it is created).
    """
    if not os.fspath(path):
        raise FileNotFoundError(errno.ENOENT, "an empty path names no file")
    fd = descriptor_of(path)
    if fd is not None:
        try:
            return Path(os.fspath(path)), os.fstat(fd)
        except OSError:
            raise OSError(errno.EBADF, f"{os.fspath(path)} names descriptor {fd}, which is not open") from None
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
    fd = descriptor_of(path)
    if fd is not None:
        # an open descriptor (/dev/stdout, /dev/fd/N): the finished bytes are written to it, where it stands
        with tempfile.TemporaryDirectory(prefix="cipherlab-") as tmpdir:
            tmp_path = Path(tmpdir) / "output"
            yield tmp_path
            for stream in (sys.stdout, sys.stderr):   # what Python buffered for the descriptor goes first
                if stream is not None and not stream.closed:
                    stream.flush()
            try:
                with open(tmp_path, "rb") as src:
                    while chunk := src.read(_CHUNK):
                        write_all(fd, chunk)
                fsync(fd, special=True)
            except OSError as exc:
                raise _named(exc, target)
        return
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


#: Keys the raw writer adds to a raw file's ``.meta.json``: what the raw reader checks.
RAW_ROWS, RAW_SHA256, RAW_EXPERIMENT, RAW_PROFILE = "raw_rows", "raw_sha256", "experiment", "profile"
_RAW_FIX = "delete it and run the pipeline again (make reproduce measures it anew)"


def write_raw(df: pd.DataFrame, csv_path: "str | os.PathLike[str]", meta_path: "str | os.PathLike[str]",
              record: Mapping[str, Any], *, parents: bool = False) -> Path:
    """The one writer of raw data: ``df`` as CSV at ``csv_path`` and ``record`` (which must name its
    ``experiment`` and ``profile``) with the CSV's row count and SHA-256 at ``meta_path``.

    The record is written first: a CSV that lands without its matching record is refused, never used.
    """
    missing = [k for k in (RAW_EXPERIMENT, RAW_PROFILE) if not isinstance(record.get(k), str) or not record[k]]
    if missing:
        raise ValueError(f"a raw file's record must name its {' and '.join(missing)}, got {dict(record)!r:.200}")
    data = csv_bytes(df)
    full = {**dict(record), RAW_ROWS: int(len(df)), RAW_SHA256: hashlib.sha256(data).hexdigest()}
    write_json(full, meta_path, parents=parents)
    return write_bytes(csv_path, data, parents=parents)


def save_raw(df: pd.DataFrame, experiment: str, profile: "str | Profile",
             meta: "Mapping[str, Any] | None" = None) -> Path:
    """Save raw per-trial measurements and their provenance record (through :func:`write_raw`).

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
        beside the CSV as ``<experiment>.meta.json``, with the experiment and profile it belongs
        to and the CSV's row count (``raw_rows``) and SHA-256 (``raw_sha256``), which
        :func:`read_raw` checks.
    """
    prof = as_profile(profile)
    if meta is None:
        meta = run_metadata(profile=prof.name)
    if meta.get(RAW_PROFILE, prof.name) != prof.name:
        raise ValueError(f"raw file {experiment!r} of profile {prof.name!r}: its record says profile "
                         f"{meta[RAW_PROFILE]!r}")
    record = {**dict(meta), RAW_EXPERIMENT: experiment, RAW_PROFILE: prof.name}
    return write_raw(df, prof.raw_csv(experiment), prof.raw_meta(experiment), record, parents=True)


@dataclass(frozen=True)
class RawRecord:
    """A raw file checked whole and of the right origin: its rows, its provenance record and their paths."""

    frame: pd.DataFrame
    meta: dict
    path: Path
    meta_path: Path

    @property
    def commit(self) -> str:
        """The commit the record was measured at (``git_commit``; ``+dirty`` when the tree had changes)."""
        return str(self.meta.get("git_commit", "not recorded"))


def _show(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _differences(expected: Mapping[str, Any], recorded: Mapping[str, Any], prefix: str = "") -> list[str]:
    """``key: recorded X, this run Y`` for each expected key whose recorded value differs (JSON values
    compared, so a tuple equals its list); a mapping is compared key by key, both ways."""
    out = []
    for key in expected:
        want = json.loads(json.dumps(expected[key], default=str))
        name = f"{prefix}{key}"
        if key not in recorded:
            out.append(f"{name}: not recorded, this run {_show(want)}")
            continue
        got = recorded[key]
        if isinstance(want, dict) and isinstance(got, dict):
            out += _differences(want, got, f"{name}.")
            out += [f"{name}.{k}: recorded {_show(got[k])}, not a parameter of this run" for k in got if k not in want]
        elif got != want:
            out.append(f"{name}: recorded {_show(got)}, this run {_show(want)}")
    return out


def _regular(path: Path, what: str) -> None:
    """``RawDataError`` unless ``path`` is a regular file (a FIFO or a device would block or never end)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return   # missing or unreadable: the read below says so
    if not stat.S_ISREG(mode):
        raise RawDataError(f"{path}: {what} must be a regular file, got {file_kind(mode)}; {_RAW_FIX}")


def _load_record(meta_path: Path, csv_path: Path) -> dict:
    _regular(meta_path, "a provenance record")
    try:
        text = meta_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RawDataError(f"{csv_path}: its provenance record {meta_path.name} is missing; {_RAW_FIX}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RawDataError(f"{meta_path}: unreadable ({exc.__class__.__name__}); {_RAW_FIX}") from None
    try:
        meta = json.loads(text)
    except ValueError as exc:
        raise RawDataError(f"{meta_path}: not valid JSON ({exc}); {_RAW_FIX}") from None
    if not isinstance(meta, dict):
        raise RawDataError(f"{meta_path}: must hold a JSON object, got {type(meta).__name__}; {_RAW_FIX}")
    return meta


def check_raw_file(csv_path: "str | os.PathLike[str]", meta_path: "str | os.PathLike[str]", *, experiment: str,
                   profile: "str | None" = None, expected: "Mapping[str, Any] | None" = None) -> RawRecord:
    """The one reader of raw data: the CSV and its record, checked, or :class:`RawDataError` in one line.

    Checked, in this order: the record exists and is a JSON object; it is the record of ``experiment``
    (and of ``profile``, when given); every key of ``expected`` (e.g. ``{"seed": 7, "config": {...}}``,
    the run's resolved parameters) has the recorded value, a mapping key by key (the line names each
    that differs); the CSV's row count and SHA-256 equal the recorded ones. The commit the record was
    measured at is not checked (a shipped run may come from another commit): :attr:`RawRecord.commit`.
    """
    path, meta_path = Path(csv_path), Path(meta_path)
    meta = _load_record(meta_path, path)
    origin = [f"is the record of {key} {meta[key]!r}, not {want!r}" if key in meta else
              f"records no {key} (written by an older cipherlab, or edited)"
              for key, want in ((RAW_EXPERIMENT, experiment), (RAW_PROFILE, profile))
              if want is not None and meta.get(key) != want]
    if origin:
        raise RawDataError(f"{path}: its {meta_path.name} {' and '.join(origin)}; {_RAW_FIX}")
    if expected:
        differ = _differences(expected, meta)
        if differ:
            raise RawDataError(f"{path}: measured with other parameters than this run's ({'; '.join(differ)}); "
                               f"{_RAW_FIX}, or run with the parameters it was measured with")
    rows, digest = meta.get(RAW_ROWS), meta.get(RAW_SHA256)
    if rows is None or digest is None:
        raise RawDataError(f"{path}: its {meta_path.name} records no row count and SHA-256 "
                           f"(written by an older cipherlab, or edited); {_RAW_FIX}")
    if not isinstance(rows, int) or isinstance(rows, bool) or rows < 0 or not isinstance(digest, str):
        raise RawDataError(f"{path}: its {meta_path.name} records {RAW_ROWS} {rows!r} and {RAW_SHA256} "
                           f"{_show(digest)}: a whole number and a hex digest were written (the record was edited); "
                           f"{_RAW_FIX}")
    _regular(path, "a raw file")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise RawDataError(f"{path}: missing (its record {meta_path.name} is there); {_RAW_FIX}") from None
    except OSError as exc:
        raise RawDataError(f"{path}: unreadable ({exc.strerror or exc}); {_RAW_FIX}") from None
    problems = []
    got_digest = hashlib.sha256(data).hexdigest()
    try:
        frame = pd.read_csv(io.BytesIO(data))
    except (ValueError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        frame = None
        problems.append(f"not a readable CSV ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})")
    if frame is not None and len(frame) != rows:
        problems.append(f"{len(frame)} rows, but {meta_path.name} recorded {rows}")
    if got_digest != digest:
        problems.append(f"SHA-256 {got_digest[:16]}..., but {meta_path.name} recorded {digest[:16]}...")
    if problems or frame is None:
        raise RawDataError(f"{path}: " + "; ".join(problems) + f": the file was truncated or edited; {_RAW_FIX}")
    return RawRecord(frame=frame, meta=meta, path=path, meta_path=meta_path)


def check_raw(experiment: str, profile: "str | Profile", *, expected: "Mapping[str, Any] | None" = None,
              directory: "str | os.PathLike[str] | None" = None) -> RawRecord:
    """The raw file of ``experiment`` in ``profile`` (``data/raw/<profile>/``, or ``directory``, e.g. a
    shipped run's), checked by :func:`check_raw_file`: whole, its record that of this experiment and
    profile, measured with the ``expected`` parameters."""
    prof = as_profile(profile)
    if directory is None:
        csv_path, meta_path = prof.raw_csv(experiment), prof.raw_meta(experiment)
    else:
        csv_path, meta_path = Path(directory) / f"{experiment}.csv", Path(directory) / f"{experiment}.meta.json"
    return check_raw_file(csv_path, meta_path, experiment=experiment, profile=prof.name, expected=expected)


def read_raw(experiment: str, profile: "str | Profile", *, expected: "Mapping[str, Any] | None" = None,
             directory: "str | os.PathLike[str] | None" = None) -> pd.DataFrame:
    """The raw rows of ``experiment``, checked (:func:`check_raw`).

    Raises
    ------
    RawDataError
        In one line, naming the file and what differs (rows, digest, experiment, profile, a parameter,
        a missing or corrupt record), e.g. ``data/raw/quick/maes_block.csv: 1200 rows, but its
        maes_block.meta.json recorded 2400 ...``. A file truncated, edited by hand, of another
        experiment or profile, or measured with other parameters is never used.
    """
    return check_raw(experiment, profile, expected=expected, directory=directory).frame


def read_raw_meta(experiment: str, profile: "str | Profile") -> dict:
    """The provenance record of a raw file (a JSON object), or :class:`RawDataError` in one line."""
    prof = as_profile(profile)
    return _load_record(prof.raw_meta(experiment), prof.raw_csv(experiment))


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
