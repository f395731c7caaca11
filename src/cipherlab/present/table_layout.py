"""Tables that fit the book's text column, for the AES-2SBox and security chapters.

:func:`cipherlab.present.display.show_table` renders one table; a full table of many
wide columns (hex ciphertexts, long method names) is still wider than the
page even when folded.  :func:`fitted_table` shows the short view and folds
the full table below it cut into column groups, each repeating the key
columns, that each fit the column.  Column names are shown with spaces instead
of underscores so that headers can wrap; the values are those of the table.
"""
from __future__ import annotations

import html
from typing import Any, Mapping, Sequence

import pandas as pd

from cipherlab.present.display import Table, format_number, show_table, table_html

#: Width budget of one table, in pixels, in the book's text column (about 800 px at a 1400 px window).
PAGE_PX = 700
_CHAR_PX = 7.5      # a character at the table's 0.85em font
_PAD_PX = 24        # a cell's horizontal padding


def label(name: str) -> str:
    """A column name as a header: underscores become spaces, so that the header can wrap."""
    return str(name).replace("_", " ")


def _labelled(df: pd.DataFrame, formats: "Mapping[str, Any] | None"):
    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index()
    out = df.rename(columns={c: label(c) for c in df.columns})
    fmts = {label(k): v for k, v in (formats or {}).items()}
    return out, fmts


def column_px(df: pd.DataFrame, column: str, digits: int = 4) -> float:
    """An estimate of a column's narrowest width: its longest header word or its longest (unbreakable) cell."""
    words = [len(w) for w in str(column).split()] or [1]
    cells = [max((len(w) for w in format_number(v, digits).split()), default=1)
             if not isinstance(v, str) else max((len(w) for w in v.split()), default=1)
             for v in df[column].tolist()] or [1]
    return max(max(words), min(max(cells), 40)) * _CHAR_PX + _PAD_PX


def column_groups(df: pd.DataFrame, keys: Sequence[str], budget: float = PAGE_PX, digits: int = 4) -> list[list[str]]:
    """The non-key columns packed, in order, into groups that fit ``budget`` beside the key columns."""
    missing = [k for k in keys if k not in df.columns]
    if missing:
        raise ValueError(f"keys names columns that are not in the table: {missing}")
    base = sum(column_px(df, k, digits) for k in keys)
    groups, current, width = [], [], base
    for c in (c for c in df.columns if c not in keys):
        w = column_px(df, c, digits)
        if current and width + w > budget:
            groups.append(current)
            current, width = [], base
        current.append(c)
        width += w
    if current:
        groups.append(current)
    return groups


def fitted_table(df: pd.DataFrame, *, short: Sequence[str], keys: Sequence[str],
                 formats: "Mapping[str, Any] | None" = None, digits: int = 4, caption: "str | None" = None,
                 summary: str = "The full table") -> Table:
    """The short view of ``df`` (columns ``short``), the full table folded below it in column groups.

    ``keys`` are the columns that name a row (repeated in every group).  Every
    column of ``df`` appears in the fold; nothing is dropped or cut.
    """
    if not short:
        raise ValueError("short must name at least one column")
    bad = [c for c in list(short) + list(keys) if c not in df.columns]
    if bad:
        raise ValueError(f"short and keys must name columns of the table; not in it: {bad}")
    shown, fmts = _labelled(df, formats)
    view = show_table(shown[[label(c) for c in short]], max_columns=len(short), digits=digits, caption=caption,
                      formats={k: v for k, v in fmts.items() if k in {label(c) for c in short}})
    if set(df.columns) <= set(short):
        return view
    return Table(f"{view}{folded_groups(df, keys=keys, formats=formats, digits=digits, summary=summary)}")


def folded_groups(df: pd.DataFrame, *, keys: Sequence[str], formats: "Mapping[str, Any] | None" = None,
                  digits: int = 4, summary: str = "The full table") -> str:
    """Every column of ``df``, folded (``<details>``), in column groups that each fit the page."""
    shown, fmts = _labelled(df, formats)
    lkeys = [label(k) for k in keys]
    parts = [table_html(shown[lkeys + g], digits=digits, formats={k: v for k, v in fmts.items() if k in set(g) | set(lkeys)})
             for g in column_groups(shown, lkeys, digits=digits)]
    return (f"<details><summary>{html.escape(summary)} ({len(df.columns)} columns, {len(df)} rows)</summary>"
            + "".join(parts) + "</details>")


def narrow_table(df: pd.DataFrame, *, formats: "Mapping[str, Any] | None" = None, digits: int = 4,
                 caption: "str | None" = None) -> Table:
    """``df`` whole, with wrapping headers (for tables of at most a few columns)."""
    shown, fmts = _labelled(df, formats)
    return show_table(shown, max_columns=max(len(shown.columns), 1), formats=fmts, digits=digits, caption=caption)
