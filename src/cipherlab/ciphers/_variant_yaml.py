"""Reading a variant file: strict YAML, its schema, its table files (:func:`cipherlab.ciphers.variant_files.load_variant`).

Only a small regular file is read (:func:`cipherlab._files.read_regular_text`: a FIFO, a device, a
socket, a directory or a file over the cap of its kind is refused in one line). The YAML is read
strictly (:class:`StrictLoader`: no anchors or aliases, no duplicate keys, bounded nesting). Every
error is one line naming the file and the key (``ValueError`` from the callers).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import jsonschema
import numpy as np
import yaml

from cipherlab._files import read_regular_text

#: Limits of a variant file and of a table file it names (bytes), and of a description's nesting (levels):
#: a description is a few lines, a table 256 hex bytes with comments.
MAX_VARIANT_BYTES, MAX_TABLE_BYTES, MAX_DEPTH = 256 * 1024, 64 * 1024, 16

#: The schema of a description: package data beside this module, so an installed wheel loads variants too
#: (the layers above reach the same file as ``cipherlab.pipeline.paths.VARIANT_SCHEMA``).
SCHEMA_FILE = Path(__file__).resolve().parent / "schemas" / "variant.schema.yaml"


@lru_cache(maxsize=1)
def validator():
    schema = yaml.safe_load(SCHEMA_FILE.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    # an integer is an int, not a float with no fraction (``key_bytes: 16.0``, ``seed: 99.0``)
    strict = cls.TYPE_CHECKER.redefine("integer", lambda _, v: isinstance(v, int) and not isinstance(v, bool))
    return jsonschema.validators.extend(cls, type_checker=strict)(schema)


class StrictLoader(yaml.SafeLoader):
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


def yaml_message(e: yaml.YAMLError) -> str:
    """A YAML error on one line: the problem and where."""
    problem = getattr(e, "problem", None) or str(e).splitlines()[0]
    mark = getattr(e, "problem_mark", None)
    return f"{problem} (line {mark.line + 1}, column {mark.column + 1})" if mark else problem


def schema_message(error) -> str:
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


def read_table(where: str, key: str, file: Path) -> np.ndarray:
    label = f"{where}: key {key!r}: table file {file}"
    text = read_regular_text(file, MAX_TABLE_BYTES, label)
    values = []
    for i, token in enumerate(re.sub(r"#[^\n]*", " ", text).replace(",", " ").split()):
        if not re.fullmatch(r"(0[xX])?[0-9A-Fa-f]{1,2}", token):  # the file's content is not echoed
            raise ValueError(f"{label}: entry {i + 1} is not a hex byte (00..FF)")
        values.append(int(token, 16))
    if len(values) != 256:
        raise ValueError(f"{label} must hold 256 hex bytes, holds {len(values)}")
    counts = np.bincount(values, minlength=256)
    if (counts != 1).any():
        twice, missing = np.flatnonzero(counts > 1), np.flatnonzero(counts == 0)
        raise ValueError(f"{label} is not a permutation of 0..255: {len(twice)} value(s) repeated (first "
                         f"0x{twice[0]:02X}), {len(missing)} missing (first 0x{missing[0]:02X})")
    return np.array(values, dtype=np.uint8)
