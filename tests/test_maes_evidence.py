"""Tests of cipherlab.experiments.maes.evidence."""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from cipherlab.experiments.maes import common, entropy, evidence
from cipherlab.experiments.maes.evidence import OTHER_PAPER_CLAIMS
from cipherlab.analysis import verdicts as V
from cipherlab.names import MODES

from maes_synthetic import KEY, STYLES, _synthetic_raw, _times

pytestmark = pytest.mark.usefixtures("quiet_research_warning")


def _evidence(frames, **kw):
    return evidence.evidence_rows(frames, key=KEY, options=common.maes_options(), impls=STYLES, original_style="reference",
                           optimized_style="table", profile="quick", **kw)


def test_evidence_covers_every_claim_of_the_paper(small_frames):
    rows = _evidence(small_frames)
    ev = V.evidence_frame(rows)
    claims = V.load_claims()
    paper = claims[claims["paper"] == common.PAPER]
    mine = V.claims_of_chapter("maes", paper)
    assert set(ev["claim_id"]) <= set(claims["claim_id"])  # no unknown id
    testable = set(mine.loc[mine["rule"] != "not_testable", "claim_id"])
    # every testable claim has evidence, and so do the declared claims of other papers; nothing else does
    assert set(ev["claim_id"]) == testable | set(OTHER_PAPER_CLAIMS)
    assert set(evidence.paper_claim_ids()) == set(mine["claim_id"])
    decided = V.decide_all(mine, ev[ev["claim_id"].isin(mine["claim_id"])].assign(chapter="maes"))  # one per claim
    assert len(decided) == len(mine) and decided["claim_id"].is_unique
    assert set(decided["verdict"]) <= set(V.VERDICTS) | set(V.STATUSES) | {V.FINDING}
    assert (ev["profile"] == "quick").all()
    # every speed comparison carries its A/A band and the condition it measured
    speed = ev[ev["unit"] == "%"]
    assert len(speed) and speed["control_low"].notna().all() and speed["control_high"].notna().all()
    assert (speed["size"] != "").all() and (speed["style"] != "").all()
    # claims decided on a named condition have a row of it; several rows differ in their reading
    for r in mine[mine["decided_by"] != ""].itertuples():
        rows = ev[ev["claim_id"] == r.claim_id]
        for term in r.decided_by.split(";"):
            k, _, v = term.partition("=")
            rows = rows[rows[k].isin(v.split("|"))]
        assert len(rows) >= 1 and (len(rows) == 1 or rows["reading"].is_unique and (rows["reading"] != "").all()), \
            r.claim_id


def test_evidence_structural_rows_from_the_cipher(small_frames):
    by = {(e.claim_id, e.mode): e for e in _evidence(small_frames)}
    assert not any(cid == "002-complexity-maintained" for cid, _ in by)   # a security claim: the attack decides
    assert by[("002-keyspace-unchanged", "")].holds is True
    # '16 IV vectors', printed three times, is a count read as printed: one IV per round makes 10 (AES-128), more
    # than approach 1's one (the qualitative part) and not 16 (the size): not reproduced, not contradicted
    ivs = by[("002-approach2-more-ivs", "")]
    assert ivs.holds is None and ivs.estimate == ivs.low == ivs.high == 10 and "the paper prints 16" in ivs.detail
    claims = V.load_claims()
    out = V.decide_all(claims[claims["claim_id"] == "002-approach2-more-ivs"],
                       V.evidence_frame([ivs]).assign(chapter="maes")).iloc[0]
    assert out["verdict"] == "not reproduced" and out["outcome"] == "size_excluded", out["reason"]
    assert by[("002-ext-ecb-repeats", "ecb")].holds is True
    assert by[("002-fig8-uniform", "cbc")].p_value > by[("002-fig8-uniform", "ecb")].p_value
    ecb = by[("002-t4-entropy-kept", "ecb")]
    assert ecb.high < 0 and ecb.unit == "bits"  # MAES-ECB keeps the image's byte statistics


