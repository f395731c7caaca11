"""cipherlab.experiments.aead.stability: 'stable' as paper 003 uses it, the span of a throughput across sizes."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from aead_synthetic import PAPER_ORDER, SIZES, synthetic_cold
from cipherlab.analysis import verdicts as V
from cipherlab.experiments.aead import evidence, stability


def _decide(rows, claims):
    frame = V.evidence_frame(rows).assign(chapter="aead")
    c = evidence.paper_claims()
    return V.decide_all(c[c["claim_id"].isin(claims)], frame).set_index("claim_id")


def test_the_span_is_the_table_s_and_the_rows_figures_reconcile_with_it():
    cold = synthetic_cold(PAPER_ORDER, noise=0.0)
    p1 = cold[cold["phase"] == 1].assign(trial=0)
    table = stability.stability_table(cold, p1)
    assert set(table["mode"]) == {"gcm", "ccm", "eax"} and set(table["operation"]) == {"encrypt", "decrypt"}
    # span by hand: per-size throughput (bytes / (fixed + per-byte cost)), largest over smallest, minus 1
    tp = np.array([nb / (2e-4 + nb * 1e-9) for nb in SIZES])
    g = table[(table["mode"] == "gcm") & (table["operation"] == "encrypt")]
    assert g["span_pct"].iloc[0] == pytest.approx((tp.max() / tp.min() - 1) * 100)
    assert g["cold_mb_per_s"].tolist() == pytest.approx((tp / 1e6).tolist())
    ev = stability.span_evidence("003-t2-gcm-most-stable", cold, "gcm", "ccm", "encrypt", profile="full",
                                 n_resamples=200)
    span = table.set_index(["mode", "operation"])["span_pct"]
    assert ev.estimate == pytest.approx(((1 + span["ccm", "encrypt"].iloc[0] / 100)
                                         / (1 + span["gcm", "encrypt"].iloc[0] / 100) - 1) * 100)
    assert f"{span['ccm', 'encrypt'].iloc[0]:.1f} %" in ev.detail and ev.style.endswith("one cold call per file")


def test_a_fast_mode_with_a_fixed_cost_is_the_least_stable_across_sizes():
    """GCM 3x cheaper per byte than CCM with the same fixed cost: its throughput climbs most with size, so 'GCM most
    stable' is contradicted and 'CCM the option for stability' reproduced (the paper's two sentences conflict)."""
    d = _decide(stability.stability_evidence(synthetic_cold(PAPER_ORDER), profile="full", seed=1),
                set(stability.STABILITY_CLAIMS))
    assert d.loc["003-t2-gcm-most-stable", "verdict"] == "contradicted"
    assert d.loc["003-s511-gcm-consistent", "verdict"] == "contradicted"
    assert d.loc["003-s511-ccm-stable", "verdict"] == "reproduced"
    assert d.loc["003-s511-ccm-stable", "misprint"] in ("", None) or pd.isna(d.loc["003-s511-ccm-stable", "misprint"])


def test_equal_spans_are_within_the_aa_band_and_decide_nothing():
    """Every mode with no fixed cost: flat throughput, equal spans, and no ordering beyond the noise."""
    cold = synthetic_cold({**PAPER_ORDER}, fixed=0.0, noise=0.02, processes=12)
    rows = stability.stability_evidence(cold, profile="full", seed=1)
    assert [e.reading for e in rows if e.claim_id == "003-s511-ccm-stable"] == ["operation=encrypt",
                                                                                  "operation=decrypt"]
    d = _decide(rows, set(stability.STABILITY_CLAIMS))
    assert set(d["verdict"]) == {"inconclusive"}, d["reason"].tolist()


def test_bad_cold_data_is_refused_in_one_line():
    cold = synthetic_cold(PAPER_ORDER)
    with pytest.raises(ValueError, match="no cold calls of AES-ocb encrypt"):
        stability.span_pct(cold, "ocb", "encrypt")
    one = cold[cold["process"] == 0]
    with pytest.raises(ValueError, match=">= 2 processes"):
        stability.span_pct(one, "gcm", "encrypt")
