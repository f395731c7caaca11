"""Paper 003's worded tables (Tables 1-4 by a rule), ratios and prose numbers (aead.tables)."""
import pandas as pd
import pytest

from cipherlab.analysis import paper
from cipherlab.experiments.aead import evidence, tables

from aead_synthetic import synthetic_summary


def test_ranking_rule_names_the_clear_order():
    s = synthetic_summary({"gcm": 1000.0, "ccm": 300.0, "eax": 250.0}, "mode", spreads={"gcm": 0.01})
    r = tables.ranking_table(s, "mode")
    fastest = r[(r["table"] == "Table 1") & (r["row"] == "Fastest") & (r["column"] == "Encryption")].iloc[0]
    slowest = r[(r["table"] == "Table 1") & (r["row"] == "Slowest") & (r["column"] == "Decryption")].iloc[0]
    assert fastest["detail"] == "gcm" and "every size" in fastest["ours"]
    assert slowest["detail"] == "eax" and "every size" in slowest["ours"]
    ranks = r[(r["table"] == "Table 2") & (r["row"] == "Throughput Encryption")].set_index("column")["rank"]
    assert ranks.to_dict() == {"GCM": 1, "CCM": 2, "EAX": 3}
    words = r[(r["table"] == "Table 2") & (r["row"] == "Throughput Encryption")].set_index("column")["ours"]
    assert words["GCM"] == "Highest & Most Stable"
    growth = r[(r["table"] == "Table 1") & (r["row"] == "Gradual Behavior")].iloc[0]
    assert growth["detail"] == "gcm=linear;ccm=linear;eax=linear"
    # an affine time (fixed cost + per-byte cost) is still "linear"
    s_aff = s.copy()
    s_aff["median_s"] = s_aff["median_s"] + 2e-4
    g = tables.ranking_table(s_aff, "mode")
    assert g[g["row"] == "Gradual Behavior"].iloc[0]["detail"] == "gcm=linear;ccm=linear;eax=linear"
    pub = pd.concat([paper.published("003", f"Table {i}") for i in (1, 2)], ignore_index=True)
    beside = tables.ranking_beside_paper(r, pub)
    assert "agrees" not in beside.columns  # the engine decides, not the wording table
    known = set(evidence.paper_claims()["claim_id"])
    for ids in beside["claim_id"]:
        assert ids and all(c in known for c in ids.split(", "))
    fast = beside[(beside["row"] == "Fastest Mode") & (beside["column"] == "Decryption")].iloc[0]
    assert fast["claim_id"] == "003-t1-gcm-fastest-dec" and "GCM" in fast["ours"]


def test_ranking_rule_detects_disagreement_and_mixed_orders():
    # EAX faster than CCM at every size: our wording says so beside the paper's.
    s = synthetic_summary({"gcm": 1000.0, "ccm": 200.0, "eax": 300.0}, "mode", spreads={"gcm": 0.01})
    r = tables.ranking_table(s, "mode")
    beside = tables.ranking_beside_paper(r, paper.published("003", "Table 2"))
    rows = beside[(beside["row"] == "Throughput Encryption")].set_index("column")["ours"]
    assert rows["GCM Mode"].startswith("Highest") and rows["CCM Mode"] == "Lowest" and rows["EAX Mode"] == "Medium"
    # CCM ahead of EAX at one size only: the wording counts the sizes.
    s = synthetic_summary({"gcm": 1000.0, "ccm": [300.0, 200.0, 200.0], "eax": 250.0}, "mode")
    r = tables.ranking_table(s, "mode")
    slowest = r[(r["row"] == "Slowest") & (r["column"] == "Encryption")].iloc[0]
    assert slowest["detail"] == "ccm" and "2 of 3" in slowest["ours"]


def test_ranking_rule_names_superlinear_growth_and_cipher_words():
    s = synthetic_summary({"aes": 400.0, "blowfish": 60.0, "cast": 50.0}, "cipher", slope=1.5)
    r = tables.ranking_table(s, "cipher")
    assert "super-linear" in r[(r["table"] == "Table 3") & (r["row"] == "Gradual Behavior")].iloc[0]["ours"]
    s_sub = synthetic_summary({"aes": 400.0, "blowfish": 60.0, "cast": 50.0}, "cipher", slope=0.5)
    r_sub = tables.ranking_table(s_sub, "cipher")
    assert "sub-linear" in r_sub[(r_sub["table"] == "Table 3") & (r_sub["row"] == "Gradual Behavior")].iloc[0]["ours"]
    words = r[(r["table"] == "Table 4") & (r["row"] == "Throughput Decryption")].set_index("column")["ours"]
    assert words["AES"].startswith("Fastest") and words["Blowfish"].startswith("Medium")
    assert words["CAST"].startswith("Slowest")
    beside = tables.ranking_beside_paper(r, paper.published("003", "Table 4"))
    assert set(beside["claim_id"]) == {"003-t4-order-enc", "003-t4-order-dec", "003-t4-general-words"}
    assert beside[beside["column"] == "general evaluation"].iloc[0]["ours"].startswith("overall rank 1")


def test_prose_comparison_reads_every_quoted_number_and_says_where_it_was_measured():
    s1 = synthetic_summary({"gcm": 1200.0, "ccm": 300.0, "eax": 250.0}, "mode",
                  sizes=(100_000, 500_000, 1_000_000, 3_000_000, 5_000_000))
    s2 = synthetic_summary({"aes": 400.0, "blowfish": 60.0, "cast": 48.0}, "cipher",
                  sizes=(100_000, 500_000, 1_000_000, 3_000_000, 5_000_000))
    prose = pd.concat([paper.published("003", f"Figure {i} (prose)") for i in (5, 7, 8, 9, 10)], ignore_index=True)
    cmp_ = tables.prose_comparison(s1, s2, prose)
    assert len(cmp_) == len(prose)
    gcm = cmp_[cmp_["row"] == "GCM"].iloc[0]
    assert gcm["measured_at"] == "5000000 B" and float(gcm["ours"]) == pytest.approx(1200.0)
    small = tables.prose_comparison(synthetic_summary({"gcm": 100.0, "ccm": 30.0, "eax": 25.0}, "mode",
                                           sizes=(1000, 16_000)), s2, prose)
    assert small[small["row"] == "GCM"].iloc[0]["measured_at"] == "16000 B"  # the quick size, said so
    assert "within_tolerance" not in cmp_.columns
