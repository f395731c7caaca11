"""The one table renderer of the book: every table a chapter shows goes through :func:`show_table`.

No index column, padded cells, numbers formatted per column (significant
digits, integers as integers, huge or tiny numbers in scientific notation, one
notation per column), ``—`` for a missing value, and never a truncated cell or an
elided row or column.  Text cells show `code` spans as code and let long
identifiers break only at their separators (``_``, ``.``, ``/``).  A
table wider than ``max_columns`` shows a short view (the columns named in
``short``) with the full table folded below it.
"""
from __future__ import annotations

import html
import math
import numbers
import re
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

MISSING = "—"
_CELL = "padding:0.25em 0.7em;border-bottom:1px solid #ddd;vertical-align:top;"
_HEAD = _CELL + "border-bottom:2px solid #999;text-align:left;"


def format_number(x: Any, digits: int = 4, scientific: "bool | None" = None) -> str:
    """One number as the book prints it.

    Integers (and integral floats below 2^53) print as integers; other floats
    with ``digits`` significant digits; magnitudes from 10^9 up, or below 10^-3,
    in scientific notation (``scientific=True``: every non-integral float, so that a
    column reads in one notation; see :func:`needs_scientific`); NaN, None and
    infinities as they are (``—`` for missing).
    """
    if x is None or (isinstance(x, float) and math.isnan(x)) or x is pd.NA or x is pd.NaT:
        return MISSING
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, numbers.Integral):
        return _int(int(x), digits)
    if isinstance(x, numbers.Real):
        v = float(x)
        if math.isinf(v):
            return "∞" if v > 0 else "−∞"
        if v.is_integer() and abs(v) < 2 ** 53 and abs(v) < 1e9:
            return _int(int(v), digits)
        a = abs(v)
        if a >= 1e9 or (0 < a < 1e-3) or scientific:
            mant, exp = f"{v:.{max(digits - 1, 0)}e}".split("e")
            return f"{mant}e{int(exp)}"
        if a >= 10 ** digits:
            return _int(int(round(v)), digits)
        return f"{v:.{digits}g}"
    return str(x)


def _int(v: int, digits: int = 4) -> str:
    if abs(v) >= 1e9:
        mant, exp = f"{v:.{max(digits - 1, 0)}e}".split("e")
        return f"{mant}e{int(exp)}"
    return f"{v:,}".replace(",", "\u202f") if abs(v) >= 100_000 else str(v)


def needs_scientific(values) -> bool:
    """Whether a column's non-integral floats print in scientific notation: when any of them must
    (a magnitude from 10^9 up or below 10^-3), all of them do, so that no column mixes ``8.847e-4``
    with ``0.01104``."""
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real) or isinstance(v, numbers.Integral):
            continue
        f = float(v)
        if math.isfinite(f) and not (f.is_integer() and abs(f) < 1e9) and (abs(f) >= 1e9 or 0 < abs(f) < 1e-3):
            return True
    return False


def _formatter(spec, digits: int, scientific: bool = False) -> Callable[[Any], str]:
    if spec is None:
        return lambda v: format_number(v, digits, scientific or None)
    if callable(spec):
        return lambda v: MISSING if _missing(v) else str(spec(v))
    if isinstance(spec, str):
        return lambda v: MISSING if _missing(v) else spec.format(v)
    raise ValueError(f"a column format must be a format string or a callable, got {type(spec).__name__}")


def _missing(v) -> bool:
    try:
        return v is None or bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


_CODE_SPAN = re.compile(r"`([^`]+)`")
#: Where a long identifier may break: after an underscore, or a dot or slash between two words
#: (``correctness_<wbr>messages``, ``cipherlab.<wbr>analysis``), never inside a word nor in ``A/A`` or ``MB/s``.
_BREAK_AFTER = re.compile(r"(_|(?<=[A-Za-z]{2})[./](?=[A-Za-z]{2}))")