def test_evidence_speed_decisions_on_synthetic_times(small_frames):
    """Known times through the evidence and the engine: the verdicts follow the numbers."""
    def decide(times):
        raw = _synthetic_raw(times)
        frames = dataclasses.replace(small_frames, block=raw, bulk=_synthetic_raw(times, mode="ecb"))
        ev = V.evidence_frame(_evidence(frames)).assign(chapter="maes")
        claims = V.load_claims()
        ids = ["002-abstract-enc-speedup", "002-t3-opt-enc-slight", "002-t3-fastest", "002-approaches-similar-time"]
        keep = claims[claims["claim_id"].isin(ids)]
        out = V.decide_all(keep, ev[ev["claim_id"].isin(ids)])
        return dict(zip(out["claim_id"], out["verdict"]))

    # AES 2.5, MAES 1.0: a 150 % speed-up, the abstract's; approaches equal
    v = decide(_times(aes=2.5, maes1=1.0, maes2=1.0))
    # a same-path speed-up (MAES against AES in one style): what it saves is MixColumns' code against MAES's XOR
    # stage, which the paper does not publish (carries: direction): the direction holds under every style
    # (readings: any), the printed size said to agree on this machine
    assert v["002-abstract-enc-speedup"] == "machine-bound"
    assert v["002-t3-fastest"] == "reproduced"
    # 'decreases slightly' is decided on the gap Table III prints (34 against 30 us, 13.3 %), an order the sentence
    # calls slight (expect: slight, as 003's Tables 5-7): 150 % lies wholly beyond the slight reach, larger than stated
    assert v["002-t3-opt-enc-slight"] == "not reproduced"
    assert v["002-approaches-similar-time"] == "reproduced"
    # MAES as fast as AES: the paper's 'slightly' is its own 13.3 %, clearly beyond the noise floor, so no effect
    # beyond the noise contradicts it (small_effect is only for a stated effect inside the floor); the abstract's
    # 150 % is absent too
    v = decide(_times(aes=1.0, maes1=1.0, maes2=1.0))
    assert v["002-t3-opt-enc-slight"] == "contradicted" and v["002-abstract-enc-speedup"] == "contradicted"
    slight = next(e for e in _evidence(small_frames) if e.claim_id == "002-t3-opt-enc-slight")
    assert slight.stated == pytest.approx((34 / 30 - 1) * 100)
    # MAES 13.3 % faster, the gap the paper prints: reproduced; 2 % faster, inside the 3 % floor: no effect
    assert decide(_times(aes=34 / 30, maes1=1.0, maes2=1.0))["002-t3-opt-enc-slight"] == "reproduced"
    assert decide(_times(aes=1.02, maes1=1.0, maes2=1.0))["002-t3-opt-enc-slight"] == "contradicted"
    # MAES twice as slow as AES: the opposite of a decrease
    assert decide(_times(aes=1.0, maes1=2.0, maes2=2.0))["002-t3-opt-enc-slight"] == "contradicted"
    # MAES as fast as AES: no speed-up beyond the A/A band; approach 2 twice as slow as approach 1
    v = decide(_times(aes=1.0, maes1=1.0, maes2=2.0))
    assert v["002-abstract-enc-speedup"] == "contradicted"
    assert v["002-approaches-similar-time"] == "contradicted"


