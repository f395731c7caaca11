"""Paper 003's claim tables as data (data/paper/003_comparisons.yaml): checked once, one line naming the entry."""
from __future__ import annotations

import copy

import pytest
import yaml

from cipherlab.analysis.claims import load_claims
from cipherlab.experiments.aead import chapter, comparisons, evidence, protocol
from cipherlab.experiments.aead.measure import CIPHERS, MODES

CASES = {1: MODES, 2: CIPHERS, "forgery": MODES}


@pytest.fixture(scope="module")
def shipped():
    return yaml.safe_load(comparisons.COMPARISONS_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def claim_ids():
    claims = load_claims()
    return set(claims.loc[claims["paper"] == "003", "claim_id"])


def test_the_shipped_file_passes_every_check_and_names_only_claims_that_are_decided(shipped, claim_ids):
    assert comparisons.check(copy.deepcopy(shipped), claim_ids, CASES) == shipped
    claims = load_claims().set_index("claim_id")
    for kind, entries in shipped.items():
        for cid in entries:
            assert claims.loc[cid, "rule"] != "not_testable", f"{kind}.{cid} compares cases for an untested claim"


def test_the_sections_are_the_evidence_modules_tables(shipped):
    assert list(evidence.ORDER_CLAIMS) == list(shipped["order"])
    assert evidence.ORDER_CLAIMS["003-s6-gcm-fastest-reject"] == ("forgery", "verify_random_tag",
                                                                 [("gcm", "ccm"), ("gcm", "eax")])
    assert evidence.RATIO_CLAIMS["003-f9-aes-over-cast-enc"][5] == [
        ("Figure 9 (prose)", "CAST", "encryption throughput range low"),
        ("Figure 9 (prose)", "CAST", "encryption throughput range high")]
    assert protocol.STEP_CLAIMS == ("003-f5-tp-rises-enc", "003-f6-tp-rises-dec")
    assert protocol.EVERY_STEP_CLAIMS == ("003-f5-tp-rises-enc",)


def test_the_chapter_declares_the_file_as_an_input_so_an_edit_re_runs_it():
    assert comparisons.COMPARISONS_FILE.name in chapter.CHAPTER.paper


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["order"]["003-t1-gcm-fastest-enc"].update(phase=3),
     "order.003-t1-gcm-fastest-enc.phase: 3 is not one of [1, 2, 'forgery']"),
    (lambda d: d["order"].update({"003-no-such-claim": d["order"]["003-t1-gcm-fastest-enc"]}),
     "order.003-no-such-claim: no such claim of paper 003 in data/paper/claims.csv"),
    (lambda d: d["level"]["003-f9-blowfish-flat-enc"].update(cipher="gcm"),
     "level.003-f9-blowfish-flat-enc.cipher: 'gcm' is not a case of phase 2 (one of aes, blowfish, cast)"),
    (lambda d: d["order"]["003-t1-gcm-fastest-enc"].update(pairs=[["gcm", "aes"]]),
     "order.003-t1-gcm-fastest-enc.pairs: 'aes' is not a case of phase 1 (one of gcm, ccm, eax)"),
    (lambda d: d["ratio"]["003-f5-gcm-over-eax-enc"].pop("quantity"),
     "ratio.003-f5-gcm-over-eax-enc: 'quantity' is a required property"),
    (lambda d: d.update(orders={}), "the file: Additional properties are not allowed ('orders' was unexpected)"),
    (lambda d: d["cold"]["003-f5-tp-rises-enc"].update(steps="some"),
     "cold.003-f5-tp-rises-enc.steps: 'some' is not one of ['shown', 'every']"),
])
def test_a_bad_entry_is_one_line_naming_it(shipped, claim_ids, edit, message):
    doc = copy.deepcopy(shipped)
    edit(doc)
    with pytest.raises(ValueError) as info:
        comparisons.check(doc, claim_ids, CASES)
    assert str(info.value) == f"003_comparisons.yaml: {message}"


def test_an_unreadable_file_is_one_line(tmp_path):
    """The reader both papers' declarations share (analysis.paper.read_declaration)."""
    bad = tmp_path / "003_comparisons.yaml"
    bad.write_text("order: [unclosed\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^003_comparisons.yaml: unreadable \(\w+: [^\n]*\)$"):
        comparisons._load(bad)


def test_an_unknown_section_is_refused():
    with pytest.raises(ValueError, match="^section must be one of order, table_order, ratio"):
        comparisons.section("orders")
