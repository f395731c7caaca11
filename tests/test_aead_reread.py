"""cipherlab.experiments.aead.reread: the claims a sentence-by-sentence re-reading of paper 003 found with no row."""
import pandas as pd
import pytest

from cipherlab.analysis import verdicts as V
from cipherlab.experiments.aead import evidence, reread

from aead_synthetic import PAPER_ORDER, SIZES, synthetic_raw


def _decide(rows, ids):
    frame = V.evidence_frame([e for e in rows if e.claim_id in ids]).assign(chapter="aead")
    mine = evidence.paper_claims()
    return V.decide_all(mine[mine["claim_id"].isin(ids)], frame).set_index("claim_id")


def test_every_reread_claim_has_a_row_and_the_synthetic_run_decides_it():
    rows = reread.reread_evidence(synthetic_raw(1, PAPER_ORDER), synthetic_raw(2, PAPER_ORDER), profile="full", seed=1)
    assert {e.claim_id for e in rows} == set(reread.CLAIMS)
    d = _decide(rows, set(reread.CLAIMS))
    expect = {"003-f7-f8-time-increases-gradually": "reproduced", "003-f4-dec-time-rises": "reproduced",
              "003-f10-blowfish-enc-dec-similar": "reproduced",
              "003-s128-gcm-block-tagged": "inconclusive", "003-s127-ccm-tag-lengths": "reproduced",
              "003-s52-2-5-times-tables": "reproduced",
              "003-s52-almost-linear-tables": "reproduced", "003-s43-valueerror-detects": "reproduced"}
    for cid, verdict in expect.items():
        assert d.loc[cid, "verdict"] == verdict, (cid, d.loc[cid, "reason"])
    # two fair readings of "each cipher text block is tagged uniquely": no tag per block, but a counter per block
    assert d.loc["003-s128-gcm-block-tagged", "outcome"] == "readings_disagree"
    assert "a tag per block" in d.loc["003-s128-gcm-block-tagged", "reason"]
    assert "a unique counter per block" in d.loc["003-s128-gcm-block-tagged", "reason"]
    assert "4, 6, 8, 10, 12, 14, 16 bytes" in d.loc["003-s127-ccm-tag-lengths", "reason"]


def test_a_time_that_falls_at_one_step_contradicts_the_gradual_rise_and_is_named():
    p2 = synthetic_raw(2, PAPER_ORDER)
    big = (p2["cipher"] == "cast") & (p2["bytes"] == SIZES[1]) & (p2["instance"] == "main")
    p2.loc[big, "seconds"] *= 8.0          # CAST's time at the second size above its time at the third
    d = _decide(reread.gradual_rise_evidence(p2, profile="full", seed=1), {"003-f7-f8-time-increases-gradually"})
    assert d.loc["003-f7-f8-time-increases-gradually", "verdict"] == "contradicted"
    assert f"size={SIZES[1]} B to {SIZES[2]} B" in d.loc["003-f7-f8-time-increases-gradually", "reading"]


def test_blowfish_decrypting_much_slower_than_it_encrypts_is_not_similar():
    p2 = synthetic_raw(2, PAPER_ORDER)
    slow = (p2["cipher"] == "blowfish") & (p2["operation"] == "decrypt") & (p2["instance"] == "main")
    p2.loc[slow, "seconds"] *= 1.4
    d = _decide(reread.enc_dec_similar_evidence(p2, profile="full", seed=1), {"003-f10-blowfish-enc-dec-similar"})
    assert d.loc["003-f10-blowfish-enc-dec-similar", "verdict"] == "contradicted"


def test_the_tables_data_size_is_read_from_their_notes():
    t = pd.DataFrame({"note": ["data size 100kb; printed with one decimal", "data size 100kb", None]})
    assert reread.table_size_mb(t) == pytest.approx(0.1)
    assert reread.table_size_mb(pd.DataFrame({"note": ["data size 5MB"]})) == 5.0
    with pytest.raises(ValueError, match="one data size"):
        reread.table_size_mb(pd.DataFrame({"note": ["data size 1MB", "data size 5MB"]}))


def test_a_library_that_accepts_a_forged_tag_contradicts_the_valueerror_sentence(monkeypatch):
    """Sec. 4.3: 'If verification yields as false (ValueError), an attack would be detected'."""
    monkeypatch.setattr(reread, "_verify", lambda *a, **k: False)     # never raises: every forged tag accepted
    rows = [e for e in reread.library_evidence(profile="full") if e.claim_id == "003-s43-valueerror-detects"]
    d = _decide(rows, {"003-s43-valueerror-detects"})
    assert d.loc["003-s43-valueerror-detects", "verdict"] == "contradicted"
    assert "0 of 3 modes" in d.loc["003-s43-valueerror-detects", "reason"]