def test_claims_against_the_optimized_aes_hold_only_like_for_like_and_as_the_paper_compares(small_frames):
    """'Even against an optimized AES, MAES is the fastest': two readings, like for like (table MAES against table
    AES) and the paper's own comparison (its MAES, our byte-oriented style, against the optimized AES); the sentence
    are open (readings: open): both must hold for reproduced, one failing where the other holds leaves it undecided,
    and where both fail the reason leads with the milder, like for like."""
    ids = ["002-t3-fastest", "002-t3-opt-dec-half", "002-t3-opt-enc-slight"]

    def decide(table_aes, table_maes, ref_maes):
        times = _times(aes=table_aes, maes1=table_maes, maes2=table_maes)
        times.update({(c, "reference", o): ref_maes for c in ("maes-1", "maes-2") for o in ("encrypt", "decrypt")})
        frames = dataclasses.replace(small_frames, block=_synthetic_raw(times),
                                     bulk=_synthetic_raw(times, mode="ecb"))
        rows = [e for e in _evidence(frames) if e.claim_id in ids]
        for cid in ids:
            assert sorted(e.reading for e in rows if e.claim_id == cid) == [
                "comparison=like for like (table)", "comparison=the paper's (MAES reference, AES table)"], cid
        claims = V.load_claims()
        out = V.decide_all(claims[claims["claim_id"].isin(ids)], V.evidence_frame(rows).assign(chapter="maes"))
        return out.set_index("claim_id")

    # table MAES twice as fast as table AES, byte-oriented MAES twice as fast too: both readings hold
    both = decide(2.0, 1.0, 1.0)
    assert both.loc["002-t3-fastest", "verdict"] == "reproduced"
    # 'to the half' is the saving of MixColumns' code against the XOR stage's (carries: direction): the direction
    # holds under both readings, the size is said to agree or differ on this machine
    assert both.loc["002-t3-opt-dec-half", "verdict"] == "machine-bound"
    # like for like holds, but the paper's MAES (byte-oriented) is ten times slower than the optimized AES
    # (maes_table3: about 0.37 against 0.037 us a block): the paper's comparison fails by its direction
    mixed = decide(2.0, 1.0, 20.0)
    for cid in ids[:2]:
        assert (mixed.loc[cid, "verdict"], mixed.loc[cid, "outcome"]) == ("inconclusive", "readings_disagree"), cid
        assert "comparison=the paper's (MAES reference, AES table)" in mixed.loc[cid, "reason"], cid
    # 'decreases slightly' (13.3 % printed) against a like-for-like speed-up of 100 %: not slight, so both readings
    # are against the claim and the milder decides
    assert mixed.loc["002-t3-opt-enc-slight", "verdict"] == "not reproduced"
    # like for like as fast as the optimized AES, the paper's MAES ten times slower: both against the claim, the
    # reason under like for like
    neither = decide(1.0, 1.0, 20.0)
    for cid in ids:
        assert neither.loc[cid, "verdict"] == "contradicted", cid
        assert "under comparison=like for like (table)" in neither.loc[cid, "reason"], cid


def test_one_block_claims_decide_on_the_cipher_cost_not_the_call(small_frames):
    """Calls that cost the same but bulk blocks that differ 2x: the bulk decides, the one-call figure is shown."""
    call = _times(aes=1.0, maes1=1.0, maes2=1.0)
    work = _times(aes=2.0, maes1=1.0, maes2=1.0)
    frames = dataclasses.replace(small_frames, block=_synthetic_raw(call), bulk=_synthetic_raw(work, mode="ecb"))
    by = {(e.claim_id, e.style): e for e in _evidence(frames)}
    ev = by[("002-t3-enc-half", "reference")]
    assert ev.estimate == pytest.approx(100.0, abs=1.0) and ev.mode == "ecb"
    assert "one-block calls as the paper timed them" in ev.detail and "+0.0 %" in ev.detail.replace("-0.0", "+0.0")


def test_table1_claims_decided_on_the_compiled_pair(small_frames):
    rows = _evidence(small_frames)
    t1 = [e for e in rows if e.claim_id.startswith("002-t1-")]
    assert len(t1) == 6 and all(e.style.startswith("numba") for e in t1)
    hash_speed = [e for e in rows if e.claim_id == "002-s4c-hash-high-speed"]
    # 'high speed' against what the hash replaces, the key-expansion IV generator: our stand-in, never deciding
    assert len(hash_speed) == 1 and hash_speed[0].style.startswith("numba") and hash_speed[0].stand_in
    # 'the original algorithm is faster than the modified': Table I's SHA-3 column (MAES as the paper specifies
    # it) is a real reading; its key-expansion column is our stand-in and only illustrates
    faster = {e.reading: e for e in t1 if e.claim_id == "002-t1-aes-keyexp-faster"}
    assert set(faster) == {"iv_source=sha3", "iv_source=keyexp"}
    assert faster["iv_source=sha3"].stand_in == "" and faster["iv_source=keyexp"].stand_in
    assert all(e.reading == "" for e in t1 if e.claim_id != "002-t1-aes-keyexp-faster")
    ext = [e for e in rows if e.claim_id == "002-ext-t1-languages"]
    assert len(ext) == 1 and "hashlib" in ext[0].style and "compiled pair" in ext[0].detail


