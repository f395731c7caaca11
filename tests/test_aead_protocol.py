"""Paper 003's own protocol (cipherlab.experiments.aead.protocol): a rise with size read as a trend across every
size, one reading for Fig. 5's 'steadily increases' and Fig. 6's 'performance increase with file size'."""


from cipherlab.analysis import verdicts as V
from cipherlab.experiments.aead import evidence, protocol

from aead_synthetic import SIZES, PAPER_ORDER, synthetic_cold


def _decided(cid, times):
    claim = evidence.paper_claims()
    claim = claim[claim["claim_id"] == cid]
    frame = V.evidence_frame(protocol.cold_evidence(times, profile="full", seed=1, claims=[cid]))
    return V.decide_all(claim, frame.assign(chapter="aead")).set_index("claim_id").loc[cid]


def _slower(cold, nbytes, factor, modes=("eax",)):
    out = cold.copy()
    at = (out["bytes"] == nbytes) & (out["phase"] == 1) & out["mode"].isin(modes) & (out["instance"] == "main")
    out.loc[at, "seconds"] *= factor
    return out


def test_both_rise_claims_are_one_trend_reading_with_every_step_shown():
    """One row per claim, the gain from the smallest size to the largest deciding; every mode's every step in its
    detail, shown, not deciding (no reading per step: the claim is a trend, not 'at every step')."""
    cold = synthetic_cold(PAPER_ORDER, fixed=1e-3)
    rows = protocol.cold_evidence(cold, profile="full", seed=1, claims=list(protocol.STEP_CLAIMS))
    claims = evidence.paper_claims().set_index("claim_id")
    for cid in protocol.STEP_CLAIMS:
        assert claims.loc[cid, "readings"] != "monotone"
        mine = [e for e in rows if e.claim_id == cid]
        assert [e.reading for e in mine] == [protocol.COLD_READING]
        assert f"from {SIZES[0]} B to {SIZES[-1]} B" in mine[0].detail
        for a, b in zip(SIZES, SIZES[1:]):
            assert f"{a} B to {b} B" in mine[0].detail.split("each step shown, not deciding")[1]
        assert _decided(cid, cold)["verdict"] == "reproduced"


def test_a_trend_is_never_contradicted_on_one_step():
    """The boundary of the trend reading: one adjacent step reversed far beyond the noise (EAX's 5 MB call 60 %
    slower than the trend, so 3 MB -> 5 MB falls) leaves the trend standing while the end-to-end gain holds; the same
    slowdown large enough to reverse the gain from the smallest size to the largest contradicts."""
    cid = "003-f5-tp-rises-enc"
    cold = synthetic_cold(PAPER_ORDER, fixed=1e-3)
    a, b = SIZES[-2], SIZES[-1]
    one_step = _slower(cold, b, 1.6)
    step = evidence.compare(cid, one_step[one_step["phase"] == 1], 1, "encrypt", "eax", "eax", b, slow_bytes=a,
                            per_byte=True, profile="full", section="aead-fig5", seed=1)
    assert step.high < -3, step            # that step falls, beyond any noise band
    d = _decided(cid, one_step)
    assert d["verdict"] == "reproduced", d["reason"]
    whole = _slower(cold, b, 100.0)
    d = _decided(cid, whole)
    assert d["verdict"] == "contradicted", d["reason"]
