"""No text that the data did not write: a number in a notebook's own markdown must come from the run.

A markdown cell is written by hand, so a result stated there would not follow
the data.  Every number in an executed notebook's markdown cells must either
appear in one of that run's tables, or be part of a name: a table, figure,
paper, standard, cipher or section reference ("Table 5", "SP 800-22",
"AES-128", "paper 002"), code or math.
"""
from __future__ import annotations

import re

import nbformat
import pandas as pd
import pytest

from cipherlab.pipeline import paths
pytestmark = pytest.mark.pipeline

PROFILE = paths.Profile("quick")

#: Words after which a number names something instead of stating a result.
NAMING_WORDS = (
    "table", "tables", "figure", "figures", "fig", "figs", "paper", "papers", "section", "sections", "eq", "eqs",
    "equation", "equations", "sp", "fips", "approach", "approaches", "appendix", "round", "rounds", "chapter",
    "step", "steps", "algorithm", "ref", "version", "python", "rfc", "iso", "page", "pages", "line", "lines",
    "issue", "phase", "phases",
)
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w])")


def _strip_code_and_math(text: str) -> str:
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    text = re.sub(r"\$[^$]*\$", " ", text)
    text = re.sub(r"\(([\w-]+)\)=", " ", text)               # MyST labels
    text = re.sub(r"\{(doc|ref|numref)\}`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)                  # link targets
    return text


def stated_numbers(markdown: str) -> list[str]:
    """Numbers in markdown that are not part of a name (a reference, an identifier, code or math)."""
    text = _strip_code_and_math(markdown)
    out = []
    for m in _NUMBER.finditer(text):
        before = text[:m.start()]
        word = re.search(r"([A-Za-z]+)[\s.\-–]*(?:[IVX]+\s*)?$", before)
        if re.search(r"[A-Za-z][-/]$", before) or re.search(r"\d[-–]$", before):
            continue       # AES-128, SHA3-256, MAES-1, 800-22, 11-13
        if word and word.group(1).lower() in NAMING_WORDS:
            continue
        if re.fullmatch(r"(19|20)\d\d", m.group(1)):
            continue       # a year, in a citation
        out.append(m.group(1))
    return out


def _table_numbers(tables_dir) -> set[str]:
    found: set[str] = set()
    for path in sorted(tables_dir.glob("*.csv")):
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        for col in frame.columns:
            found.update(_NUMBER.findall(str(col)))
            for cell in frame[col]:
                found.update(_NUMBER.findall(cell))
                try:
                    v = float(cell)
                except ValueError:
                    continue
                found.update({f"{v:g}", f"{v:.0f}", f"{v:.1f}", f"{v:.2f}", f"{v:.3g}", f"{v:.4g}"})
    return found


@pytest.mark.parametrize("text, stated", [
    ("Table 5 and Figures 11-13 of paper 002, SP 800-22, AES-128, MAES-1", []),
    ("the speedup is 23 %, and 7.9 bits", ["23", "7.9"]),
    ("`trials: 20` and $2^{128}$ and (maes-table3)=", []),
    ("Wenceslao, IJNCAA, 2015", []),
])
def test_stated_numbers(text, stated):
    assert stated_numbers(text) == stated


def test_markdown_cells_state_no_number_the_run_did_not_write(quick_tree):
    known = _table_numbers(quick_tree.at(PROFILE.tables))
    unexplained = []
    for nb_path in sorted(quick_tree.at(PROFILE.notebooks).glob("*.ipynb")):
        if nb_path.name.endswith(".failed.ipynb"):
            continue
        nb = nbformat.read(nb_path, as_version=4)
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "markdown":
                continue
            for number in stated_numbers(cell.source):
                if number not in known:
                    unexplained.append(f"{nb_path.name} cell {i}: {number!r} in {cell.source[:90]!r}")
    assert not unexplained, ("numbers written by hand in markdown cells (render them from the run's tables, "
                             "or remove them):\n" + "\n".join(unexplained[:50]))