def test_the_stand_in_never_decides_the_original_is_faster_claim(small_frames):
    """The SHA-3 reading decides, whatever the stand-in shows: it is set against the claim here (the modified key
    expansion as fast as AES's), and the verdict follows the SHA-3 IV alone."""
    ev = V.evidence_frame([e for e in _evidence(small_frames) if e.claim_id == "002-t1-aes-keyexp-faster"])
    ev = ev.assign(chapter="maes")
    claims = V.load_claims()
    claim = claims[claims["claim_id"] == "002-t1-aes-keyexp-faster"]
    sha3 = ev["reading"] == "iv_source=sha3"
    # the figures set here, not timed: the rows' shape is the chapter's, the noise a quiet machine's (a loaded one
    # made this machine's band +-45 % and the verdict inconclusive, which is right for it and not under test here)
    ev = ev.assign(estimate=ev["estimate"].where(~sha3, 60.0), low=ev["low"].where(~sha3, 50.0),
                   high=ev["high"].where(~sha3, 70.0), control_low=-2.0, control_high=2.0)
    keyexp = ev.assign(estimate=ev["estimate"].where(sha3, 0.0), low=ev["low"].where(sha3, -0.1),
                       high=ev["high"].where(sha3, 0.1))
    for frame in (ev, keyexp):
        out = V.decide_all(claim, frame).iloc[0]
        assert out["verdict"] == "reproduced" and out["reading"] == "iv_source=sha3", out["reason"]
    only_stand_in = V.decide_all(claim, ev[~sha3]).iloc[0]
    assert only_stand_in["verdict"] == "not testable"


def test_image_claims_have_one_row_per_mode(small_frames):
    rows = _evidence(small_frames)
    for cid in ("002-t4-entropy-kept", "002-t4-approach2-higher", "002-fig8-uniform"):
        got = sorted(e.reading for e in rows if e.claim_id == cid)
        assert got == sorted(f"mode={md}" for md in MODES), cid


def _keyexp_raw(iv_times: dict, n: int = 40) -> pd.DataFrame:
    """A maes_keyexp-like frame: the compiled key expansion (with its twin) and IV generation per approach and source."""
    rng = np.random.default_rng(0)
    cases = [("aes", "key_expansion", "none", role, 1e-6) for role in ("main", "control")]
    cases += [(c, "iv_generation", src, "main", t) for (c, src), t in iv_times.items()]
    return pd.DataFrame([{"impl": "numba", "cipher": c, "operation": op, "iv_source": src, "role": role, "bytes": 16,
                          "trial": i, "seconds": t * (1 + 1e-3 * rng.standard_normal()), "calls": 100, "run_id": "x"}
                         for c, op, src, role, t in cases for i in range(n)])


def test_approach1_faster_initialization_reads_both_iv_sources():
    from cipherlab.experiments.maes.evidence import approach1_init_evidence
    cid = "002-s4b-approach1-faster-init"
    mine = V.load_claims()
    mine = mine[mine["claim_id"] == cid]

    def decide(times):
        rows = approach1_init_evidence(_keyexp_raw(times), "quick", seed=1)
        assert sorted(e.reading for e in rows) == ["iv_source=keyexp", "iv_source=sha3"]
        assert all(e.size == "128-bit key" and e.control_low is not None for e in rows)
        return V.decide_all(mine, V.evidence_frame(rows).assign(chapter="maes")).iloc[0]

    paper = decide({("maes-1", "sha3"): 17e-6, ("maes-2", "sha3"): 70e-6,        # Table I's proportions
                    ("maes-1", "keyexp"): 265e-6, ("maes-2", "keyexp"): 291e-6})
    assert paper["verdict"] == "reproduced", paper["reason"]
    # the key-expansion reading is our stand-in: it is shown, never decides, whatever it shows
    one_equal = decide({("maes-1", "sha3"): 17e-6, ("maes-2", "sha3"): 70e-6,
                        ("maes-1", "keyexp"): 265e-6, ("maes-2", "keyexp"): 265e-6})
    assert one_equal["verdict"] == "reproduced" and one_equal["reading"] == "iv_source=sha3", one_equal["reason"]
    assert "stand-in, not deciding" in one_equal["other"]
    sha_equal = decide({("maes-1", "sha3"): 17e-6, ("maes-2", "sha3"): 17e-6,
                        ("maes-1", "keyexp"): 265e-6, ("maes-2", "keyexp"): 291e-6})
    assert sha_equal["verdict"] == "contradicted", sha_equal["reason"]


