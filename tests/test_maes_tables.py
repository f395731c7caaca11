"""Tests of cipherlab.experiments.maes.tables."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cipherlab.experiments.maes import common, tables
from cipherlab.analysis.paper import published

from maes_synthetic import _synthetic_raw, _times

pytestmark = pytest.mark.usefixtures("quiet_research_warning")


def test_tables_from_a_short_measurement(short_run):
    t1 = tables.table1(short_run["maes_keyexp"])
    assert len(t1) == 2 * 9  # the control is not a row of the table; one block of rows per language
    pub1 = published("002", "Table I")
    aes_pub = pub1.loc[pub1["row"] == common.TABLE1_ROWS["aes"], "number"].iloc[0]
    assert (t1.loc[t1["operation"] == "key_expansion", "published_us"] == aes_pub).all()
    assert (t1.loc[t1["operation"] == "key_expansion", "ratio_to_aes"] == 1.0).all()
    assert t1.loc[(t1["impl"] == "numba") & (t1["operation"] != "setup"), "decides"].str.contains("002-t1").all()
    assert t1.loc[t1["operation"] == "iv_generation", "published_us"].notna().all()
    assert t1.loc[t1["operation"] == "setup", "published_us"].isna().all()
    t2 = tables.table2(short_run["maes_stage"])
    assert len(t2) == 6
    assert (t2.loc[t2["operation"] == "xor_iv", "ratio_to_xor"] == 1.0).all()
    assert np.allclose(t2["median_us_per_state"] * 16, t2["median_us"])
    # a ratio of two measured times: positive and finite, never bounded above (a loaded machine can stall
    # one call of a short measurement far longer than the batch it is compared with)
    assert (t2["dispatch_share_pct"] > 0).all() and np.isfinite(t2["dispatch_share_pct"]).all()
    assert np.allclose(t2["dispatch_share_pct"], t2["dispatch_us"] / t2["median_us"] * 100)
    t3 = tables.table3(short_run["maes_block"])
    assert len(t3) == 12 and t3["published_us"].notna().all()
    t3b = tables.table3(short_run["maes_block"], bulk=short_run["maes_bulk"])
    assert (t3b["bulk_us_per_block"] > 0).all() and t3b["median_us"].equals(t3["median_us"])
    t3_swapped = tables.table3(short_run["maes_block"], original_style="table", optimized_style="reference")
    def aes_ref(t):
        return t[(t["cipher"] == "aes") & (t["impl"] == "reference") & (t["operation"] == "encrypt")]
    assert aes_ref(t3)["published_us"].iloc[0] != aes_ref(t3_swapped)["published_us"].iloc[0]


def test_throughput_table_units():
    raw = pd.DataFrame({"cipher": "aes", "impl": "table", "mode": "ecb", "operation": "encrypt", "role": "main",
                        "bytes": 1_000_000, "trial": range(3), "seconds": [0.5, 0.5, 0.5], "run_id": "x"})
    tp = tables.throughput_table(raw).iloc[0]
    assert tp["mb_per_s"] == pytest.approx(2.0)
    assert tp["us_per_block"] == pytest.approx(0.5e6 / (1_000_000 / 16))


def test_speedup_formula_is_the_papers():
    sp = tables.speedup_table(_synthetic_raw(_times()))
    assert len(sp) == 2 * 2 * 2
    assert np.allclose(sp.loc[sp["cipher"] == "maes-1", "speedup_pct"], 200.0, atol=1.0)
    assert np.allclose(sp.loc[sp["cipher"] == "maes-2", "speedup_pct"], 100.0, atol=1.0)
    assert ((sp["low_pct"] <= sp["speedup_pct"]) & (sp["speedup_pct"] <= sp["high_pct"])).all()
    assert (sp["control_low_pct"] < 1).all() and (sp["control_high_pct"] > -1).all()  # AES against its twin: ~0
    assert set(sp["paper_aes"]) == {"original", "optimized"}
    pub = published("002", "Table III").set_index(["row", "column"])["number"]
    row = sp[(sp["impl"] == "reference") & (sp["cipher"] == "maes-2") & (sp["operation"] == "encrypt")].iloc[0]
    expected = (pub[(common.TABLE3_ROWS[("aes", "original")], "Encryption")]
                / pub[(common.TABLE3_ROWS[("maes-2", None)], "Encryption")] - 1) * 100
    assert row["published_speedup_pct"] == pytest.approx(expected)
    with pytest.raises(ValueError, match="trials"):
        tables.speed_case(_synthetic_raw(_times()), "x", {"cipher": "none"}, {}, {}, {})
