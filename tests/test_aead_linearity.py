"""Time over size: a fixed cost plus a cost per byte (aead.linearity)."""
import numpy as np
import pandas as pd
import pytest

from cipherlab.experiments.aead import linearity

from aead_synthetic import SIZES, PAPER_ORDER, synthetic_raw


def test_linear_fit_recovers_a_fixed_cost_and_judges_by_misfit():
    sizes = np.array([1e5, 5e5, 1e6, 3e6, 5e6])
    fixed, per_byte, mis = linearity.fit_linear(sizes, 2e-5 + 1e-9 * sizes)
    assert fixed == pytest.approx(2e-5) and per_byte == pytest.approx(1e-9) and np.max(np.abs(mis)) < 1e-6
    # a curve no line fits: the misfit shows it, where the two-point exponent would not tell it from a fixed cost
    _, _, mis = linearity.fit_linear(sizes, 1e-6 * np.sqrt(sizes))
    assert np.max(np.abs(mis)) > 10
    with pytest.raises(ValueError, match=">= 3"):
        linearity.fit_linear([1, 2], [1, 2])
    with pytest.raises(ValueError, match="positive"):
        linearity.fit_linear([1, 2, 3], [1, 0, 2])


def test_semilinear_evidence_is_the_misfit_over_every_size():
    linear = linearity.linearity_evidence(synthetic_raw(1, PAPER_ORDER), profile="full", seed=1, n_resamples=200)
    assert linear.claim_id == "003-t1-semilinear" and linear.unit == "%"
    assert 0 <= linear.low <= linear.estimate <= linear.high < 3   # a fixed cost plus a per-byte cost: linear
    assert linear.size == ", ".join(f"{n} B" for n in SIZES) and "fixed" in linear.detail
    assert linear.control_low == -linear.control_high
    rows = []
    for r in synthetic_raw(1, PAPER_ORDER).itertuples(index=False):  # the same medians bent to size^0.5: not linear
        rows.append({**r._asdict(), "seconds": r.seconds * (r.bytes / SIZES[0]) ** -0.5})
    bent = linearity.linearity_evidence(pd.DataFrame(rows), profile="full", seed=1, n_resamples=200)
    assert bent.low > 10
    table = linearity.linear_fit_table(synthetic_raw(1, PAPER_ORDER))
    assert len(table) == 6 and (table["misfit_max_pct"] < 3).all() and (table["two_point_exponent"] < 1).all()
    assert table["fixed_us"].between(5, 15).all()   # the synthetic fixed cost is 10 us


def test_equal_growth_compares_the_modes_under_both_readings():
    evs = linearity.equal_growth_evidence(synthetic_raw(1, PAPER_ORDER), profile="full", seed=1, n_resamples=200)
    by = {e.reading: e for e in evs}
    assert set(by) == set(linearity.GROWTH_READINGS) and {e.claim_id for e in evs} == {"003-s511-equally-affected"}
    per_byte = by["cost per byte"]
    assert per_byte.unit == "%" and per_byte.low <= per_byte.estimate <= per_byte.high
    assert per_byte.estimate == pytest.approx(250.0, rel=0.05)    # EAX 3.5 over GCM 1 ns/B
    assert per_byte.control_low < 0 < per_byte.control_high and "ns/B" in per_byte.detail
    growth = {m: (1e-5 + SIZES[-1] * b * 1e-9) / (1e-5 + SIZES[0] * b * 1e-9) for m, b in PAPER_ORDER.items()
              if m in ("gcm", "ccm", "eax")}   # the synthetic fixed cost is 10 us
    assert by["relative growth"].estimate == pytest.approx((max(growth.values()) / min(growth.values()) - 1) * 100,
                                                           abs=1.5)
    assert "x" in by["relative growth"].detail
    same = linearity.equal_growth_evidence(synthetic_raw(1, {**PAPER_ORDER, "ccm": 1.0, "eax": 1.0}), profile="full",
                                           seed=1, n_resamples=200)
    assert all(0 <= e.estimate < 3 for e in same)