def test_sha3_ivs_more_secure_fails_and_key_expansion_ivs_not_secure_holds_as_written(monkeypatch):
    """'SHA-3 IVs increase security' fails: MAES is byte-local with either IV source. 'This approach [key-expansion
    IVs] is not secure' is decided as written (MAES with key-expansion IVs is byte-local, so the codebook attack
    reads it: holds); the reason the paper gives (the IV source) is the first row's contrast, decided there."""
    opts = {"sha3": "sha3_256", "sha3_chain": "iv"}
    claims = V.load_claims()
    mine = claims[claims["claim_id"] == "002-s4c-keyexp-not-secure"]
    assert mine.iloc[0]["readings"] == "" and mine.iloc[0]["rule"] == "holds"

    def run():
        rows = evidence.iv_source_evidence(KEY, opts, "quick")
        got = {(e.claim_id, e.reading): e.holds for e in rows}
        out = V.decide_all(mine, V.evidence_frame([e for e in rows if e.claim_id == mine.iloc[0]["claim_id"]])
                           .assign(chapter="maes")).iloc[0]
        return got, out

    got, out = run()
    assert got == {("002-s4c-sha3-more-secure", ""): False, ("002-s4c-keyexp-not-secure", ""): True}
    assert out["verdict"] == "reproduced", out["reason"]
    real = evidence.byte_routes
    # were SHA-3 IVs to diffuse (synthetic), the contrast would hold; the statement holds still
    monkeypatch.setattr(evidence, "byte_routes",
                        lambda c, key, iv_source, **kw: None if iv_source == "sha3" else real(c, key, iv_source=iv_source, **kw))
    got, out = run()
    assert got[("002-s4c-sha3-more-secure", "")] is True and out["verdict"] == "reproduced", out["reason"]
    # were both to diffuse (synthetic), MAES with key-expansion IVs would not be read: the statement fails
    monkeypatch.setattr(evidence, "byte_routes", lambda c, key, iv_source, **kw: None)
    got, out = run()
    assert not any(got.values()) and out["verdict"] == "contradicted", out["reason"]

def test_a_garbled_cell_gives_one_reading_per_way_it_reads_and_no_misprint_is_drawn_from_the_prose(monkeypatch):
    """No correction rests on the sentence it would certify: Table I's '291 . . . Lus' and Table III's '253 S' are
    garbled in the text copy and nothing outside the prose under check tells their readings apart, so each is
    decided under both (data/paper/002_open_readings.csv), the printed one first: the prose's 'double' (70 / 291)
    and its 500 % and one-fifth (253 / 30 = x8.43) disagree with the printed cells and agree with 29.1 and 153.
    A misprint documented on outside evidence is still read as corrected (a synthetic one here), and then the
    cell it corrects has one reading."""
    assert evidence.open_readings()[("Table I", "Approach 2: One IV vector generation for each round", "Time (key expansion)")][0][0] == 29.1
    got: dict[str, list] = {}
    for e in evidence.prose_tables_evidence("quick"):
        got.setdefault(e.claim_id, []).append(e)
    t3, t1 = got["002-prose-t3-consistent"], got["002-prose-t1-consistent"]
    assert [e.holds for e in t3] == [False, True] and [e.holds for e in t1] == [False, True]
    assert t3[0].estimate == 2 and "253 / 30 = x8.43 (disagrees)" in t3[0].detail and "253 us (as printed)" in t3[0].reading
    assert "153 / 30 = x5.1 (agrees)" in t3[1].detail and "153 us" in t3[1].reading
    assert t1[0].estimate == 1 and "70 / 291 = x0.241 (disagrees)" in t1[0].detail
    assert "70 / 29.1 = x2.41 (agrees)" in t1[1].detail
    assert not any("misprint" in e.detail for e in t3 + t1)
    # no garbled cell: one row per approach (the prose names none)
    assert [e.reading for e in got["002-prose-t2-consistent"]] == ["approach=1", "approach=2"]
    assert not evidence._paper.published("002")["table"].str.endswith("(misprints)").any()
    real = evidence._paper.published

    def with_misprint(paper, table=None):
        df = real(paper, table)
        if paper == "002" and (table is None or table == "Table III (misprints)"):
            extra = pd.DataFrame([{"paper": "002", "table": "Table III (misprints)", "row": "row Original AES",
                                   "column": "column Decryption", "value": "153", "unit": "us",
                                   "note": "synthetic outside evidence", "number": 153.0}])
            df = pd.concat([df, extra], ignore_index=True)
        return df
    monkeypatch.setattr(evidence._paper, "published", with_misprint)
    t3 = [e for e in evidence.prose_tables_evidence("quick") if e.claim_id == "002-prose-t3-consistent"]
    assert len(t3) == 1 and t3[0].holds is True and t3[0].reading == ""
    assert "153 / 30 = x5.1 (printed 253, a documented misprint read as 153) (agrees)" in t3[0].detail


