"""Tests of cipherlab.experiments.aes2sbox.tables."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cipherlab.analysis import paper
from cipherlab.experiments.aes2sbox import tables

from aes2sbox_synthetic import _fake_raw

pytestmark = pytest.mark.filterwarnings("ignore::cipherlab.InsecureCipherWarning")


def test_welch_side_by_side_uses_the_trials_in_ms():
    from scipy import stats

    old, new = [10.0, 12.0, 11.0, 13.0], [5.0, 6.0, 5.5, 7.0]
    side = tables.welch_side_by_side(_fake_raw(old, new), "000", "encrypt", "table")
    assert side.loc["Mean", "ours AES-Rijndael"] == pytest.approx(np.mean(old))
    assert side.loc["Variance", "ours AES-2SBox"] == pytest.approx(np.var(new, ddof=1))
    assert side.loc["t Stat", "ours AES-Rijndael"] == pytest.approx(stats.ttest_ind(old, new, equal_var=False).statistic)
    assert side.loc["Mean", "published AES-Rijndael"] == paper.published("000", "Table 3").query(
        "row == 'Mean' and column == 'AES-Rijndael'")["value"].item()



def test_welch_side_by_side_refuses_a_paper_or_operation_in_one_line():
    """Its chapter callers pass only what the raw timings hold; a direct caller's bad value is named here."""
    raw = _fake_raw([10.0, 12.0, 11.0], [5.0, 6.0, 5.5])
    with pytest.raises(ValueError, match=r"^paper must be one of \('000', '001'\), got '002'$"):
        tables.welch_side_by_side(raw, "002", "encrypt", "table")
    with pytest.raises(ValueError, match=r"^operation must be one of \('encrypt', 'decrypt'\), got 'sign'$"):
        tables.welch_side_by_side(raw, "000", "sign", "table")


def test_speed_table_uses_the_declared_statistic_and_shows_the_control():
    from cipherlab.analysis import stats, verdicts
    rng = np.random.default_rng(1)
    old = list(10.0 + rng.random(40))
    new = list(5.0 + rng.random(40))
    ctl = list(10.0 + rng.random(40))
    sp = tables.speed_table(_fake_raw(old, new, ctl), papers=["000"], profile="quick").iloc[0]
    rules = verdicts.load_rules()
    want = stats.speedup_ci(old, new, statistic=rules["speed_statistic"], confidence=float(rules["confidence"]),
                            n_resamples=int(rules["bootstrap_resamples"]),
                            paired=rules["speed_pairing"] == "rounds")
    assert sp["ours_pct"] == pytest.approx(want.estimate) and sp["low_pct"] == pytest.approx(want.low)
    assert sp["aa_low_pct"] < 0 < sp["aa_high_pct"] < sp["low_pct"]      # the A/A band sits around 0
    assert sp["mean_speedup_pct"] == pytest.approx((np.mean(old) / np.mean(new) - 1) * 100)  # the papers' formula
    assert sp["published_pct"] == paper.published("000", "Table 5").query(
        "row == 'Encryption' and column == 'ETPE%'")["value"].item()
    assert sp["status"] == "timed" and sp["size"] == "60416 B"


def test_skipped_pairs_are_listed_not_dropped():
    raw = _fake_raw([10.0, 11.0, 12.0], [5.0, 6.0, 7.0])
    skipped = pd.DataFrame([{"protocol": "000", "file": "f", "cipher": "aes-2sbox", "impl": "aesni",
                             "reason": "exists for cipher 'aes' only"}])
    sp = tables.speed_table(raw, skipped, papers=["000"], profile="quick")
    row = sp[sp["style"] == "aesni"]
    assert len(row) == 2 and row["status"].str.contains("not timed.*aes' only").all() and row["ours_pct"].isna().all()
