"""Paper 002's claim tables as data (data/paper/002_comparisons.yaml): checked once, one line naming the entry."""
from __future__ import annotations

import copy

import pytest
import yaml

from cipherlab.analysis.claims import load_claims
from cipherlab.experiments.maes import chapter, comparisons, evidence


@pytest.fixture(scope="module")
def shipped():
    return yaml.safe_load(comparisons.COMPARISONS_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def claim_ids():
    claims = load_claims()
    return set(claims.loc[claims["paper"] == "002", "claim_id"])


@pytest.fixture(scope="module")
def cells():
    return comparisons.published_cells()


def test_the_shipped_file_passes_every_check_and_names_only_claims_that_are_decided(shipped, claim_ids, cells):
    assert comparisons.check(copy.deepcopy(shipped), claim_ids, cells) == shipped
    assert comparisons.load() == shipped
    claims = load_claims().set_index("claim_id")
    for kind, entries in shipped.items():
        for cid in entries:
            assert claims.loc[cid, "rule"] != "not_testable", f"{kind}.{cid} compares cells for an untested claim"


def test_the_prose_ratios_are_the_evidence_modules_table():
    """Every claim of the file gives the evidence rows, and only those claims; the one read per approach gives
    one row per approach."""
    ratios = comparisons.prose_ratios()
    assert list(ratios) == ["002-prose-t3-consistent", "002-prose-t2-consistent", "002-prose-t1-consistent"]
    assert ratios["002-prose-t1-consistent"][2] == comparisons.ProseRatio(
        ("Table I (prose)", "Approach 2 (sha3) vs modified key expansion", "Time increase (reading)"),
        ("Table I", "Approach 2: One IV vector generation for each round", "Time (sha3)"),
        ("Table I", "Approach 2: One IV vector generation for each round", "Time (key expansion)"))
    assert [r.approach for r in ratios["002-prose-t2-consistent"]] == [1, 1, 2, 2]
    assert all(r.approach is None for cid in ("002-prose-t3-consistent", "002-prose-t1-consistent")
               for r in ratios[cid])
    rows = evidence.prose_tables_evidence("quick")
    assert list(dict.fromkeys(e.claim_id for e in rows)) == list(ratios)
    assert [e.n for e in rows if e.claim_id == "002-prose-t2-consistent"] == [2, 2]


def test_the_chapter_declares_the_file_as_an_input_so_an_edit_re_runs_it():
    assert comparisons.COMPARISONS_FILE.name in chapter.CHAPTER.paper


T3, T2, T1 = "002-prose-t3-consistent", "002-prose-t2-consistent", "002-prose-t1-consistent"


def _first(d, cid=T3):
    return d["prose_ratio"][cid]["comparisons"][0]


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["prose_ratio"].update({"002-no-such-claim": d["prose_ratio"][T3]}),
     "prose_ratio.002-no-such-claim: no such claim of paper 002 in data/paper/claims.csv"),
    (lambda d: d["prose_ratio"].update({"003-f5-gcm-over-eax-enc": d["prose_ratio"][T3]}),
     "prose_ratio: '003-f5-gcm-over-eax-enc' does not match '^002-[a-z0-9-]+$'"),
    (lambda d: _first(d)["slow"].__setitem__(1, "Original DES"),
     f"prose_ratio.{T3}.comparisons.0.slow: ['Table III', 'Original DES', 'Encryption'] is no cell of "
     "data/paper/002_*.csv"),
    (lambda d: _first(d)["prose"].__setitem__(2, "Encryption time"),
     f"prose_ratio.{T3}.comparisons.0.prose: ['Abstract (prose)', 'MAES vs AES', 'Encryption time'] is no cell of "
     "data/paper/002_*.csv"),
    (lambda d: d["prose_ratio"][T3]["comparisons"][2]["prose"].__setitem__(2, "Encryption time"),
     f"prose_ratio.{T3}.comparisons.2.prose: ['Table III (prose)', 'MAES vs Original AES', 'Encryption time'] is "
     "not a number in data/paper/002_*.csv"),
    (lambda d: _first(d)["fast"].pop(),
     f"prose_ratio.{T3}.comparisons.0.fast: ['Table III', 'Approach 2: One IV vectors generation for each round'] "
     "is too short"),
    (lambda d: _first(d).update(fast="Table III"),
     f"prose_ratio.{T3}.comparisons.0.fast: 'Table III' is not of type 'array'"),
    (lambda d: _first(d)["slow"].__setitem__(0, "Table III (prose)"),
     f"prose_ratio.{T3}.comparisons.0.slow.0: 'Table III (prose)' does not match '^Table [IVX]+$'"),
    (lambda d: _first(d).pop("slow"), f"prose_ratio.{T3}.comparisons.0: 'slow' is a required property"),
    (lambda d: d["prose_ratio"][T3].update(comparisons=[]), f"prose_ratio.{T3}.comparisons: [] should be non-empty"),
    (lambda d: _first(d)["slow"].__setitem__(0, "Table II"),
     f"prose_ratio.{T3}.comparisons.0: slow and fast are cells of two tables (Table II, Table III), not of one"),
    (lambda d: _first(d).update(approach=2),
     f"prose_ratio.{T3}.comparisons.0: names an approach, but the claim is not read one reading per approach"),
    (lambda d: _first(d, T2).pop("approach"),
     f"prose_ratio.{T2}.comparisons.0: names no approach, but the claim is read one reading per approach"),
    (lambda d: _first(d, T2).update(approach=3), f"prose_ratio.{T2}.comparisons.0.approach: 3 is not one of [1, 2]"),
    (lambda d: d["prose_ratio"][T1].update(one_reading_per="style"),
     f"prose_ratio.{T1}.one_reading_per: 'style' is not one of ['approach']"),
    (lambda d: d.update(prose_ratios={}),
     "the file: Additional properties are not allowed ('prose_ratios' was unexpected)"),
])
def test_a_bad_entry_is_one_line_naming_it(shipped, claim_ids, cells, edit, message):
    doc = copy.deepcopy(shipped)
    edit(doc)
    with pytest.raises(ValueError) as info:
        comparisons.check(doc, claim_ids, cells)
    assert str(info.value) == f"002_comparisons.yaml: {message}"
    assert "\n" not in str(info.value)


def test_an_unknown_section_is_refused():
    with pytest.raises(ValueError, match="^section must be one of prose_ratio, got 'ratio'$"):
        comparisons.section("ratio")