def test_readings_of_a_garbled_cell_that_disagree_leave_the_prose_row_inconclusive_and_agreeing_ones_decide():
    """The registry's rows take the readings as open: one reading that holds where another fails is inconclusive
    (readings_disagree), never a defect of the paper signed on an unreadable cell; readings that all fail would
    still contradict it (the engine's rule, on the same rows with the second reading failing too)."""
    claims = V.load_claims()
    rows = claims[claims["claim_id"].isin(["002-prose-t1-consistent", "002-prose-t3-consistent"])]
    assert (rows["readings"] == "open").all()
    evs = [e for e in evidence.prose_tables_evidence("quick") if e.claim_id != "002-prose-t2-consistent"]
    ev = V.evidence_frame(evs).assign(chapter="maes")
    out = V.decide_all(rows, ev).set_index("claim_id")
    assert (out["verdict"] == "inconclusive").all() and (out["outcome"] == "readings_disagree").all()
    failing = [dataclasses.replace(e, holds=False, estimate=1.0) for e in evs]
    out = V.decide_all(rows, V.evidence_frame(failing).assign(chapter="maes")).set_index("claim_id")
    assert (out["verdict"] == "contradicted").all()


def test_table_ii_prose_is_checked_against_table_ii_under_each_approach_it_leaves_open():
    """'reduced to the half' (x2 against 0.06 / 0.03) agrees under both approaches; 'lower by 50 times' is read as
    about 50 times (within 25 %), as 002-t2-invmix-50x reads the same words: approach 1's x59 agrees, approach 2's
    x78.7 does not. The prose names no approach, so the two readings are open and, disagreeing, leave the row
    inconclusive; were both to agree (synthetic), it would hold."""
    rows = [e for e in evidence.prose_tables_evidence("quick") if e.claim_id == "002-prose-t2-consistent"]
    one, two = rows
    assert (one.reading, one.holds, one.n) == ("approach=1", True, 2) and one.section == "maes-table2"
    assert "x50, Table II gives 2.36 / 0.04 = x59 (agrees)" in one.detail
    assert (two.reading, two.holds, two.estimate) == ("approach=2", False, 1)
    assert "2.36 / 0.03 = x78.7 (disagrees)" in two.detail
    claims = V.load_claims()
    mine = claims[claims["claim_id"] == "002-prose-t2-consistent"]
    assert mine.iloc[0]["readings"] == "open"
    out = V.decide_all(mine, V.evidence_frame(rows).assign(chapter="maes")).iloc[0]
    assert out["verdict"] == "inconclusive" and out["outcome"] == "readings_disagree", out["reason"]
    both = [dataclasses.replace(e, holds=True, estimate=0.0) for e in rows]
    assert V.decide_all(mine, V.evidence_frame(both).assign(chapter="maes")).iloc[0]["verdict"] == "reproduced"


def test_approach_2s_table_ii_ratio_within_25_percent_of_50_times_would_agree(monkeypatch):
    real = evidence._paper.published

    def fast_xor(paper, table=None):        # InvMixColumns 2.36 against XOR 0.04 -> 0.047: x50.2, within 25 %
        df = real(paper, table)
        if table == "Table II":
            hit = (df["column"] == "Decryption") & df["row"].str.startswith("Approach 2")
            df = df.assign(number=df["number"].where(~hit, 0.047))
        return df
    monkeypatch.setattr(evidence._paper, "published", fast_xor)
    rows = [e for e in evidence.prose_tables_evidence("quick") if e.claim_id == "002-prose-t2-consistent"]
    assert [e.holds for e in rows] == [True, True] and "2.36 / 0.047 = x50.2 (agrees)" in rows[1].detail


