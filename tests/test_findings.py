"""The findings page (cipherlab.report.findings): what is the same for every paper (verdict counts, the
overview, each chapter's section around its own paragraphs, the links), loud failure on a missing table
or column, the per-paper coverage table, and the book copy's parameters cell.  Each chapter's own
paragraphs are tested beside it (tests/test_<chapter>_findings.py)."""
from __future__ import annotations

import json
import re

import nbformat
import pandas as pd
import pytest

from cipherlab.report import findings as F
from cipherlab.pipeline import paths
from cipherlab.report.notebook import tidy_for_book

# --------------------------------------------------------------------------- synthetic tables


def verdict_rows(paper: str, verdicts: dict[str, int], kind: str = "value") -> pd.DataFrame:
    rows = [{"claim_id": f"{paper}-c{v.replace(' ', '')}{i}", "paper": paper, "kind": kind, "verdict": v,
             "section": "s", "shown": v, "reason": f"reason {i}.", "tier": "", "concern": ""}
            for v, n in verdicts.items() for i in range(n)]
    return pd.DataFrame(rows, columns=list(dict.fromkeys([*F.VERDICT_COLUMNS, "shown", "reason", "tier", "concern"])))


from findings_tables import ATTACK, SBOX, SPEED  # noqa: E402  (shared with the chapters' findings tests)


# --------------------------------------------------------------------------- verdict counts


@pytest.mark.parametrize("counts, expected", [
    ({}, "No claim of paper 000 was decided in this run."),
    ({"reproduced": 1}, "The one claim of paper 000 we test was reproduced."),
    ({"contradicted": 4}, "All 4 claims of paper 000 we test were contradicted."),
    ({"reproduced": 1, "contradicted": 2},
     "Of the 3 claims of paper 000 we test, 1 was reproduced and 2 contradicted."),
    ({"reproduced": 8, "not reproduced": 2, "contradicted": 6, "inconclusive": 1},
     "Of the 17 claims of paper 000 we test, 8 were reproduced, 2 not reproduced, 6 contradicted "
     "and 1 inconclusive."),
    ({"not testable": 2, "finding": 1},
     "All 2 claims of paper 000 we test were not testable. Our own experiments add 1 finding, "
     "not counted among them."),
    ({"finding": 3}, "No claim of paper 000 was decided in this run. Our own experiments add 3 findings, "
                     "not counted among them."),
])
def test_verdict_sentence_in_every_count_case(counts, expected):
    frame = verdict_rows("000", counts)
    assert F.verdict_sentence(F.verdict_counts(frame, "000"), "000") == expected


def test_verdict_counts_ignore_other_papers_and_reject_unknown_verdicts():
    frame = pd.concat([verdict_rows("000", {"reproduced": 2}), verdict_rows("001", {"contradicted": 5})])
    assert F.verdict_counts(frame, "000")["reproduced"] == 2
    assert F.verdict_counts(frame, "000")["contradicted"] == 0
    with pytest.raises(F.FindingsError, match="unknown verdict"):
        F.verdict_counts(verdict_rows("000", {"refuted": 1}), "000")


def test_overview_counts_claims_not_findings():
    frame = pd.concat([verdict_rows("000", {"reproduced": 2, "finding": 4}), verdict_rows("003", {"contradicted": 1})])
    text = F.overview_markdown({"verdicts": frame})
    assert text.startswith("This run tested 3 claims of 2 papers: 2 reproduced and 1 contradicted.")
    assert "By tier: Untiered claims (3): 2 reproduced, 1 contradicted." in text
    tiered = frame.assign(tier=["headline", "supporting"] + [""] * 4 + ["headline"])
    assert "Headline claims (2): 1 reproduced, 1 contradicted. Supporting checks (1): 1 reproduced." \
        in F.overview_markdown({"verdicts": tiered})


# --------------------------------------------------------------------------- a chapter's section