def test_linearity_claims_use_the_chapters_one_tolerance():
    """'Semi-linear' and 'almost linearly' are decided with the tolerance that writes Table 1's row: one number."""
    from cipherlab.analysis import verdicts as V
    from cipherlab.experiments.aead.tables import RankingRule
    claims = V.load_claims().set_index("claim_id")
    for cid in ("003-t1-semilinear", "003-s52-reject-linear"):
        assert float(claims.loc[cid, "margin_value"]) == pytest.approx(RankingRule().linear_tolerance * 100), cid


@pytest.mark.parametrize("low, high, expected", [(2.6, 8.0, "reproduced"), (2.6, 19.9, "reproduced"),
                                                 (2.6, 20.5, "inconclusive"), (20.5, 30.0, "contradicted")])
def test_linearity_evidence_is_decided_on_its_own_interval(low, high, expected):
    """A misfit carries no A/A band of a speed ratio: only the tolerance's edge decides."""
    from cipherlab.analysis import verdicts as V
    claim = V.load_claims().set_index("claim_id", drop=False).loc["003-t1-semilinear"]
    ev = V.Evidence("003-t1-semilinear", estimate=low, low=low, high=high, control_low=-1.7, control_high=1.7,
                    unit="%", statistic="fit_misfit")
    assert V.decide(claim, ev).verdict == expected


def test_equally_affected_is_a_sameness_whose_size_is_the_machines():
    """'All three modes are equally affected by file size' compares three code paths, whose relative growth and cost
    per byte belong to the machine: a sameness (small_effect, expect: either) said to agree or differ on this
    machine (carries: direction), both readings shown: near 0 when every mode pays alike, the same relative growth
    but three times the cost per byte when one mode is three times slower at every size."""
    from cipherlab.analysis import verdicts as V
    from cipherlab.experiments.aead import evidence
    row = evidence.paper_claims().set_index("claim_id").loc["003-s511-equally-affected"]
    assert (row["rule"], row["expect"], row["carries"], row["readings"]) == ("small_effect", "either", "direction",
                                                                             "open")

    def decided(raw):
        evs = linearity.equal_growth_evidence(raw, profile="full", seed=1, n_resamples=200)
        mine = evidence.paper_claims()
        mine = mine[mine["claim_id"] == "003-s511-equally-affected"]
        return V.decide_all(mine, V.evidence_frame(evs).assign(chapter="aead")).iloc[0]
    d = decided(synthetic_raw(1, {**PAPER_ORDER, "ccm": 1.0, "eax": 1.0}))
    assert (d["verdict"], d["outcome"]) == ("machine-bound", "agrees_here"), d["reason"]
    far = synthetic_raw(1, {**PAPER_ORDER, "ccm": 1.0, "eax": 1.0})
    far.loc[(far["mode"] == "eax") & (far["instance"] == "main"), "seconds"] *= 3.0
    d = decided(far)
    # the readings are open: the one most favourable to the claim is shown (the same relative growth), and the
    # reason names the other's (three times the cost per byte)
    assert (d["verdict"], d["outcome"]) == ("machine-bound", "agrees_here"), d["reason"]
    assert "under relative growth" in d["reason"] and "cost per byte: " in d["reason"] and "differs on this" in d["reason"]

    def shown(raw):
        return {e.reading: e.estimate for e in linearity.equal_growth_evidence(raw, profile="full", seed=1,
                                                                               n_resamples=200)}
    alike = shown(synthetic_raw(1, {**PAPER_ORDER, "ccm": 1.0, "eax": 1.0}))
    assert all(abs(v) < 15 for v in alike.values())
    raw = synthetic_raw(1, {**PAPER_ORDER, "ccm": 1.0, "eax": 1.0})
    raw.loc[(raw["mode"] == "eax") & (raw["instance"] == "main"), "seconds"] *= 3.0
    slow = shown(raw)
    assert abs(slow["relative growth"]) < 15 and slow["cost per byte"] == pytest.approx(200, abs=30)