def test_a_prose_ratio_within_25_percent_of_the_tables_agrees(monkeypatch):
    real = evidence._paper.published

    def table3(paper, table=None):          # decryption 187.5 us: x6.25, within 25 % of x6 and of x5
        df = real(paper, table)
        df = df[~df["table"].isin(["Table III (misprints)", "Table III (open readings)"])]
        if table == "Table III":
            hit = (df["row"] == "Original AES") & (df["column"] == "Decryption")
            df = df.assign(number=df["number"].where(~hit, 187.5))
        return df
    monkeypatch.setattr(evidence._paper, "published", table3)
    t3 = [e for e in evidence.prose_tables_evidence("quick") if e.claim_id == "002-prose-t3-consistent"]
    assert len(t3) == 1 and t3[0].holds is True and t3[0].estimate == 0


def test_complete_randomness_has_the_ideal_entropy_8_and_a_finite_file_falls_short_by_the_bias(small_frames):
    """'The entropy must be 8 to indicate a complete randomness': the ideal (uniform bytes, log2 256) is 8; a file
    the image's size falls short of it by 255 / (2 N ln 2), shown beside, 8 at the whole bits the sentence gives."""
    ev = {e.claim_id: e for e in _evidence(small_frames)}["002-s6d-entropy-must-be-8"]
    n = ev.n
    assert ev.holds is True and ev.estimate == 8.0
    assert f"{8 - 255 / (2 * n * np.log(2)):.5f} bits" in ev.detail and "log2 256" in ev.detail


def test_entropy_below_8_by_a_small_margin_is_not_testable_and_gets_no_evidence(small_frames):
    """'Less than 8 by a small margin': below 8 is true of any sample not exactly uniform, and 'small' has no scale
    but Table IV, which 002-t4-values finds incomparable: not testable, with that reason, and no evidence row."""
    assert "002-t4-below-8" not in {e.claim_id for e in _evidence(small_frames)}
    row = V.load_claims().set_index("claim_id").loc["002-t4-below-8"]
    assert row["rule"] == "not_testable" and "002-t4-values" in row["note"] and "small" in row["note"]


def test_fig8_names_the_approach_with_the_larger_chi_square_even_where_both_p_values_underflow():
    """Both p-values 0 (underflow): the larger chi-square is the worse approach, and the detail names the one that
    decides with its own p and the other beside it (a referee found maes-1 named where maes-2's chi2 was larger)."""
    e = pd.DataFrame({"cipher": ["maes-1", "maes-2"], "chi2": [101272.0, 111504.0], "p_value": [0.0, 0.0],
                      "bytes": [1000, 1000]})
    got = entropy.fig8_worst(e)
    assert got["detail"].startswith("chi-square of the byte counts, 255 df, the worse of the approaches: maes-2 "
                                    "chi2 = 111504, p = 0 (beside it maes-1 chi2 = 101272")
    e = pd.DataFrame({"cipher": ["maes-1", "maes-2"], "chi2": [300.0, 270.0], "p_value": [0.0277, 0.2546],
                      "bytes": [1000, 1000]})
    got = entropy.fig8_worst(e)
    assert got["p_value"] == 0.0277 and "worse of the approaches: maes-1 chi2 = 300, p = 0.0277" in got["detail"]
    assert "maes-2 chi2 = 270, p = 0.255" in got["detail"]


