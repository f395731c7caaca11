"""Paper 002's claim tables: which published numbers each claim sets against which, declared as data.

``data/paper/002_comparisons.yaml`` holds one section per kind of comparison (so far ``prose_ratio``: a ratio
the prose states against the one its own table gives); each entry names a claim of ``data/paper/claims.csv``.
:func:`load` checks the file once (the schema below, every claim id against the registry, every cell against
the published tables) and returns it; the evidence module reads it through :func:`prose_ratios` and never
types a claim id or a cell itself.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, NamedTuple

import numpy as np

from cipherlab.analysis import paper as _paper
from cipherlab.pipeline.paths import PAPER_DATA_DIR

#: The file (under ``data/paper/``) and the paper whose claims it declares.
COMPARISONS_FILE = PAPER_DATA_DIR / "002_comparisons.yaml"
PAPER = "002"

_TEXT = {"type": "string", "minLength": 1}


def _cell(table_pattern: str) -> dict:
    return {"type": "array", "minItems": 3, "maxItems": 3,
            "prefixItems": [{"type": "string", "pattern": table_pattern}, _TEXT, _TEXT]}


#: A prose cell is in a ``<where> (prose)`` table, a compared cell in a numbered table (``Table III``).
_PROSE_CELL, _TABLE_CELL = _cell(r"^.+ \(prose\)$"), _cell("^Table [IVX]+$")

#: The file's schema: one mapping per section, claim id -> that section's entry.
SCHEMA = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "prose_ratio": {
            "type": "object", "propertyNames": {"pattern": f"^{PAPER}-[a-z0-9-]+$"},
            "additionalProperties": {
                "type": "object", "required": ["comparisons"], "additionalProperties": False,
                "properties": {
                    "one_reading_per": {"enum": ["approach"]},
                    "comparisons": {"type": "array", "minItems": 1, "items": {
                        "type": "object", "required": ["prose", "slow", "fast"], "additionalProperties": False,
                        "properties": {"prose": _PROSE_CELL, "slow": _TABLE_CELL, "fast": _TABLE_CELL,
                                       "approach": {"enum": [1, 2]}}}},
                }},
        },
    },
}
SECTIONS = tuple(SCHEMA["properties"])
#: The fields of a comparison that name a published cell.
CELL_FIELDS = ("prose", "slow", "fast")


def check(document: Any, claim_ids: "set[str] | None" = None,
          cells: "Mapping[tuple[str, str, str], float] | None" = None, *, path: "str | Path" = COMPARISONS_FILE) -> dict:
    """``document`` checked against :data:`SCHEMA` and its own rules (a claim read one reading per approach names
    the approach of every comparison, and only such a claim does; ``slow`` and ``fast`` are cells of one table);
    given ``claim_ids``, every entry's claim against the registry; given ``cells`` (the published cells,
    ``(table, row, column) -> number``), every cell an entry names is one of them and a number.
    ``ValueError`` in one line naming the entry otherwise."""
    name = Path(path).name
    _paper.check_declaration(document, SCHEMA, path=path, paper=PAPER, claim_ids=claim_ids)
    for kind, entries in document.items():
        for cid, entry in (entries or {}).items():
            per = entry.get("one_reading_per")
            for i, comparison in enumerate(entry["comparisons"]):
                where = f"{name}: {kind}.{cid}.comparisons.{i}"
                if (per is None) != ("approach" not in comparison):
                    raise ValueError(f"{where}: " + ("names an approach, but the claim is not read one reading per "
                                                     "approach" if per is None else
                                                     f"names no approach, but the claim is read one reading per {per}"))
                if comparison["slow"][0] != comparison["fast"][0]:
                    raise ValueError(f"{where}: slow and fast are cells of two tables ({comparison['slow'][0]}, "
                                     f"{comparison['fast'][0]}), not of one")
                for field in CELL_FIELDS if cells is not None else ():
                    cell = tuple(comparison[field])
                    if cell not in cells:
                        raise ValueError(f"{where}.{field}: {list(cell)} is no cell of data/paper/{PAPER}_*.csv")
                    if not np.isfinite(cells[cell]):
                        raise ValueError(f"{where}.{field}: {list(cell)} is not a number in data/paper/{PAPER}_*.csv")
    return document


def published_cells() -> dict[tuple[str, str, str], float]:
    """Every published cell of paper 002, ``(table, row, column) -> number`` (NaN where not numeric)."""
    df = _paper.published(PAPER)
    return {(t, r, c): float(n) for t, r, c, n in zip(df["table"], df["row"], df["column"], df["number"])}


@lru_cache(maxsize=None)
def _load(path: Path) -> dict:
    return check(_paper.read_declaration(path), _paper.claim_ids_of(PAPER), published_cells(), path=path)


def load() -> dict:
    """The whole file, checked (cached)."""
    return _load(COMPARISONS_FILE)


def section(name: str) -> Mapping[str, dict]:
    """One section of the file: claim id -> its entry, in the file's order (empty if the file has none)."""
    return _paper.declaration_section(load(), name, SECTIONS)


class ProseRatio(NamedTuple):
    """One ratio the prose states against its table's: cells as ``(table, row, column)``; ``approach`` the MAES
    approach the comparison reads, for a claim read one reading per approach (else ``None``)."""

    prose: tuple[str, str, str]
    slow: tuple[str, str, str]
    fast: tuple[str, str, str]
    approach: "int | None" = None


def prose_ratios() -> dict[str, tuple[ProseRatio, ...]]:
    """``prose_ratio`` of the file: claim id -> its comparisons, in the file's order."""
    return {cid: tuple(ProseRatio(*(tuple(c[f]) for f in CELL_FIELDS), c.get("approach"))
                       for c in entry["comparisons"])
            for cid, entry in section("prose_ratio").items()}
