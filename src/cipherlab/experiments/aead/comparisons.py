"""Paper 003's claim tables: which measured cases each claim compares, declared as data.

``data/paper/003_comparisons.yaml`` holds one section per kind of comparison (orderings, ratios of
quoted numbers, gains with size, levels, the paper's protocol, stability); each entry names a claim of
``data/paper/claims.csv``.  :func:`load` checks the file once (the schema below, then every claim id
against the registry) and returns it; the evidence modules read their section through :func:`section`
and never type a claim id themselves.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping


from cipherlab.analysis import paper as _paper
from cipherlab.pipeline.paths import PAPER_DATA_DIR

#: The file (under ``data/paper/``) and the paper whose claims it declares.
COMPARISONS_FILE = PAPER_DATA_DIR / "003_comparisons.yaml"
PAPER = "003"

_NAME = {"type": "string", "pattern": "^[a-z0-9]+$"}
_NAMES = {"type": "array", "items": _NAME, "minItems": 1, "uniqueItems": True}
_PHASE = {"enum": [1, 2, "forgery"]}
_OPERATION = {"enum": ["encrypt", "decrypt", "verify_random_tag"]}
_CELL = {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 3, "maxItems": 3}
_CELLS = {"type": "array", "items": _CELL}


def _entry(required: dict, optional: "dict | None" = None) -> dict:
    return {"type": "object", "required": sorted(required), "additionalProperties": False,
            "properties": {**required, **(optional or {})}}


#: The file's schema: one mapping per section, claim id -> that section's entry.
SCHEMA = {
    "type": "object", "additionalProperties": False,
    "properties": {name: {"type": "object", "propertyNames": {"pattern": f"^{PAPER}-[a-z0-9-]+$"},
                          "additionalProperties": entry}
                   for name, entry in {
        "order": _entry({"phase": _PHASE, "operation": _OPERATION,
                         "pairs": {"type": "array", "minItems": 1,
                                   "items": {"type": "array", "items": _NAME, "minItems": 2, "maxItems": 2}}}),
        "table_order": _entry({"table": {"type": "string", "pattern": "^Table [0-9]+$"},
                               "forgery_size": {"type": "integer", "minimum": 0}}),
        "ratio": _entry({"phase": _PHASE, "operation": _OPERATION, "faster": _NAME, "slower": _NAME,
                         "numerator": {**_CELLS, "minItems": 1}, "denominator": _CELLS,
                         "quantity": {"enum": ["time", "rate", "times"]}}),
        "growth": _entry({"phase": {"enum": [1, 2]}, "operation": _OPERATION, "cases": _NAMES}),
        "convergence": _entry({"phase": {"enum": [1, 2]}, "cases": _NAMES}),
        "level": _entry({"operation": _OPERATION, "cipher": _NAME, "start": {"enum": ["level", "smallest"]}}),
        "rise": _entry({"operation": _OPERATION, "cipher": _NAME, "start": {**_CELLS, "minItems": 1},
                        "end": {**_CELLS, "minItems": 1}, "until": {"enum": ["level", "largest"]}}),
        "gain": _entry({"phase": {"enum": [1, 2]}, "operation": _OPERATION, "case": _NAME, "over": _NAMES}),
        "time_rise": _entry({"phase": {"enum": [1, 2]}, "cases": _NAMES,
                             "readings": {"type": "array", "minItems": 1,
                                          "items": {"type": "array", "minItems": 2, "maxItems": 2,
                                                    "prefixItems": [_OPERATION, {"type": "string",
                                                                                 "pattern": "^fig[0-9]+$"}]}}}),
        "cold": _entry({"phase": {"enum": [1, 2]}, "operation": _OPERATION, "cases": _NAMES,
                        "until": {"enum": ["level", "largest"]}},
                       {"steps": {"enum": ["shown", "every"]}}),
        "stability": _entry({"steadier": _NAME, "than": _NAMES,
                             "operations": {"type": "array", "items": _OPERATION, "minItems": 1,
                                            "uniqueItems": True}}),
    }.items()},
}
SECTIONS = tuple(SCHEMA["properties"])


#: The fields that name measured cases, and the phase whose cases they name when the entry has no ``phase``
#: (``level`` and ``rise`` are phase 2's ciphers, ``stability`` phase 1's modes).
_CASE_FIELDS = ("pairs", "faster", "slower", "cases", "case", "over", "cipher", "steadier", "than")
_PHASE_OF = {"level": 2, "rise": 2, "stability": 1}


def _names(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [n for v in value for n in _names(v)]


def check(document: Any, claim_ids: "set[str] | None" = None, cases: "Mapping[Any, tuple] | None" = None, *,
          path: "str | Path" = COMPARISONS_FILE) -> dict:
    """``document`` checked against :data:`SCHEMA`; given ``claim_ids``, every entry's claim against the registry;
    given ``cases`` (phase -> the names it measures), every case an entry names against its phase's.
    ``ValueError`` in one line naming the entry otherwise."""
    name = Path(path).name
    _paper.check_declaration(document, SCHEMA, path=path, paper=PAPER, claim_ids=claim_ids)
    for kind, entries in document.items():
        for cid, entry in (entries or {}).items():
            if cases is None:
                continue
            phase = entry.get("phase", _PHASE_OF.get(kind))
            allowed = cases.get(phase, ())
            for field in _CASE_FIELDS:
                for case in _names(entry.get(field, ())):
                    if case not in allowed:
                        raise ValueError(f"{name}: {kind}.{cid}.{field}: {case!r} is not a case of phase {phase} "
                                         f"(one of {', '.join(allowed)})")
    return document


@lru_cache(maxsize=None)
def _load(path: Path) -> dict:
    from cipherlab.experiments.aead.measure import CIPHERS, MODES
    return check(_paper.read_declaration(path), _paper.claim_ids_of(PAPER), {1: MODES, 2: CIPHERS, "forgery": MODES},
                 path=path)


def load() -> dict:
    """The whole file, checked (cached)."""
    return _load(COMPARISONS_FILE)


def section(name: str) -> Mapping[str, dict]:
    """One section of the file: claim id -> its entry, in the file's order (empty if the file has none)."""
    return _paper.declaration_section(load(), name, SECTIONS)


def cells(entry_cells) -> list[tuple[str, str, str]]:
    """Published cells as (table, row, column) tuples."""
    return [tuple(c) for c in entry_cells]