def test_a_section_is_the_counts_then_the_chapters_paragraphs_then_the_links():
    from cipherlab.pipeline import chapters
    verdicts = pd.concat([verdict_rows(p, {"reproduced": 1}) for p in ("000", "001", "002")]
                         + [verdict_rows("003", {"contradicted": 1}, kind="ordering")])
    tables = {"verdicts": verdicts, "security_sbox_properties": SBOX, "security_attack": ATTACK,
              "aes2sbox_speedup": pd.concat([SPEED, SPEED.assign(paper="001")], ignore_index=True)}
    aes2sbox = chapters.load().chapter("aes2sbox")
    built = ["aes2sbox", "security"]
    parts = F.section_parts(aes2sbox, tables, built)
    assert parts[0] == ("**Paper 000.** Untiered claims (1): 1 reproduced. "
                        "**Paper 001.** Untiered claims (1): 1 reproduced.")
    assert parts[-1] == ("Details: the [aes2sbox chapter](aes2sbox.html) and the "
                         "[security chapter](security.html).")
    own = [p for p in aes2sbox.findings(tables) if isinstance(p, str)]
    assert [p for p in parts[1:-1] if isinstance(p, str)] == own and own
    assert F.heading(aes2sbox) == "AES-2SBox: papers 000 and 001"
    # a chapter whose tables were not built: said, not invented
    maes = F.section_markdown(chapters.load().chapter("maes"), tables, built)
    assert "*(The maes chapter was not built in this run.)*" in maes
    assert "the maes chapter (not built in this run)" in maes
    with pytest.raises(F.FindingsError, match="verdicts table is required"):
        F.section_markdown(aes2sbox, {}, built)


def test_only_chapters_that_declare_papers_write_a_section_in_reading_order():
    from cipherlab.pipeline import chapters
    names = chapters.names()
    assert [c.name for c in F.writers(names)] == [c.name for c in chapters.load().chapters if c.papers]
    assert [c.name for c in F.writers(["aead"])] == ["aead"]
    assert F.writers([]) == []


# --------------------------------------------------------------------------- loud failures


def test_a_missing_column_is_named():
    with pytest.raises(F.FindingsError, match=r"security_attack.*lacks column\(s\) \['bytes_recovered'\]"):
        F.check_table("security_attack", ATTACK.drop(columns="bytes_recovered"))
    with pytest.raises(F.FindingsError, match="no chapter reads table 'maes_table9'"):
        F.check_table("maes_table9", ATTACK)


def test_a_missing_table_is_named(tmp_path, monkeypatch):
    prof = paths.Profile("quick")
    monkeypatch.setattr(type(prof), "tables", property(lambda self: tmp_path))
    verdict_rows("000", {"reproduced": 1}).to_csv(tmp_path / "verdicts.csv", index=False)
    assert set(F.load_tables(prof, [])) == {"verdicts"}          # no chapter: only the verdicts
    assert set(F.load_tables(prof, ["security"])) == {"verdicts"}   # it writes no section of its own
    SPEED.to_csv(tmp_path / "aes2sbox_speedup.csv", index=False)
    with pytest.raises(F.FindingsError, match="table 'security_sbox_properties' .security chapter. is missing"):
        F.load_tables(prof, ["aes2sbox", "security"])
    SBOX.drop(columns="nonlinearity").to_csv(tmp_path / "security_sbox_properties.csv", index=False)
    ATTACK.to_csv(tmp_path / "security_attack.csv", index=False)
    with pytest.raises(F.FindingsError, match="lacks column.*nonlinearity"):
        F.load_tables(prof, ["aes2sbox", "security"])


def test_tables_for_follows_the_chapters():
    from cipherlab.pipeline import chapters
    assert F.tables_for([]) == ["verdicts"]
    assert set(F.tables_for(["aead"])) == {"verdicts"} | set(chapters.load().chapter("aead").findings_tables)
    # a table of a chapter that was not built is not read (its section says so)
    assert "security_attack" not in F.tables_for(["aes2sbox", "maes"])
    every = {t for c in chapters.load().chapters for t in c.findings_tables} | {"verdicts"}
    assert set(F.tables_for(chapters.names())) == every


# --------------------------------------------------------------------------- coverage


def _labels(chapter: str) -> set[str]:
    nb = nbformat.read(paths.NOTEBOOKS_DIR / f"{chapter}.ipynb", as_version=4)
    return {m for c in nb.cells if c.cell_type == "markdown"
            for m in re.findall(r"^\(([\w-]+)\)=\s*$", c.source, flags=re.M)}


def test_every_coverage_where_is_a_label_of_its_chapter():
    cov = F.load_coverage()
    assert set(cov["paper"]) == {"000", "001", "002", "003"}
    assert not cov.duplicated(["paper", "item"]).any()
    for r in cov.itertuples():
        if r.rebuilt == "no":
            assert r.where == "" and r.note, f"{r.paper} {r.item}: not rebuilt needs a reason and no place"
            continue
        m = re.fullmatch(r"([a-z0-9_]+)\.html#([\w-]+)", r.where)
        assert m, f"{r.paper} {r.item}: where must be <chapter>.html#<label>, got {r.where!r}"
        assert m.group(2) in _labels(m.group(1)), f"{r.paper} {r.item}: no label ({m.group(2)})= in {m.group(1)}"


_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10}