def text_html(text: str) -> str:
    """A text cell as HTML: escaped, `code` spans as ``<code>``, identifiers breakable at their separators."""
    escaped = html.escape(str(text))
    if escaped.count("`") >= 2:
        escaped = _CODE_SPAN.sub(lambda m: f"<code>{m.group(1)}</code>", escaped)
    return _BREAK_AFTER.sub(lambda m: m.group(1) + "<wbr>", escaped)


def table_html(df: pd.DataFrame, *, formats: "Mapping[str, Any] | None" = None, digits: int = 4,
               caption: "str | None" = None) -> str:
    """``df`` as an HTML table (no index, every cell shown, formatted per column)."""
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    if not isinstance(digits, int) or not 1 <= digits <= 15:
        raise ValueError(f"digits must be an integer in 1..15, got {digits!r}")
    formats = dict(formats or {})
    unknown = sorted(set(formats) - set(map(str, df.columns)))
    if unknown:
        raise ValueError(f"formats names columns that are not in the table: {unknown}")
    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index()
    cols = [str(c) for c in df.columns]
    fmts = [_formatter(formats.get(c), digits, needs_scientific(df.iloc[:, i].tolist()))
            for i, c in enumerate(cols)]
    numeric = [pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) for c in df.columns]
    head = "".join(f'<th style="{_HEAD}">{text_html(c)}</th>' for c in cols)
    body = []
    for row in df.itertuples(index=False, name=None):
        cells = []
        for v, fmt, num in zip(row, fmts, numeric):
            align = "text-align:right;white-space:nowrap;" if num else ""
            shown = fmt(v)
            cells.append(f'<td style="{_CELL}{align}">{text_html(shown) if isinstance(v, str) else html.escape(shown)}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    cap = f'<caption style="caption-side:top;text-align:left;font-weight:bold">{html.escape(caption)}</caption>' \
        if caption else ""
    return (f'<table class="cipherlab-table" style="border-collapse:collapse;font-size:0.85em;margin:0.5em 0">'
            f"{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


class Table:
    """A rendered table: Jupyter shows its HTML; ``str()`` gives the same HTML."""

    def __init__(self, markup: str) -> None:
        self.markup = markup

    def _repr_html_(self) -> str:
        return self.markup

    def __str__(self) -> str:
        return self.markup


def show_table(df: pd.DataFrame, *, short: "Sequence[str] | None" = None, max_columns: int = 8,
               formats: "Mapping[str, Any] | None" = None, digits: int = 4, caption: "str | None" = None,
               summary: str = "The full table") -> Table:
    """Render ``df`` for the book.

    Parameters
    ----------
    df : DataFrame
        The table; a non-default index becomes columns.
    short : sequence of str, optional
        The columns of the short view (e.g. condition, published, ours, verdict),
        shown when the table has more than ``max_columns`` columns; the full
        table is folded below it.  A wide table without ``short`` is an error,
        so that nothing runs off the page unnoticed.
    max_columns : int
        The widest table shown whole.
    formats : mapping, optional
        Per-column format: a ``str.format`` pattern (``"{:.1f} %"``) or a callable.
    digits : int
        Significant digits of floats without a format.
    caption : str, optional
    summary : str
        Text of the fold's toggle.
    """
    if not isinstance(max_columns, int) or max_columns < 1:
        raise ValueError(f"max_columns must be an integer >= 1, got {max_columns!r}")
    width = len(df.columns) + (0 if isinstance(df.index, pd.RangeIndex) else df.index.nlevels)
    full = table_html(df, formats=formats, digits=digits, caption=None if width > max_columns else caption)
    if width <= max_columns:
        return Table(full)
    if not short:
        raise ValueError(f"the table has {width} columns (> max_columns={max_columns}): name the columns of "
                         f"its short view with short=[...]; columns: {list(map(str, df.columns))}")
    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index()
    missing = [c for c in short if c not in df.columns]
    if missing:
        raise ValueError(f"short names columns that are not in the table: {missing}")
    view = table_html(df[list(short)], formats={k: v for k, v in (formats or {}).items() if k in short},
                      digits=digits, caption=caption)
    folded = (f'<details><summary>{html.escape(summary)} ({width} columns)</summary>'
              f'<div style="overflow-x:auto">{full}</div></details>')
    return Table(view + folded)
