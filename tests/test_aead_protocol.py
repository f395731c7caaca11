"""Paper 003's own protocol (cipherlab.experiments.aead.protocol): the family-wise reading of a rise with size,
one for Fig. 5's 'steadily increases' and Fig. 6's 'performance increase with file size'."""
import dataclasses

import pytest

from cipherlab.analysis import verdicts as V
from cipherlab.experiments.aead import evidence, protocol

from aead_synthetic import SIZES, PAPER_ORDER, synthetic_cold


@pytest.mark.parametrize("confidence, m, level", [(0.95, 1, 0.95), (0.95, 12, 1 - 0.05 / 12), (0.9, 4, 0.975)])
def test_familywise_confidence_is_bonferroni(confidence, m, level):
    assert protocol.familywise_confidence(confidence, m) == pytest.approx(level)


@pytest.mark.parametrize("confidence, m", [(0.0, 3), (1.0, 3), (0.95, 0), (0.95, 2.5)])
def test_familywise_confidence_refuses_what_is_no_confidence_or_count(confidence, m):
    with pytest.raises(ValueError, match="confidence|comparisons"):
        protocol.familywise_confidence(confidence, m)


def test_both_rise_claims_are_read_step_by_step_with_family_wise_intervals():
    cold = synthetic_cold(PAPER_ORDER, fixed=1e-3)
    rows = protocol.cold_evidence(cold, profile="full", seed=1, claims=list(protocol.STEP_CLAIMS))
    steps = [f"size={a} B to {b} B" for a, b in zip(SIZES, SIZES[1:])]
    for cid in ("003-f5-tp-rises-enc", "003-f6-tp-rises-dec"):     # one reading for both sentences
        mine = [e for e in rows if e.claim_id == cid]
        assert [e.reading.split(", ")[-1] for e in mine] == steps
        m = len(steps) * 3
        assert all(f"Bonferroni over {m} comparisons" in e.detail for e in mine)
    # each step's interval is wider than the same comparison's at the rules' confidence: the family covers together
    a, b = SIZES[-2], SIZES[-1]
    df = cold[cold["phase"] == 1]
    plain = evidence.compare("003-f5-tp-rises-enc", df, 1, "encrypt", "eax", "eax", b, slow_bytes=a, per_byte=True,
                             profile="full", section="aead-fig5", seed=1)
    rules = V.load_rules()
    wide = evidence.compare("003-f5-tp-rises-enc", df, 1, "encrypt", "eax", "eax", b, slow_bytes=a, per_byte=True,
                            profile="full", section="aead-fig5", seed=1,
                            rules={**rules, "confidence": protocol.familywise_confidence(rules["confidence"], m)})
    assert wide.low < plain.low and wide.high > plain.high and wide.estimate == pytest.approx(plain.estimate)


def test_a_step_only_the_least_of_many_intervals_would_reverse_is_not_a_contradiction():
    """A fall at one step that a single 95 % interval shows, but the family-wise one does not, cannot contradict."""
    cid = "003-f5-tp-rises-enc"
    cold = synthetic_cold(PAPER_ORDER, fixed=1e-3, noise=0.03, processes=8, seed=3)
    a, b = SIZES[-2], SIZES[-1]
    for factor in (1.0 + k / 400 for k in range(1, 400)):       # find the smallest fall the single interval sees
        trial = cold.copy()
        last = (trial["bytes"] == b) & (trial["phase"] == 1) & (trial["mode"] == "eax") & (trial["instance"] == "main")
        trial.loc[last, "seconds"] *= factor
        one = evidence.compare(cid, trial[trial["phase"] == 1], 1, "encrypt", "eax", "eax", b, slow_bytes=a,
                               per_byte=True, profile="full", section="aead-fig5", seed=1)
        if one.high < 0:
            break
    else:
        pytest.fail("no fall was seen by the single interval")
    fam = [e for e in protocol.cold_evidence(trial, profile="full", seed=1, claims=[cid])
           if e.reading.endswith(f"size={a} B to {b} B")][0]
    assert fam.high >= 0, (factor, fam.low, fam.high)        # the smallest fall one interval sees: not the family
    mine = evidence.paper_claims()
    frame = V.evidence_frame(protocol.cold_evidence(trial, profile="full", seed=1, claims=[cid])).assign(chapter="aead")
    d = V.decide_all(mine[mine["claim_id"] == cid], frame).set_index("claim_id")
    assert d.loc[cid, "verdict"] != "contradicted", d.loc[cid, "reason"]
    assert dataclasses.asdict(fam)["low"] < dataclasses.asdict(one)["low"]
