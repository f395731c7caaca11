"""Published values, transcribed once into ``data/paper/``.

One CSV per published table, long format: ``paper, table, row, column, value,
unit, note`` with ``value`` exactly as printed.  Chapters read published numbers
only through :func:`published` and :func:`published_value`.

Files are named ``<paper>_<table>.csv`` (one per published table, or per group of numbers quoted in prose:
``000_table3.csv``, ``003_prose_throughput.csv``), one published number per row: ``table`` and ``row``,
``column`` as the paper prints them (``Table 3``, ``Figure 5 (prose)``; ``Mean``, ``GCM``, ``0`` .. ``F``),
``value`` a string exactly as printed (a decimal, a number in E notation, a hex byte), ``unit`` (``ms``, ``us``, ``%``,
``MB/s``, ``bits``, ``hex`` or empty), ``note`` the transcription's remarks.  :func:`published` adds a numeric
``number`` column where ``value`` parses; ``tests/test_paper.py`` checks every value against the papers'
text (``CIPHERLAB_PAPERS``).  A published number never appears as a literal in code or notebooks.

**Misprints are corrected in data, never by a count** ("at least 250 of 256 cells"):
``<paper>_misprints.csv`` (one per paper, maybe its header only) holds one row per cell held to be a
misprint (table ``<Table> (misprints)``, row ``row R``, column ``column C``), the corrected ``value`` and,
in ``note``, evidence from outside the sentence the correction would certify: the table's own arithmetic (a
permutation, an inverse, sums, the other table), the other copy, the extraction's digit pattern; never the
prose a claim row then checks against it.  Without such evidence the cell stays as printed.  A claim is
judged under the corrected reading (its ``source`` names the misprint row, or its ``note`` the file; the
verdict row's ``misprint`` shows it, :func:`misprints_applied`), a table claim tolerates exactly those
cells, and evidence reads such a table through :func:`corrected`: a paper never disagrees with itself on a
cell held to be a misprint.  An editorial slip of the prose or pseudocode (a caption naming the other
operation, a label or variable its own context contradicts and fixes) is documented the same way (table
``<Passage> (misprints)``): listed in the paper's report, never a claim row of its own.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from cipherlab.pipeline.paths import PAPER_DATA_DIR, PAPERS_TEXT_DIR

PAPERS = ("000", "001", "002", "003")
COLUMNS = ("paper", "table", "row", "column", "value", "unit", "note")


def _parse_number(text: str) -> float:
    s = str(text).strip().replace(",", "").replace("%", "").replace("\u2212", "-")
    try:
        return float(s)
    except ValueError:
        return np.nan


@lru_cache(maxsize=None)
def _load_all() -> pd.DataFrame:
    frames = []
    for path in sorted(PAPER_DATA_DIR.glob("[0-9][0-9][0-9]_*.csv")):
        df = pd.read_csv(path, dtype=str, keep_default_na=False)
        missing = set(COLUMNS) - set(df.columns)
        if missing:
            raise ValueError(f"{path.name} lacks columns {sorted(missing)}; expected {COLUMNS}")
        df["source_file"] = path.name
        frames.append(df)
    if not frames:
        return pd.DataFrame(columns=list(COLUMNS) + ["source_file", "number"])
    out = pd.concat(frames, ignore_index=True)
    out["number"] = [_parse_number(v) if u != "hex" else np.nan for v, u in zip(out["value"], out["unit"])]
    return out


def all_published() -> pd.DataFrame:
    """Every transcribed value of every paper (a copy)."""
    return _load_all().copy()


def published(paper: str, table: "str | None" = None) -> pd.DataFrame:
    """Published values of one paper, optionally of one table.

    Parameters
    ----------
    paper : {"000", "001", "002", "003"}
    table : str, optional
        As the paper names it, e.g. ``"Table 3"``; case-insensitive.

    Returns
    -------
    DataFrame
        Columns ``paper, table, row, column, value, unit, note, source_file``
        and ``number`` (``value`` parsed as float where it is numeric, NaN otherwise).
    """
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {PAPERS}, got {paper!r}")
    df = _load_all()
    df = df[df["paper"] == paper]
    if table is not None:
        sel = df["table"].str.casefold() == table.casefold()
        if not sel.any():
            known = sorted(df["table"].unique())
            raise ValueError(f"table {table!r} is not transcribed for paper {paper}; known: {known}")
        df = df[sel]
    return df.reset_index(drop=True).copy()


MISPRINTS_SUFFIX = " (misprints)"


def corrected(paper: str, table: str) -> pd.DataFrame:
    """A published table with its documented misprints read as corrected (``data/paper/<paper>_misprints.csv``).

    A misprint row names the cell as table ``<table> (misprints)``, row ``row <label>``, column
    ``column <label>``; its ``value`` replaces the printed one.  The frame is :func:`published`'s with two
    columns added: ``printed`` (the value as printed) and ``misprint`` (the misprint's note where a cell was
    corrected, else empty).  A misprint row naming no cell of the table is an error, never ignored.
    """
    df = published(paper, table)
    df["printed"], df["misprint"] = df["value"], ""
    mis = published(paper)
    mis = mis[mis["table"].str.casefold() == (table + MISPRINTS_SUFFIX).casefold()]
    for r in mis.itertuples():
        row, column = r.row.removeprefix("row "), r.column.removeprefix("column ")
        sel = (df["row"] == row) & (df["column"] == column)
        if sel.sum() != 1:
            raise ValueError(f"{paper}_misprints.csv: {r.table} names row {row!r}, column {column!r}, which is not "
                             f"one cell of {table}")
        df.loc[sel, ["value", "number", "misprint"]] = [r.value, r.number, r.note]
    return df


def published_value(paper: str, table: str, row: str, column: "str | None" = None) -> float:
    """One published number, parsed as float."""
    df = published(paper, table)
    sel = df["row"] == row
    if column is not None:
        sel &= df["column"] == column
    hits = df[sel]
    if len(hits) != 1:
        raise ValueError(f"expected one value at paper {paper}, {table}, row {row!r}, column {column!r}; "
                         f"found {len(hits)}")
    return float(hits["number"].iloc[0])


def published_sbox(paper: str, table: str) -> np.ndarray:
    """A published 16x16 hex S-box table as ``uint8[256]`` (index = 16*row + column)."""
    df = published(paper, table)
    out = np.full(256, -1, dtype=np.int16)
    for r, c, v in zip(df["row"], df["column"], df["value"]):
        out[int(r, 16) * 16 + int(c, 16)] = int(v, 16)
    if (out < 0).any():
        raise ValueError(f"{paper} {table} does not hold all 256 cells")
    return out.astype(np.uint8)


def paper_text(paper: str) -> str:
    """The plain-text copy of a paper from ``../shared/papers/``."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {PAPERS}, got {paper!r}")
    hits = sorted(PAPERS_TEXT_DIR.glob(f"{paper}_*.txt"))
    if not hits:
        raise FileNotFoundError(f"no text of paper {paper} in {PAPERS_TEXT_DIR}")
    return hits[0].read_text(encoding="utf-8")