def test_results_a_little_worse_against_the_optimized_aes_are_a_small_fall_under_every_comparison(small_frames):
    """'These results are a little worse when using optimized implementation': MAES's speed-up falls from over the
    original AES to over the optimized AES, by a small effect (rule small_effect: within the slight effect's reach),
    like for like and as the paper compares, in encryption and decryption (four readings, every one holding)."""
    cid = "002-s5-optimized-little-worse"
    claims = V.load_claims()
    mine = claims[claims["claim_id"] == cid]
    assert mine.iloc[0]["rule"] == "small_effect" and mine.iloc[0]["readings"] == "every"

    def decide(ref_aes, ref_maes, table_aes, table_maes):
        times = {}
        for o in ("encrypt", "decrypt"):
            for i, aes, maes in (("reference", ref_aes, ref_maes), ("table", table_aes, table_maes),
                                 ("aesni", 1.0, 1.0)):
                times.update({("aes", i, o): aes, ("maes-1", i, o): maes, ("maes-2", i, o): maes})
        frames = dataclasses.replace(small_frames, block=_synthetic_raw(times), bulk=_synthetic_raw(times, mode="ecb"))
        rows = [e for e in _evidence(frames) if e.claim_id == cid]
        assert len(rows) == 4 and len({e.reading for e in rows}) == 4
        return V.decide_all(mine, V.evidence_frame(rows).assign(chapter="maes")).iloc[0]

    # over the original AES +25 %, over the optimized +21 % like for like and (the byte-oriented MAES against the
    # optimized AES) +15 %: a fall of 4 and 10 points, a little worse under every reading
    out = decide(1.25, 1.0, 1.15, 0.95)
    assert out["verdict"] == "reproduced", out["reason"]
    # over the original x2.5, over the optimized x1.1 like for like: a fall of 140 points, far more than a little
    out = decide(2.5, 1.0, 0.5, 0.45)
    assert out["verdict"] == "not reproduced" and out["outcome"] == "size_excluded", out["reason"]
    # like for like better over the optimized AES (x2.5 against x3): the reverse of 'worse'
    out = decide(2.5, 1.0, 3.0, 1.0)
    assert out["verdict"] == "contradicted" and "like for like" in out["reason"]


def _scaled_steps(steps: pd.DataFrame, factors: dict) -> pd.DataFrame:
    """The steps timings' layout with synthetic times (every step 1 ms a call, 0.1 % noise), each (operation, step)
    scaled, twins included: the verdicts cannot depend on this machine's load."""
    rng = np.random.default_rng(0)
    s = steps.assign(seconds=1e-3 * (1 + 1e-3 * rng.standard_normal(len(steps))))
    for (op, step), k in factors.items():
        sel = (s["operation"] == op) & (s["step"] == step)
        s.loc[sel, "seconds"] = s.loc[sel, "seconds"] * k
    return s


def test_every_table_ii_row_is_decided_on_the_step_harness_in_one_style(small_frames):
    """Table II's rows on one harness (each step in one compiled loop) and one style (reference, Table II's
    'Original AES'): the separately called stage harness is shown beside and never changes a figure."""
    ids = {"002-t2-mixcol-half", "002-t2-invmix-50x", "002-s4a-xor-much-less", "002-t2-invmix-costlier"}
    rows = evidence.table2_evidence(small_frames.steps, small_frames.stage, "quick")
    assert {e.claim_id for e in rows} == ids
    assert {e.style for e in rows} == {"reference"} and {e.section for e in rows} == {"maes-steps"}
    other = small_frames.stage.assign(seconds=small_frames.stage["seconds"] * 7.0)
    again = evidence.table2_evidence(small_frames.steps, other, "quick")
    assert [e.estimate for e in rows] == [e.estimate for e in again]
    claims = V.load_claims()
    mine = claims[claims["claim_id"].isin(ids)]
    assert set(mine["decided_by"]) == {"style=reference"} and set(mine["section"]) == {"maes-steps"}

    def much_less(k_mix):
        """MixColumns and InvMixColumns scaled against a fixed XOR stage (AddRoundKey)."""
        st = _scaled_steps(small_frames.steps, {("encrypt", "mix_columns"): k_mix,
                                                ("decrypt", "inv_mix_columns"): k_mix})
        ev = [e for e in evidence.table2_evidence(st, small_frames.stage, "quick")
              if e.claim_id == "002-s4a-xor-much-less"]
        return V.decide_all(mine[mine["claim_id"] == "002-s4a-xor-much-less"],
                            V.evidence_frame(ev).assign(chapter="maes")).iloc[0]

    # MixColumns ten times the XOR stage: the direction holds, its size is the machine's (carries: direction)
    assert much_less(10.0)["verdict"] == "machine-bound"
    # MixColumns half the XOR stage: the XOR stage is not less, the sentence fails
    assert much_less(0.5)["verdict"] == "contradicted"
