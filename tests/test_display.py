"""The book's one table renderer: formats, no truncation, no index, short views of wide tables."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from cipherlab.present.display import MISSING, format_number, show_table, table_html


@pytest.mark.parametrize("value, text", [
    (4, "4"), (4.0, "4"), (np.int64(1800), "1800"), (921600, "921\u202f600"),
    (31.927712, "31.93"), (0.123456, "0.1235"), (2.5e-5, "2.500e-5"),
    (5391448762278159360.0, "5.391e18"), (float("nan"), MISSING), (None, MISSING),
    (np.float64(7.9998), "8"), (True, "yes"), ("BE", "BE"), (float("inf"), "∞"),
    (123456.7, "123\u202f457"),
])
def test_format_number(value, text):
    assert format_number(value) == text


def test_every_cell_is_shown_without_index_or_ellipsis():
    df = pd.DataFrame({"a": range(300), "b": [f"x{i}" * 40 for i in range(300)]})
    out = table_html(df)
    assert out.count("<tr>") == 301 and "x299" * 40 in out
    assert "..." not in out and "<th" in out and out.count("<th ") == 2   # no index column


def test_a_named_index_becomes_columns_and_missing_values_show_a_dash():
    df = pd.DataFrame({"v": [1.5, np.nan]}, index=pd.Index(["p", "q"], name="row"))
    out = table_html(df)
    assert ">row<" in out and ">p<" in out and MISSING in out and "NaN" not in out


def test_column_formats_and_their_errors():
    df = pd.DataFrame({"pct": [12.345], "n": [3]})
    assert "12.3 %" in table_html(df, formats={"pct": "{:.1f} %"})
    assert ">three<" in table_html(df, formats={"n": lambda v: "three"})
    with pytest.raises(ValueError, match="not in the table"):
        table_html(df, formats={"nope": "{}"})
    with pytest.raises(ValueError, match="digits"):
        table_html(df, digits=0)


def test_html_is_escaped():
    assert "&lt;b&gt;" in table_html(pd.DataFrame({"x": ["<b>"]}))


def test_wide_tables_need_a_short_view_and_fold_the_full_table():
    df = pd.DataFrame({f"c{i}": [i] for i in range(12)})
    with pytest.raises(ValueError, match="short="):
        show_table(df)
    out = show_table(df, short=["c0", "c11"])._repr_html_()
    assert out.index("<details>") > out.index("c11")
    assert out.split("<details>")[0].count("<th ") == 2 and "12 columns" in out
    with pytest.raises(ValueError, match="not in the table"):
        show_table(df, short=["zz"])
    assert show_table(df.iloc[:, :3])._repr_html_().count("<th ") == 3
    assert format_number(7.9998, digits=5) == "7.9998"


def test_a_column_reads_in_one_notation():
    out = table_html(pd.DataFrame({"p": [8.847e-4, 0.01104, 0.5, 0.0], "q": [0.25, 1.5, 12.0, 3.0],
                                   "n": [1, 20, 300, 4000]}))
    assert ">8.847e-4<" in out and ">1.104e-2<" in out and ">5.000e-1<" in out and ">0<" in out
    assert ">0.25<" in out and ">1.5<" in out and ">12<" in out          # a column that needs none keeps none
    assert ">4000<" in out


def test_code_spans_render_as_code_and_identifiers_break_at_separators():
    out = table_html(pd.DataFrame({"parameter": ["correctness_messages"],
                                   "meaning": ["seeded by `seed`; see cipherlab.analysis.timing and a<b"]}))
    assert "correctness_<wbr>messages" in out and "`" not in out
    assert "<code>seed</code>" in out and "cipherlab.<wbr>analysis.<wbr>timing" in out and "a&lt;b" in out
    assert "0.5" in table_html(pd.DataFrame({"x": ["0.5 s"]}))         # no break inside a number
    assert ">within A/A noise, MB/s, e.g.<" in table_html(pd.DataFrame({"x": ["within A/A noise, MB/s, e.g."]}))
    assert re.sub(r"<wbr>", "", out).count("correctness_messages") == 1