def normalise_text(text: str) -> str:
    """Collapse white space, for checking that a value appears in a paper's text."""
    return re.sub(r"\s+", " ", text)


def misprints_applied(claim) -> str:
    """The documented misprints (``data/paper/<paper>_misprints.csv``) a claim is judged under, corrected."""
    if "(misprints)" not in claim["source"] and f"{claim['paper']}_misprints.csv" not in claim["note"]:
        return ""
    df = published(claim["paper"])
    df = df[df["table"].str.endswith("(misprints)")]
    if "(misprints)" in claim["source"]:
        table, row, column = claim["source"].split("|")
        df = df[(df["table"] == table) & (df["row"] == row) & (df["column"] == column)]
    else:  # named by the note: the misprints of the passages the claim reads (its ``where``), no other
        base = df["table"].str.replace(" (misprints)", "", regex=False).str.replace(" (prose)", "", regex=False)
        df = df[[b in str(claim["where"]) for b in base]]
    return "; ".join(f"{r.table.replace(' (misprints)', '')} {r.row} {r.column}: read as {r.value} {r.unit}"
                     .replace(" :", ":").strip() + f" ({r.note})" for r in df.itertuples())



def read_declaration(path) -> Any:
    """A YAML declaration of a paper's claims under ``data/paper/`` (``<paper>_comparisons.yaml``), parsed;
    ``ValueError`` in one line naming the file if it cannot be read."""
    import yaml
    try:
        return yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"{Path(path).name}: unreadable ({exc.__class__.__name__}: {str(exc).splitlines()[0]})") \
            from None


def claim_ids_of(paper: str) -> set:
    """The claim ids of ``paper`` in the registry (``data/paper/claims.csv``)."""
    from cipherlab.analysis.claims import load_claims
    claims = load_claims()
    return set(claims.loc[claims["paper"] == paper, "claim_id"])


def check_declaration(document: Any, schema: dict, *, path, paper: str, claim_ids: "set | None" = None) -> None:
    """A declaration against ``schema`` and, given ``claim_ids``, every entry's claim (section -> claim id -> entry)
    against them: ``ValueError`` in one line naming the file and the entry otherwise. The caller checks what only it
    knows (the cases or cells an entry names)."""
    import jsonschema
    name = Path(path).name
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(document))
    if error is not None:
        where = ".".join(str(p) for p in error.absolute_path) or "the file"
        raise ValueError(f"{name}: {where}: {error.message}")
    for kind, entries in document.items():
        for cid in entries or {}:
            if claim_ids is not None and cid not in claim_ids:
                raise ValueError(f"{name}: {kind}.{cid}: no such claim of paper {paper} in data/paper/claims.csv")


def declaration_section(document: dict, name: str, sections) -> dict:
    """One section of a declaration: claim id -> its entry, in the file's order (empty if the file has none)."""
    if name not in sections:
        raise ValueError(f"section must be one of {', '.join(sections)}, got {name!r}")
    return document.get(name) or {}
