"""The published values in data/paper/ (cipherlab.analysis.paper) are transcribed faithfully from ../shared/papers/.

Every CSV is in the long format of CONTRIBUTING.md, and every transcribed
``value`` appears in the text of its paper (white space normalised), except
where the row's ``note`` says why it cannot (wrapped over lines, garbled in
the copy, ...).  The cells of the 16x16 hex S-box tables are checked per
table row: each row must be printed as the row label followed by runs of its
cells (the papers print a row in up to three column groups).
"""
from __future__ import annotations

import os
import re
from functools import lru_cache

import pandas as pd
import pytest

from cipherlab.analysis import paper
from cipherlab.pipeline.paths import PAPER_DATA_DIR, PAPERS_TEXT_DIR

CSV_FILES = sorted(PAPER_DATA_DIR.glob("[0-9][0-9][0-9]_*.csv"))  # claims.csv is the claims registry, not a transcription
HEX_DIGIT = re.compile(r"^[0-9A-F]$")

# A checkout without ../shared/papers skips these; CI always has them, so there
# a missing copy fails (FileNotFoundError names the path) instead of passing silently.
pytestmark = pytest.mark.skipif(not list(PAPERS_TEXT_DIR.glob("00*_*.txt")) and not os.environ.get("CI"),
                                reason=f"the papers' text is not at {PAPERS_TEXT_DIR} (set CIPHERLAB_PAPERS)")


@lru_cache(maxsize=None)
def text(p: str) -> str:
    return paper.normalise_text(paper.paper_text(p))


def appears(value: str, p: str) -> bool:
    """``value`` occurs in paper ``p`` as a whole token (``31`` is not found inside ``131`` or ``31.5``)."""
    pattern = r"(?<![0-9A-Za-z.])" + re.escape(value) + r"(?![0-9A-Za-z]|\.\d)"
    return re.search(pattern, text(p)) is not None


def row_groups(label: str, cells: list[str], p: str) -> "list[int] | None":
    """Split a hex table row into the runs printed as ``label c_i c_i+1 ...``; None if a cell is missing."""
    groups, i = [], 0
    while i < len(cells):
        for k in range(len(cells), i, -1):
            pattern = (r"(?<![0-9A-Fa-f])" + re.escape(label) + r"\s+"
                       + r"\s+".join(map(re.escape, cells[i:k])) + r"(?![0-9A-Fa-f])")
            if re.search(pattern, text(p)):
                groups.append(k - i)
                i = k
                break
        else:
            return None
    return groups


def test_there_are_transcriptions_of_every_paper():
    assert CSV_FILES, f"no CSV in {PAPER_DATA_DIR}"
    assert {f.name[:3] for f in CSV_FILES} == set(paper.PAPERS)


@pytest.mark.parametrize("path", CSV_FILES, ids=lambda p: p.name)
def test_long_format(path):
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert tuple(df.columns) == paper.COLUMNS, f"{path.name}: columns must be exactly {paper.COLUMNS}"
    # a paper may document no misprint (its misprints file holds the header only); every other file has values
    assert len(df) or path.name.endswith("_misprints.csv"), f"{path.name} is empty"
    assert re.fullmatch(r"(000|001|002|003)_[a-z0-9_]+\.csv", path.name), path.name
    assert (df["paper"] == path.name[:3]).all(), f"{path.name}: paper column must be {path.name[:3]}"
    for col in ("table", "row", "value"):  # prose numbers may have no column
        assert (df[col].str.strip() != "").all(), f"{path.name}: empty {col!r}"
    assert (df["value"] == df["value"].str.strip()).all(), f"{path.name}: value with surrounding space"
    dup = df[df.duplicated(["table", "row", "column"], keep=False)]
    assert dup.empty, f"{path.name}: duplicated cells\n{dup}"


def _sbox_cells(df: pd.DataFrame) -> pd.Series:
    return (df["unit"] == "hex") & df["row"].str.match(HEX_DIGIT) & df["column"].str.match(HEX_DIGIT)


