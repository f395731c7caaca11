"""Tests of cipherlab.experiments.aes2sbox.views."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cipherlab.experiments.aes2sbox import audit, avalanche, sboxes, tables
from cipherlab.experiments.aes2sbox import views as V

from aes2sbox_synthetic import _fake_raw

pytestmark = pytest.mark.filterwarnings("ignore::cipherlab.InsecureCipherWarning")


# ---------------------------------------------------------------- what the page shows
def _short_view(html: str) -> str:
    """The part of a rendered table a reader sees before any fold."""
    return html.split("<details>")[0]


def test_speed_view_shows_published_ours_and_control_and_folds_the_rest():

    rng = np.random.default_rng(2)
    raw = _fake_raw(list(10 + rng.random(30)), list(5 + rng.random(30)), list(10 + rng.random(30)))
    skipped = pd.DataFrame([{"protocol": "000", "file": "f", "cipher": "aes-2sbox", "impl": "aesni",
                             "reason": "exists for cipher 'aes' only"}])
    sp = tables.speed_table(raw, skipped, papers=["000"], profile="quick")
    html = str(V.speed_view(sp))
    short = _short_view(html)
    assert "published %" in short and "A/A band" in short and "process p" not in short
    assert f"[{sp['aa_low_pct'].iloc[0]:.1f}, {sp['aa_high_pct'].iloc[0]:.1f}]" in short
    assert "process p" in html and "not timed" in html            # nothing dropped: the full table is folded
    assert "nan" not in html.lower().replace("nanosec", "")


def test_welch_tables_show_missing_cells_as_dashes_and_integers_as_integers():

    raw = _fake_raw([10.0, 12.0, 11.0, 13.0], [5.0, 6.0, 5.5, 7.0], impl="reference")
    html = str(V.welch_tables(raw, papers=["000"]))
    assert "NaN" not in html and "4.000000" not in html and "—" in html
    assert ">4<" in html                                                # four observations, as an integer


def test_audit_view_counts_what_is_reproduced():

    stats = audit.audit_published_stats()
    html = str(V.audit_view(stats))
    excel = stats[~stats["method"].str.contains("unrounded|ttest_ind_from_stats")]
    t3 = excel[(excel.paper == "000") & (excel.table == "Table 3")]
    assert f"<td style=\"padding:0.25em 0.7em;border-bottom:1px solid #ddd;vertical-align:top;text-align:right;" \
           f"white-space:nowrap;\">{int(t3['consistent'].sum())}</td>" in _short_view(html)
    assert f"{len(stats)} rows)" in html


def test_avalanche_pairs_view_keeps_the_counts_in_view():

    pairs = avalanche.avalanche_pairs(["000"], key=bytes(16))
    short = _short_view(str(V.avalanche_pairs_view(pairs)))
    assert "changed bits" in short and "published bits" in short and "ciphertext a" not in short


def test_construction_finding_follows_the_counts():

    match = sboxes.construction_match_table()
    assert "affine(x XOR 7F)" in V.construction_finding_text(match)
    flipped = match.assign(matching=match["cells"] - match["matching"])
    text = V.construction_finding_text(flipped)
    assert "follow the `xor-sbox` reading" in text and "affine" not in text
