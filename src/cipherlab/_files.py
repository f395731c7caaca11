"""Reading a file a user names without hanging or filling memory; imports nothing of cipherlab.

Only a regular file is read: a FIFO (which would block until a writer comes), a device
(``/dev/zero`` reads forever), a socket or a directory is refused with one line, and so is a
file larger than the cap its kind allows. The file is opened without blocking and checked on
the open descriptor, so it cannot be swapped between the check and the read. Used for a
variant file and its table files (:mod:`cipherlab.ciphers._variant_yaml`) and for
``cipherlab encrypt --key-file``.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["read_regular_text", "file_kind"]


def file_kind(mode: int) -> str:
    """What ``st_mode`` is, in words (``a FIFO``, ``a character device``, ...)."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def read_regular_text(path: "str | os.PathLike[str]", cap: int, label: str) -> str:
    """The UTF-8 text of the regular file ``path`` of at most ``cap`` bytes; else ``ValueError`` in one
    line beginning with ``label`` (what the file is, e.g. ``"variant file x.yaml"``)."""
    try:
        fd = os.open(Path(path), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        try:   # a socket cannot be opened at all: say what it is
            mode = os.stat(path).st_mode
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise ValueError(f"{label} must be a regular file, got {file_kind(mode)}") from None
        raise ValueError(f"{label} cannot be read ({type(e).__name__}: {e.strerror or e})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{label} must be a regular file, got {file_kind(st.st_mode)}")
        if st.st_size > cap:
            raise ValueError(f"{label} is {st.st_size} bytes; at most {cap} are read for a file of this kind")
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(fd, cap + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > cap:   # it grew while being read
            raise ValueError(f"{label} is more than {cap} bytes; at most {cap} are read for a file of this kind")
    except OSError as e:
        raise ValueError(f"{label} cannot be read ({type(e).__name__}: {e.strerror or e})") from None
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{label} is not UTF-8 text (byte {e.start})") from None
