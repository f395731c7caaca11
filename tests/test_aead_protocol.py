"""Paper 003's own protocol (cipherlab.experiments.aead.protocol): Fig. 5's 'steadily increases' read at every step
(family-wise), Fig. 6's 'performance increase with file size' as a trend across every size."""


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


def test_a_steady_rise_is_read_at_every_step_and_a_rise_as_a_trend_with_every_step_shown():
    """Fig. 5's 'steadily increases' (readings: monotone): one end-to-end row and one row per mode and step; Fig. 6's
    'performance increase with file size': one row, the gain from the smallest size to the largest deciding, every
    mode's every step in its detail, shown, not deciding. Both hold on a clean rise."""
    cold = synthetic_cold(PAPER_ORDER, fixed=1e-3)
    rows = protocol.cold_evidence(cold, profile="full", seed=1, claims=list(protocol.STEP_CLAIMS))
    claims = evidence.paper_claims().set_index("claim_id")
    for cid in protocol.STEP_CLAIMS:
        mine = [e for e in rows if e.claim_id == cid]
        if cid in protocol.EVERY_STEP_CLAIMS:
            assert claims.loc[cid, "readings"] == "monotone"
            assert [e.reading for e in mine].count(V.END_TO_END) == 1
            steps = [e.reading.split(", ", 1)[1] for e in mine if e.reading != V.END_TO_END]
            assert len(steps) == 3 * (len(SIZES) - 1) == len(set(steps))
        else:
            assert claims.loc[cid, "readings"] != "monotone"
            assert [e.reading for e in mine] == [protocol.COLD_READING]
            assert f"from {SIZES[0]} B to {SIZES[-1]} B" in mine[0].detail
            for a, b in zip(SIZES, SIZES[1:]):
                assert f"{a} B to {b} B" in mine[0].detail.split("each step shown, not deciding")[1]
        assert _decided(cid, cold)["verdict"] == "reproduced"


def test_one_step_reversed_contradicts_a_steady_rise_and_never_a_trend():
    """The boundary between the two readings: one adjacent step reversed far beyond the noise (EAX's 5 MB call 60 %
    slower, so 3 MB -> 5 MB falls) contradicts 'steadily increases' at the family-wise level and leaves the trend of
    Fig. 6 standing while the end-to-end gain holds; a slowdown that reverses the gain from the smallest size to the
    largest contradicts both."""
    cold = synthetic_cold(PAPER_ORDER, fixed=1e-3)
    a, b = SIZES[-2], SIZES[-1]
    one_step = _slower(cold, b, 1.6)
    step = evidence.compare("003-f5-tp-rises-enc", one_step[one_step["phase"] == 1], 1, "encrypt", "eax", "eax", b,
                            slow_bytes=a, per_byte=True, profile="full", section="aead-fig5", seed=1)
    assert step.high < -3, step            # that step falls, beyond any noise band
    d = _decided("003-f5-tp-rises-enc", one_step)
    assert d["verdict"] == "contradicted" and "family-wise" in d["reason"], d["reason"]
    d = _decided("003-f6-tp-rises-dec", one_step)
    assert d["verdict"] == "reproduced", d["reason"]
    whole = _slower(cold, b, 100.0)
    for cid in protocol.STEP_CLAIMS:
        d = _decided(cid, whole)
        assert d["verdict"] == "contradicted", d["reason"]