def _ref(kind: str, number: str) -> tuple[str, int]:
    kind = "table" if kind.lower().startswith("tab") else ("eq" if kind.lower().startswith("eq") else "figure")
    return kind, int(number) if number.isdigit() else _ROMAN[number.upper()]


def named_in_text(text: str) -> set[tuple[str, int]]:
    """Every table, figure and numbered equation a paper's text names."""
    refs = {_ref(k, n) for k, n in re.findall(r"\b(table|fig\.?|figure)\s*(\d+|[IVX]+)\b", text, flags=re.I)}
    refs |= {("eq", int(n)) for n in re.findall(r"\\quad\s*\((\d+)\)", text)}
    return refs


def test_named_in_text_parser():
    text = "see Table 3, TABLE IV, Fig. 12 and figure 8; $$x \\quad (2)$$ and table I11 (garbled)"
    assert named_in_text(text) == {("table", 3), ("table", 4), ("figure", 12), ("figure", 8), ("eq", 2)}


@pytest.mark.skipif(not list(paths.PAPERS_TEXT_DIR.glob("00*_*.txt")), reason="the papers' text is not here")
@pytest.mark.parametrize("paper", ["000", "001", "002", "003"])
def test_every_table_and_figure_of_the_paper_has_a_coverage_row(paper):
    text = next(paths.PAPERS_TEXT_DIR.glob(f"{paper}_*.txt")).read_text(encoding="utf-8")
    cov = F.load_coverage()
    rows = set()
    for item in cov.loc[cov["paper"] == paper, "item"]:
        m = re.match(r"(Table|Figure|Eq\.)\s*(\d+|[IVX]+)\b", item)
        assert m, f"coverage item {item!r} is not 'Table N', 'Figure N' or 'Eq. N'"
        rows.add(_ref(m.group(1), m.group(2)))
    missing = named_in_text(text) - rows
    assert not missing, f"paper {paper} names {sorted(missing)} but coverage.csv has no row for them"
    assert rows - named_in_text(text) == set(), f"coverage rows of paper {paper} the text never names"


def test_coverage_is_not_a_transcription():
    # cipherlab.analysis.paper loads <digit><digit><digit>_*.csv as published values; coverage.csv must not match
    assert not re.match(r"\d{3}_", F.COVERAGE_FILE.name)


# --------------------------------------------------------------------------- parameters cell in the book


def _executed(injected: "str | None"):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# t"),
                nbformat.v4.new_code_cell('profile = "quick"\nseed = 0', metadata={"tags": ["parameters"]})]
    if injected is not None:
        nb.cells.append(nbformat.v4.new_code_cell(injected, metadata={"tags": ["injected-parameters"]}))
    nb.cells.append(nbformat.v4.new_code_cell("print(seed)"))
    return nb


def test_parameters_cell_shows_the_injected_values():
    nb = _executed('# Parameters\nprofile = "full"\nseed = 20261122\n')
    tidy_for_book(nb)
    params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1 and params[0].source == 'profile = "full"\nseed = 20261122'
    assert "seed = 0" not in json.dumps(nbformat.writes(nb))
    assert not any("injected-parameters" in c.metadata.get("tags", []) for c in nb.cells)
    assert params[0].metadata["tags"] == ["parameters", "hide-input"]
    assert [c.source for c in nb.cells][-1] == "print(seed)" and len(nb.cells) == 3


def test_parameters_cell_without_injection_keeps_the_defaults_that_ran():
    nb = _executed(None)
    tidy_for_book(nb)
    assert nb.cells[1].source == 'profile = "quick"\nseed = 0'
    assert "hide-input" in nb.cells[1].metadata["tags"]


def test_the_findings_page_names_the_method_concerns_behind_a_papers_grade():
    """A row marked concern: method that weighs (any verdict but reproduced) is said on the findings page, as in
    the report's main concerns; a reproduced one, or another paper's, is not."""
    rows = verdict_rows("003", {"not testable": 1, "reproduced": 2})
    rows = rows.assign(concern=["method", "method", ""], quantity="whether the method decides it",
                       detail="0 of 2160 random tags accepted (a count that cannot tell a 128-bit tag from a 16-bit one)")
    text = F.method_concerns(rows, "003")
    assert text.startswith("**Paper 003: the method concerns behind its grade**") and "report_003.html" in text
    assert "003-cnottestable0" in text and "003-creproduced0" not in text
    assert "0 of 2160 random tags accepted" in text and "16-bit" not in text   # the long aside is the verdict page's
    assert F.method_concerns(rows, "000") == "" and F.method_concerns(rows.assign(concern=""), "003") == ""
