"""Reading a variant file (:mod:`cipherlab.ciphers.described`) and the table files it names, safely.

Only a regular file is read: a FIFO (which would block until a writer comes), a device
(``/dev/zero`` reads forever), a socket or a directory is refused with one line, and so is a
file larger than the cap its kind allows. The file is opened without blocking and checked on
the open descriptor, so it cannot be swapped between the check and the read. The YAML is read
strictly (:class:`_StrictLoader`: no anchors or aliases, no duplicate keys, bounded nesting), and
every problem is said in one line (:func:`_yaml_message`, :func:`_schema_message`).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import yaml

__all__ = ["read_regular_text", "file_kind", "MAX_VARIANT_BYTES", "MAX_TABLE_BYTES", "MAX_DEPTH"]


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


#: Limits of a variant file and of a table file it names (bytes), and of a description's nesting (levels):
#: a description is a few lines, a table 256 hex bytes with comments.
MAX_VARIANT_BYTES, MAX_TABLE_BYTES, MAX_DEPTH = 256 * 1024, 64 * 1024, 16


class _StrictLoader(yaml.SafeLoader):
    """YAML as a variant file may use it: no anchors or aliases (an alias bomb never expands), no duplicate keys,
    at most :data:`MAX_DEPTH` levels of nesting (a deeper document is refused before it is composed)."""

    _depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            mark = event.start_mark
            raise yaml.constructor.ConstructorError(
                None, None, f"anchors and aliases (&{event.anchor}, *{event.anchor}) are not allowed in a "
                "variant file; write each value out", mark)
        if self._depth >= MAX_DEPTH:
            raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                                              event.start_mark)
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is given twice (lines {seen[key] + 1} and "
                    f"{key_node.start_mark.line + 1})", key_node.start_mark)
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


def _yaml_message(e: yaml.YAMLError) -> str:
    """A YAML error on one line: the problem and where."""
    problem = getattr(e, "problem", None) or str(e).splitlines()[0]
    mark = getattr(e, "problem_mark", None)
    return f"{problem} (line {mark.line + 1}, column {mark.column + 1})" if mark else problem


def _schema_message(error) -> str:
    key = ".".join(str(p) for p in error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = tuple(error.schema.get("properties", {}))
        unknown = sorted(map(str, set(error.instance) - set(allowed)))
        names = ", ".join(repr(f"{key}.{u}" if key else u)[:80] for u in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        return f"unknown key {names}{more} (allowed here: {', '.join(allowed)})"
    if isinstance(error.instance, float) and error.validator in ("type", "anyOf", "oneOf"):
        return f"key {key!r}: must be an integer, got {error.instance!r}"
    return f"key {key!r}: {error.message}" if key else error.message
