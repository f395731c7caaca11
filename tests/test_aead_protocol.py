"""Paper 003's own protocol (cipherlab.experiments.aead.protocol): the family-wise reading of a rise with size,
one for Fig. 5's 'steadily increases' and Fig. 6's 'performance increase with file size'."""

import pytest

from cipherlab.analysis import verdicts as V
from cipherlab.experiments.aead import evidence, protocol

from aead_synthetic import SIZES, PAPER_ORDER, synthetic_cold


def test_both_rise_claims_give_the_engine_an_end_to_end_reading_and_every_step_of_every_mode():
    """readings: monotone (config/verdicts.yaml): one end-to-end row, one row per mode and step, one reading for both."""
    cold = synthetic_cold(PAPER_ORDER, fixed=1e-3)
    rows = protocol.cold_evidence(cold, profile="full", seed=1, claims=list(protocol.STEP_CLAIMS))
    claims = evidence.paper_claims().set_index("claim_id")
    for cid in protocol.STEP_CLAIMS:
        assert claims.loc[cid, "readings"] == "monotone"
        mine = [e for e in rows if e.claim_id == cid]
        assert [e.reading for e in mine].count(V.END_TO_END) == 1
        steps = [e.reading.split(", ", 1)[1] for e in mine if e.reading != V.END_TO_END]
        assert len(steps) == 3 * (len(SIZES) - 1) == len(set(steps))
        end = next(e for e in mine if e.reading == V.END_TO_END)
        assert f"from {SIZES[0]} B to {SIZES[-1]} B" in end.detail


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
    claim = evidence.paper_claims()
    claim = claim[claim["claim_id"] == cid]

    def decided(times):
        frame = V.evidence_frame(protocol.cold_evidence(times, profile="full", seed=1, claims=[cid]))
        return V.decide_all(claim, frame.assign(chapter="aead")).set_index("claim_id").loc[cid]

    d = decided(trial)
    assert d["verdict"] != "contradicted", d["reason"]
    # a fall far beyond the noise at that one step contradicts, whatever the other steps and the end-to-end gain say
    mid_a, mid_b = SIZES[1], SIZES[2]
    big = cold.copy()
    at = (big["bytes"] == mid_b) & (big["phase"] == 1) & (big["mode"] == "eax") & (big["instance"] == "main")
    big.loc[at, "seconds"] *= 3 * mid_b / mid_a
    d = decided(big)
    assert d["verdict"] == "contradicted" and "family-wise" in d["reason"], d["reason"]