@pytest.mark.parametrize("path", CSV_FILES, ids=lambda p: p.name)
def test_each_value_appears_in_its_paper(path):
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    df = df[~_sbox_cells(df)]
    missing = [(r.table, r.row, r.column, r.value) for r in df.itertuples()
               if not appears(r.value, r.paper) and not r.note.strip()]
    assert not missing, (f"{path.name}: values not found in the paper's text and without a note "
                         f"saying why: {missing[:10]}")


@pytest.mark.parametrize("path", [p for p in CSV_FILES
                                  if _sbox_cells(pd.read_csv(p, dtype=str, keep_default_na=False)).any()],
                         ids=lambda p: p.name)
def test_hex_sbox_rows_appear_in_their_paper(path):
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    df = df[_sbox_cells(df)]
    for (table, label), g in df.groupby(["table", "row"], sort=False):
        g = g.assign(col=g["column"].map(lambda c: int(c, 16))).sort_values("col")
        assert list(g["col"]) == list(range(16)), f"{path.name} {table} row {label}: not 16 columns"
        groups = row_groups(label, list(g["value"]), g["paper"].iloc[0])
        ok = groups is not None and min(groups) >= 3
        assert ok or g["note"].str.strip().ne("").any(), (
            f"{path.name} {table} row {label}: {list(g['value'])} not printed in the paper (groups {groups})")


def test_the_checker_can_fail():
    """The matching is strict: a value that is not in the paper is reported."""
    assert appears("171.75", "000")
    assert not appears("171.7", "000")  # a prefix of a printed number is not a match
    assert not appears("987654.321", "000")
    assert row_groups("0", ["FF"] * 16, "000") is None


def test_corrected_reads_the_documented_misprints_and_keeps_what_was_printed(monkeypatch):
    from cipherlab.analysis import paper as P

    t1 = P.corrected("000", "Table 1").set_index(["row", "column"])
    cell = t1.loc[("1", "7")]
    assert (cell["value"], cell["printed"]) == ("BF", "BE") and "permutation" in cell["misprint"]
    assert t1.loc[("1", "8"), "misprint"] == ""                             # every other cell as printed
    t3 = P.corrected("002", "Table III").set_index(["row", "column"])        # no documented misprint: as printed
    assert (t3["misprint"] == "").all() and t3.loc[("Original AES", "Decryption"), "value"] == "253"
    real = P.published

    def stray(paper, table=None):           # a misprint naming a cell the table does not have
        df = real(paper, table)
        return df.replace({"row 1": "row 99"})
    monkeypatch.setattr(P, "published", stray)
    with pytest.raises(ValueError, match="row '99', column '7', which is not one cell"):
        P.corrected("000", "Table 1")


def test_a_claim_shows_only_the_misprints_of_the_passages_it_reads():
    """A claim whose note names its paper's misprints file is judged under the misprints of the passages its
    ``where`` names, never under another passage's (000's Table 1 cell on the S-box row, the conclusion's p-value
    on the p-value row)."""
    from cipherlab.analysis import paper as P
    from cipherlab.analysis.claims import load_claims
    claims = load_claims().set_index("claim_id", drop=False)
    sbox, pvalues = (P.misprints_applied(claims.loc[c]) for c in ("000-t1-second-sbox", "000-s8-p-values-consistent"))
    assert sbox.startswith("Table 1 row 1 column 7: read as BF") and "P-value" not in sbox
    assert pvalues.startswith("Section 8 (prose) encryption P-value") and "Table 1" not in pvalues
    assert P.misprints_applied(claims.loc["000-t2-inverse-sbox"]) == ""      # Table 2 has none documented
    # both of the p-value row's passages: the conclusion's exponent and Section 7.1's dropped digit
    assert "Section 7.1 (prose) decryption P-value AES-Rijndael vs AES-2SBox: read as 3.94442E-25" in pvalues

