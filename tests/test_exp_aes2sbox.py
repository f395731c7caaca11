"""Tests of the AES-2SBox chapter's runners and tables (the package cipherlab.experiments.aes2sbox)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from cipherlab.analysis import paper, verdicts
from cipherlab.present import table_layout as L
from cipherlab.experiments.aes2sbox import audit, avalanche, common, evidence, measure, sboxes, tables
from cipherlab.experiments.aes2sbox import evidence as E
from cipherlab.experiments.aes2sbox.chapter import CHAPTER
from cipherlab.experiments.aes2sbox import views as V
from cipherlab.ciphers.sboxes import second_sbox

FIPS_KEY = "2b7e151628aed2a6abf7158809cf4f3c"

pytestmark = pytest.mark.filterwarnings("ignore::cipherlab.InsecureCipherWarning")


def naive_bits(a: bytes, b: bytes) -> int:
    return sum(bin(x ^ y).count("1") for x, y in zip(a, b))


# --- Tables 1-2 ---------------------------------------------------------------

def test_sbox_grid_layout():
    sbox = np.arange(256, dtype=np.uint8)[::-1].copy()
    grid = sboxes.sbox_grid(sbox)
    assert grid.shape == (16, 16)
    assert grid.loc["0", "0"] == "FF" and grid.loc["1", "7"] == f"{255 - 0x17:02X}" and grid.loc["F", "F"] == "00"
    with pytest.raises(ValueError, match="256"):
        sboxes.sbox_grid(np.zeros(10, dtype=np.uint8))
    printed = sbox.copy()
    printed[0x17] = 0x00
    marked = sboxes.sbox_grid(sbox, printed)
    assert marked.loc["1", "7"] == f"{255 - 0x17:02X} (printed 00)"
    assert (marked != grid).sum().sum() == 1


def test_sbox_diff_lists_exactly_the_differing_cells():
    ours, ours_inv = second_sbox(0x7F)
    pub, pub_inv = ours.copy(), ours_inv.copy()
    pub[0x17] = pub[0x5D]          # a duplicate, as in the papers' misprint
    pub_inv[0x00] ^= 0x10           # a second, one-bit difference in the inverse
    d = sboxes.sbox_diff(ours, ours_inv, pub, pub_inv)
    assert list(zip(d["table"], d["index"])) == [("Table 1", "17"), ("Table 2", "00")]
    assert d.loc[0, "published"] == f"{pub[0x17]:02X}" and d.loc[0, "ours"] == f"{ours[0x17]:02X}"
    assert "misprint" in d.loc[0, "cause"] and "row 5 column D" in d.loc[0, "cause"]
    assert d.loc[1, "differing_bits"] == 1
    assert sboxes.sbox_diff(ours, ours_inv, ours, ours_inv).empty


@pytest.mark.parametrize("which", common.PAPERS)
def test_published_tables_differ_from_construction_in_cells_found_naively(which):
    ours, ours_inv = second_sbox(sboxes.published_key_byte(which))
    pub, pub_inv = sboxes.published_sboxes(which)
    expected = {("Table 1", f"{x:02X}") for x in range(256) if ours[x] != pub[x]} | \
               {("Table 2", f"{x:02X}") for x in range(256) if ours_inv[x] != pub_inv[x]}
    d = sboxes.sbox_diff_table(which)
    assert set(zip(d["table"], d["index"])) == expected
    assert len(d) == len(expected)


def test_construction_match_counts_agree_with_naive_count():
    cm = sboxes.construction_match_table(["000"]).set_index(["table", "construction"])
    pub, _ = sboxes.published_sboxes("000")
    lit, _ = second_sbox(0x7F, "xor-sbox")
    assert cm.loc[("Table 1", "xor-sbox"), "matching"] == sum(int(a == b) for a, b in zip(lit, pub))
    assert not cm.loc[("Table 1", "xor-index"), "printed_is_permutation"]


# --- the papers' statistics ---------------------------------------------------

def test_audit_reproduces_t_computed_by_hand_from_published_numbers():
    t3 = paper.published("000", "Table 3").set_index(["row", "column"])["number"]
    m1, m2 = t3[("Mean", "AES-Rijndael")], t3[("Mean", "AES-2SBox")]
    v1, v2 = t3[("Variance", "AES-Rijndael")], t3[("Variance", "AES-2SBox")]
    n1, n2 = t3[("Observations", "AES-Rijndael")], t3[("Observations", "AES-2SBox")]
    t_hand = (m1 - m2) / math.sqrt(v1 / n1 + v2 / n2)
    df_hand = (v1 / n1 + v2 / n2) ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
    a = audit.audit_published_stats(["000"])
    sel = a[(a["table"] == "Table 3")]
    assert sel.loc[sel["quantity"] == "t Stat", "recomputed"].item() == pytest.approx(t_hand, rel=1e-12)
    dfs = sel.loc[sel["quantity"] == "df", "recomputed"].to_numpy()
    assert sorted(dfs) == pytest.approx(sorted([df_hand, round(df_hand)]))


def test_audit_flags_what_does_not_agree():
    a = audit.audit_published_stats(["000"])
    bits = a[(a["table"] == "Table 6") & (a["quantity"] == "pair 1 changed bits")].iloc[0]
    ct = paper.published("000", "Table 6")
    ca = ct[(ct["row"] == "1") & (ct["column"] == "Ciphertext")]["value"].item()
    cb = ct[(ct["row"] == "2") & (ct["column"] == "Ciphertext")]["value"].item()
    assert bits["recomputed"] == naive_bits(bytes.fromhex(ca), bytes.fromhex(cb))
    assert bool(bits["consistent"]) == (int(bits["published"]) == bits["recomputed"])


@pytest.mark.parametrize("printed,value,ok", [
    ("171.75", 171.75, True), ("6.121727783", 6.1217277829, True), ("6.121727783", 6.1217278, False),
    ("2.66968E-07", 2.6696805e-07, True), ("2.66968E-07", 2.7485e-07, False), ("35", 34.74, True), ("35", 33.9, False),
    ("not a number", 1.0, False),
])
def test_agrees_as_printed(printed, value, ok):
    assert audit.agrees_as_printed(printed, value) is ok


# --- avalanche ----------------------------------------------------------------

def test_changed_bits_equals_naive_count():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 256, (50, 16), dtype=np.uint8), rng.integers(0, 256, (50, 16), dtype=np.uint8)
    got = avalanche.changed_bits(a, b)
    assert list(got) == [naive_bits(x.tobytes(), y.tobytes()) for x, y in zip(a, b)]
    assert avalanche.changed_bits(b"\x0f", b"\xf0") == 8
    with pytest.raises(ValueError, match="same shape"):
        avalanche.changed_bits(a, b[:3])


def test_avalanche_pair_counts_equal_naive_count_of_our_ciphertexts():
    from cipherlab.ciphers.modes import new

    pairs = avalanche.avalanche_pairs(["001"], key=FIPS_KEY, impl="reference")
    for r in pairs.itertuples():
        opts = {"xor_byte": 0x7F} if r.cipher == "aes-2sbox" else {}
        enc = new(bytes.fromhex(FIPS_KEY), cipher=r.cipher, mode="ecb", impl="table", padding=False, **opts)
        ca = enc.encrypt(bytes.fromhex(r.plaintext_a))
        cb = enc.encrypt(bytes.fromhex(r.plaintext_b))
        assert r.ciphertext_a == ca.hex().upper() and r.ciphertext_b == cb.hex().upper()
        assert r.changed_bits == naive_bits(ca, cb)
        assert r.percent == pytest.approx(100 * naive_bits(ca, cb) / 128)


def test_avalanche_distribution_matches_per_block_loop():
    from cipherlab.ciphers.modes import new

    dist = avalanche.avalanche_distribution(n_plaintexts=3, n_keys=2, key=FIPS_KEY, seed=5, ciphers=("aes-2sbox",))
    assert len(dist) == 2 * 3 * 128
    rng = np.random.default_rng(5)
    keys = [bytes.fromhex(FIPS_KEY), rng.integers(0, 256, 16, dtype=np.uint8).tobytes()]
    plain = rng.integers(0, 256, (3, 16), dtype=np.uint8)
    for k, key in enumerate(keys):
        enc = new(key, cipher="aes-2sbox", mode="ecb", impl="reference", padding=False, xor_byte=0x7F)
        for i in range(3):
            base = enc.encrypt(plain[i].tobytes())
            for p in (0, 7, 8, 77, 127):
                flipped = bytearray(plain[i].tobytes())
                flipped[p // 8] ^= 0x80 >> (p % 8)
                want = naive_bits(base, enc.encrypt(bytes(flipped)))
                row = dist[(dist["key_index"] == k) & (dist["plaintext"] == i) & (dist["bit_position"] == p)]
                assert row["changed_bits"].item() == want
    # AES-2SBox has no diffusion between bytes: one flipped bit changes exactly one output byte.
    assert (dist["changed_bytes"] == 1).all()


def test_avalanche_summary_and_histogram_are_consistent():
    dist = pd.DataFrame({"cipher": ["aes"] * 4, "changed_bits": [60, 64, 68, 64], "changed_bytes": [16] * 4,
                         "bit_position": [0, 1, 2, 3]})
    s = avalanche.avalanche_summary(dist).iloc[0]
    assert s["mean_bits"] == 64 and s["min_bits"] == 60 and s["max_bits"] == 68 and s["share_at_least_half"] == 0.75
    h = avalanche.avalanche_histogram(dist)
    assert h["count"].sum() == 4 and h.loc[h["changed_bits"] == 64, "count"].item() == 2
    assert h["ideal_share"].sum() == pytest.approx(1.0)


def test_avalanche_distribution_rejects_bad_counts():
    with pytest.raises(ValueError, match="n_plaintexts"):
        avalanche.avalanche_distribution(n_plaintexts=0)
    with pytest.raises(ValueError, match="n_keys"):
        avalanche.avalanche_distribution(n_plaintexts=1, n_keys=0)


# --- speed ----------------------------------------------------------------------

#: The papers' file sizes (59 KB and 50 KB, KB = 1024 bytes: config/config.yaml), so the fakes are at the claims' condition.
PROTOCOL_BYTES = {"000": 60416, "001": 51200}


def _fake_raw(old_ms, new_ms, control_ms=None, protocol="000", operation="encrypt", impl="table", processes=None):
    """Trials of one process, or (``processes``) the trials split evenly over that many processes in order."""
    rows = []
    series = [("aes", "main", old_ms), ("aes-2sbox", "main", new_ms),
              ("aes", "control", old_ms if control_ms is None else control_ms)]
    for cipher, instance, ms in series:
        for t, v in enumerate(ms):
            rows.append({"cipher": cipher, "instance": instance, "impl": impl, "mode": "ecb", "operation": operation,
                         "bytes": PROTOCOL_BYTES[protocol], "trial": t, "seconds": v / 1e3, "calls": 1, "run_id": "r",
                         "protocol": protocol, **({} if processes is None else
                                                  {"process": t * processes // len(ms)})})
    return pd.DataFrame(rows)


def test_welch_side_by_side_uses_the_trials_in_ms():
    from scipy import stats

    old, new = [10.0, 12.0, 11.0, 13.0], [5.0, 6.0, 5.5, 7.0]
    side = tables.welch_side_by_side(_fake_raw(old, new), "000", "encrypt", "table")
    assert side.loc["Mean", "ours AES-Rijndael"] == pytest.approx(np.mean(old))
    assert side.loc["Variance", "ours AES-2SBox"] == pytest.approx(np.var(new, ddof=1))
    assert side.loc["t Stat", "ours AES-Rijndael"] == pytest.approx(stats.ttest_ind(old, new, equal_var=False).statistic)
    assert side.loc["Mean", "published AES-Rijndael"] == paper.published("000", "Table 3").query(
        "row == 'Mean' and column == 'AES-Rijndael'")["value"].item()


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


def test_speed_cases_time_a_control_instance_and_skip_what_cannot_be_built():
    data = bytes(range(256)) * 3 + b"odd"
    skipped = []
    cases = measure.speed_cases(data, key=FIPS_KEY, impls=("reference", "aesni"), labels={"protocol": "000"},
                          skipped=skipped)
    got = {(c["cipher"], c["instance"], c["impl"], c["operation"]) for c in cases}
    want = {(c, i, "reference", o) for c, i in (("aes", "main"), ("aes", "control"), ("aes-2sbox", "main"))
            for o in common.OPERATIONS}
    assert want <= got
    # aesni is cipherlab's AES-NI style (every registered cipher); where the CPU lacks it,
    # AES-2SBox is listed as skipped and no control is timed
    if any(c["cipher"] == "aes-2sbox" and c["impl"] == "aesni" for c in cases):
        assert not skipped
    else:
        assert [(s["cipher"], s["impl"]) for s in skipped] == [("aes-2sbox", "aesni")]
        assert not any(c["instance"] == "control" and c["impl"] == "aesni" for c in cases)
    dec = next(c for c in cases if c["cipher"] == "aes-2sbox" and c["operation"] == "decrypt")
    assert dec["fn"]().tobytes() == data and dec["bytes"] == len(data) and dec["protocol"] == "000"
    ctl = next(c for c in cases if c["instance"] == "control" and c["operation"] == "encrypt")
    main = next(c for c in cases if c["instance"] == "main" and c["cipher"] == "aes" and c["impl"] == "reference"
                and c["operation"] == "encrypt")
    assert ctl["fn"]().tobytes() == main["fn"]().tobytes() and ctl["fn"] is not main["fn"]
    # the styles are the chapter's parameter: a bad one stops at the door, naming the key
    for bad in (["fast"], []):
        with pytest.raises(ValueError, match=r"aes2sbox\.impls"):
            CHAPTER.make_params({"impls": bad})


def test_run_protocols_gives_tidy_batched_trials():
    raw, first, skipped = measure.run_protocols({"001": {"file": "f", "trials": 2, "warmup": 0}}, lambda name: b"a" * 100,
                                          key=FIPS_KEY, impls=("table",), progress=False, min_trial_seconds=1e-3)
    assert len(raw) == 3 * 2 * 2 and set(raw["protocol"]) == {"001"} and (raw["seconds"] > 0).all()
    assert (raw["calls"] > 1).all()       # a 100-byte call is far shorter than 1 ms: batched
    assert set(zip(raw["cipher"], raw["instance"])) == {("aes", "main"), ("aes", "control"), ("aes-2sbox", "main")}
    assert len(first) == 6 and (first["first_call_seconds"] > 0).all() and skipped.empty
    # a protocol is the chapter's parameter: one without trials stops at the door, naming the key
    with pytest.raises(ValueError, match=r"aes2sbox\.protocols\.001: 'trials' is a required property"):
        CHAPTER.make_params({"protocols": {"001": {"file": "f", "warmup": 0}}})


def test_bad_paper_is_rejected():
    with pytest.raises(ValueError, match="paper"):
        sboxes.published_sboxes("002")


# --- evidence and the engine's verdicts ----------------------------------------------

def _chapter_evidence(raw):
    dist = avalanche.avalanche_distribution(n_plaintexts=4, key=FIPS_KEY)
    return E.chapter_evidence(audit=audit.audit_published_stats(), pairs=avalanche.avalanche_pairs(key=FIPS_KEY), dist=dist,
                              summary=avalanche.avalanche_summary(dist), speed_raw=raw, construction="xor-index",
                              profile="quick", avalanche_impl="table", key_label="FIPS key")


def _decide(rows):
    ev = verdicts.evidence_frame(rows).assign(chapter="aes2sbox")
    claims = verdicts.load_claims()
    return verdicts.decide_all(claims[claims["claim_id"].isin(ev["claim_id"])], ev).set_index("claim_id")


def _fake_protocols(old, new, ctl, impl="reference", processes=None):
    return pd.concat([_fake_raw(old, new, ctl, protocol=p, operation=o, impl=impl, processes=processes)
                      for p in common.PAPERS for o in common.OPERATIONS], ignore_index=True)


def test_evidence_covers_every_claim_of_papers_000_and_001():
    raw = _fake_protocols([10.0, 11.0, 12.0], [5.0, 6.0, 7.0], [10.0, 11.0, 12.0])
    rows = _chapter_evidence(raw)
    claims = verdicts.load_claims()
    mine = claims[claims["paper"].isin(common.PAPERS) & (claims["scope"] == "claim") & (claims["rule"] != "not_testable")]
    covered = {r.claim_id for r in rows}
    # the claims of 000/001 decided elsewhere: the key-free attack of the security chapter, and the MixColumns
    # premise, which the MAES chapter declares it decides (it measures MixColumns' share)
    from cipherlab.experiments.maes.evidence import OTHER_PAPER_CLAIMS
    assert set(mine["claim_id"]) - covered == ({f"{p}-security-slightly-weakened" for p in common.PAPERS}
                                               | {c for c, p in OTHER_PAPER_CLAIMS.items() if p in common.PAPERS})
    ours = claims[claims["paper"].isin(common.PAPERS) & (claims["scope"] == "extension")]
    assert covered - set(mine["claim_id"]) == {f"{p}-ext-affine-all-keys" for p in common.PAPERS}
    assert covered - set(mine["claim_id"]) <= set(ours["claim_id"])      # the chapter's own findings are declared
    speed = [r for r in rows if r.section == common.SPEED_SECTION]
    assert speed and all(r.control_low is not None for r in speed)    # the A/A band beside every comparison
    assert all(r.size and r.style and r.profile for r in speed)


def test_avalanche_claim_has_one_verdict_in_the_whole_registry():
    from cipherlab.experiments.security import evidence as SE

    claims = verdicts.load_claims()
    aval = claims[claims["claim_id"].str.contains("avalanche") & (claims["scope"] == "claim")
                  & (claims["section"] != "aes2sbox-audit")]   # the audit checks the papers' own arithmetic
    # one row per sentence: each paper's Section 'slightly lower than 50 %', and 001's abstract 'below'
    assert set(aval["claim_id"]) == {f"{p}-avalanche-slightly-below-50" for p in common.PAPERS} | {
        "001-abstract-avalanche-below-min"}
    assert "avalanche" not in " ".join(SE.PAPER_CIPHERS)    # the security chapter adds no avalanche claim


def test_structural_claims_follow_the_data():
    raw = _fake_protocols([10.0, 11.0, 12.0], [5.0, 6.0, 7.0], [10.0, 11.0, 12.0])
    out = _decide(_chapter_evidence(raw))
    v = out["verdict"]
    assert v["000-t1-second-sbox"] == v["000-t2-inverse-sbox"] == "reproduced"   # one documented misprint
    assert v["000-construction"] == "contradicted"                               # the prose's reading: 0 of 256
    assert v["000-aval-pair1-count"] == "contradicted"                           # 31 printed, 32 differ
    assert v["001-aval-pair1-count"] == "reproduced"                             # 32 printed
    assert v["000-aval-pair1-ciphertexts"] == "contradicted"                     # 7 bytes, at most 1 reachable
    # 7F holds, 32 key bytes do not: two fair readings the paper leaves open that disagree (readings: open)
    assert v["000-affine-invertible-no-fixed-points"] == "inconclusive"
    assert v["000-ext-affine-all-keys"] == "finding"                            # other key bytes: our finding
    assert v["000-avalanche-slightly-below-50"] == "not reproduced"              # below 50 %, far more than slightly
    assert v["000-t3-welch-consistent"] == "reproduced"
    # the printed avalanche percentages (24.219 %, 19.531 %; 001: 25 %, 19.531 %) cannot come from the cipher
    assert v["000-aval-printed-possible"] == v["001-aval-printed-possible"] == "contradicted"
    assert v["000-eq2-inverts-eq1"] == v["001-eq2-inverts-eq1"] == "reproduced"
    assert v["000-s1-fips197-year"] == "contradicted" and v["001-s1-fips197-year"] == "reproduced"
    # 'lightweight' read as less computation: AES-2SBox faster than AES in both operations (the fake times)
    assert v["000-s4-lightweight"] == "reproduced" and "every reading" in out.loc["000-s4-lightweight", "reading"]
    # the papers' own avalanche percentages follow from their own counts (31, 25 and 32, 25 of 128 bits)
    assert v["000-aval-pct-consistent"] == v["001-aval-pct-consistent"] == "reproduced"
    # but 001's conclusion prints 19.351 % for its table's 25 of 128 bits (19.531 %): a false statement, not a size
    assert v["001-s6-avalanche-second-pair"] == "contradicted"
    assert out.loc["001-s6-avalanche-second-pair", "outcome"] == "statement_false"
    # a quoted definition of the avalanche effect, not a claim about the experiment: never decided
    # 001's abstract: below the expected 50 % (AES-2SBox changes one byte per flip); the papers' decryption order
    assert v["001-abstract-avalanche-below-min"] == "reproduced"
    assert v["000-decryption-order"] == v["001-decryption-order"] == "reproduced"
    assert "000-avalanche-definition" not in v and "001-avalanche-definition" not in v      # no evidence written
    reg = verdicts.load_claims().set_index("claim_id")
    assert set(reg.loc[["000-avalanche-definition", "001-avalanche-definition"], "rule"]) == {"not_testable"}
    assert v["001-table-numbers-unique"] == "contradicted"                      # two tables numbered 5
    # the conclusion's 'significantly / greatly increased': both operations, as the significance rows
    for p in common.PAPERS:
        assert v[f"{p}-s8-speed-increased"] == v[f"{p}-t3-enc-significant"] == v[f"{p}-t4-dec-significant"]
        assert "every reading" in out.loc[f"{p}-s8-speed-increased", "reading"]


@pytest.mark.parametrize("printed, holds", [(6.25, True), (6.26, False), (24.219, False)])
def test_a_printed_avalanche_is_possible_only_up_to_the_bits_its_bytes_reach(printed, holds):
    """One plaintext byte reaches one ciphertext byte in AES-2SBox: at most 8 of 128 bits (6.25 %) can flip."""
    pairs = pd.DataFrame([{"paper": "000", "pair": 1, "input_bytes": 1, "published_percent": 1.0},
                          {"paper": "000", "pair": 2, "input_bytes": 1, "published_percent": printed}])
    ev = E.printed_avalanche_evidence("000", pairs, {"max_changed_bytes": 1, "flips": 128}, profile="quick",
                                      style="table")
    assert ev.claim_id == "000-aval-printed-possible" and ev.holds is holds and ev.estimate == printed
    assert "at most 6.25 % possible" in ev.detail
    two = E.printed_avalanche_evidence("000", pairs.assign(input_bytes=2), {"max_changed_bytes": 1, "flips": 128},
                                       profile="quick", style="table")
    assert two.holds is (printed <= 12.5)        # two differing plaintext bytes reach two ciphertext bytes


def test_eq2_inverts_eq1_only_with_the_printed_constants(monkeypatch):
    assert E.equations_evidence("000", profile="quick").holds is True
    real = E._paper.published

    def wrong_d(paper, table=None):
        df = real(paper, table)
        return df.assign(value=df["value"].where(df["row"] != "inverse affine constant d", "0x06"))
    monkeypatch.setattr(E._paper, "published", wrong_d)
    ev = E.equations_evidence("000", profile="quick")
    assert ev.holds is False and "on 0 of 256 bytes" in ev.detail


def test_an_undocumented_differing_cell_fails_the_table_claim(monkeypatch):
    monkeypatch.setattr(E, "documented_misprints",
                        lambda p: pd.DataFrame(columns=["table", "row", "column", "corrected", "reason"]))
    rows = E.sbox_evidence("000", "xor-index", profile="quick")
    by = {r.claim_id: r for r in rows}
    assert by["000-t1-second-sbox"].holds is False and "row 1 column 7" in by["000-t1-second-sbox"].detail
    assert by["000-t2-inverse-sbox"].holds is True


def test_a_documented_misprint_the_construction_does_not_confirm_is_said_as_it_is():
    # the prose's literal construction gives 0x49 at the misprinted cell: neither the printed BE nor the corrected BF
    detail = E._table_holds("000", E.TABLES["000"]["sbox"], "xor-sbox")[1]
    assert "the documented misprint at row 1 column 7 is not confirmed: ours 49, neither the printed value nor the " \
           "corrected BF" in detail and "agrees with" not in detail


def test_the_affine_claim_is_read_at_the_printed_key_byte_and_at_every_key_byte_the_papers_allow(monkeypatch):
    # The sentence says what the affine step is for, and the papers allow any Key[i]: two readings, the printed
    # S-box (Key[i] = 7F) and every key byte; every one must hold. The extension row counts the same key bytes.
    rows = [r for r in E.sbox_evidence("000", "xor-index", profile="quick")]
    claim = {r.reading: r for r in rows if r.claim_id == "000-affine-invertible-no-fixed-points"}
    ext = next(r for r in rows if r.claim_id == "000-ext-affine-all-keys")
    at7f, every = claim["Key[i] = 7F (the printed S-box)"], claim["every Key[i] 00..FF the papers allow"]
    assert at7f.holds is True and at7f.size == "Key[i] = 7F" and "0 fixed points" in at7f.detail
    assert every.holds is False and "fixed points for 32 of 256" in every.detail
    assert ext.holds is False and "fixed points for 32 of 256 key bytes" in ext.detail
    real = E.second_sbox

    def fixed_at_7f(b, construction):
        s2, inv = real(b, construction)
        if b != 0x7F:
            return s2, inv
        s2 = s2.copy()
        j = int(np.flatnonzero(s2 == 0x00)[0])      # swap two outputs so that 00 maps to itself
        s2[[0, j]] = s2[[j, 0]]
        inv = np.argsort(s2)
        return s2, inv
    monkeypatch.setattr(E, "second_sbox", fixed_at_7f)
    at7f = next(r for r in E.sbox_evidence("000", "xor-index", profile="quick")
                if r.claim_id == "000-affine-invertible-no-fixed-points" and r.reading.startswith("Key[i] = 7F"))
    assert at7f.holds is False and "1 fixed points" in at7f.detail


def test_printed_percentages_disagreeing_with_their_counts_fail(monkeypatch):
    real = E._paper.published

    def off_by_one(paper, table=None):      # 24.219 % printed beside 30 bits: 30 / 128 = 23.438 %
        df = real(paper, table)
        hit = (df["row"] == "1") & (df["column"] == "Avalanche (changed bits)")
        return df.assign(number=df["number"].where(~hit, 30.0))
    assert E.printed_percentages_evidence("000", profile="quick").holds is True
    monkeypatch.setattr(E._paper, "published", off_by_one)
    ev = E.printed_percentages_evidence("000", profile="quick")
    assert ev.holds is False and "30 / 128 = 23.438 %" in ev.detail


def test_table_numbers_are_counted_on_the_captions(monkeypatch):
    assert E.table_numbers_evidence("000", profile="quick").holds is True
    ev = E.table_numbers_evidence("001", profile="quick")
    assert ev.holds is False and "Table 5 captions 2 tables" in ev.detail and "Avalanche Effects" in ev.detail
    one_each = pd.DataFrame({"row": ["caption 1", "caption 2"], "column": ["Table 1", "Table 2"], "value": ["A", "B"]})
    monkeypatch.setattr(E._paper, "published", lambda paper, table=None: one_each)
    assert E.table_numbers_evidence("001", profile="quick").holds is True
    monkeypatch.setattr(E._paper, "published", lambda paper, table=None: one_each.iloc[:0])
    with pytest.raises(ValueError, match="no transcribed table captions"):
        E.table_numbers_evidence("001", profile="quick")


def test_documented_misprints_are_read_from_data():
    mis = E.documented_misprints("000")
    assert list(mis[["table", "row", "column", "corrected"]].itertuples(index=False, name=None)) == [
        ("Table 1", "1", "7", "BF")]
    assert (second_sbox(0x7F, "xor-index")[0][0x17] == 0xBF)


def test_speed_verdicts_are_decided_beyond_the_aa_band():
    rng = np.random.default_rng(3)
    n = 60
    base = 10.0 + 0.05 * rng.random(n)
    # AES-2SBox 3 % faster, but the A/A control moves by as much: no decision beyond the noise
    noisy_ctl = 10.0 * (1 + 0.06 * rng.random(n))
    out = _decide(evidence.speed_evidence_rows(_fake_protocols(list(base), list(base / 1.03), list(noisy_ctl)),
                                        profile="quick"))
    assert out.loc["000-t5-enc-speedup", "verdict"] in ("contradicted", "inconclusive")
    assert out.loc["000-t3-enc-significant", "verdict"] != "reproduced"
    # twice as fast, quiet control: the decryption speedup of 000 (109.79 %) is reproduced, the significance too
    quiet = 10.0 + 0.01 * rng.random(n)
    out = _decide(evidence.speed_evidence_rows(_fake_protocols(list(base), list(base / 2.0979), list(quiet),
                                                               processes=6), profile="quick"))
    # a same-path speed-up (AES-2SBox against AES in one style): its size is the cipher's own work, decided
    # under every style the run timed (readings: any), never the machine's
    assert out.loc["000-t5-dec-speedup", "verdict"] == "reproduced"
    assert out.loc["000-t5-dec-speedup", "outcome"] == "established"
    assert out.loc["000-t4-dec-significant", "verdict"] == "reproduced"
    assert out.loc["000-t5-enc-speedup", "style"] == "reference"


def test_four_trials_never_decide_significance():
    """4 vs 4 trials: the smallest Mann-Whitney p is 0.029, but the interval and band are too wide to decide."""
    raw = _fake_protocols([10.0, 13.0, 11.0, 16.0], [9.0, 8.5, 9.5, 8.8], [12.0, 10.5, 15.0, 10.2])
    out = _decide(evidence.speed_evidence_rows(raw, profile="quick"))
    assert out.loc["000-t4-dec-significant", "verdict"] == "inconclusive"


def test_significance_is_tested_over_processes_not_pooled_trials():
    """Pseudo-replication: 3 processes of 40 trials, each process's ratio shifted by its own bias. Pooled, 120
    trials give a tiny p; the processes (the independent units) disagree in sign, so no significance shows."""
    rng = np.random.default_rng(5)
    bias = np.repeat([1.10, 0.93, 1.06], 40)                       # one shift per process, not per trial
    old = 10.0 + 0.01 * rng.random(120)
    new = old / bias
    from scipy import stats
    assert stats.mannwhitneyu(old, new).pvalue < 1e-4             # pooled: "significant"
    raw = _fake_protocols(list(old), list(new), list(old), processes=3)
    rows = [r for r in evidence.speed_evidence_rows(raw, profile="quick") if r.claim_id == "000-t3-enc-significant"]
    assert rows[0].processes == 3 and rows[0].p_value > 0.05 and "3 processes' log speed ratios" in rows[0].detail
    one = [r for r in evidence.speed_evidence_rows(_fake_protocols(list(old), list(new), list(old)), profile="quick")
           if r.claim_id == "000-t3-enc-significant"]
    assert one[0].p_value == 1.0 and "one process is one independent unit" in one[0].detail


def test_decided_by_names_a_style_that_is_timed():
    claims = verdicts.load_claims()
    speed = claims[claims["claim_id"].str.contains("-t5-.*-speedup|-significant")]
    speed = speed[speed["rule"] != "not_testable"]      # 001's abstract restates a decided row: covered, timed nowhere
    assert len(speed) == 8
    same_path = speed["claim_id"].str.contains("-t5-.*-speedup")     # every style a reading (readings: any)
    assert (speed.loc[same_path, "decided_by"] == "").all() and (speed.loc[same_path, "readings"] == "any").all()
    assert (speed.loc[~same_path, "decided_by"] == "style=reference").all()


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


def test_fitted_table_folds_every_column_in_groups_that_fit_the_page():
    pairs = avalanche.avalanche_pairs(["000"], key=bytes(16))
    groups = L.column_groups(pairs, ["paper", "pair", "cipher"])
    assert sorted(sum(groups, [])) == sorted(c for c in pairs.columns if c not in ("paper", "pair", "cipher"))
    base = sum(L.column_px(pairs, k) for k in ("paper", "pair", "cipher"))
    assert all(base + sum(L.column_px(pairs, c) for c in g) <= L.PAGE_PX or len(g) == 1 for g in groups)
    assert len(groups) > 1                                  # four hex ciphertexts do not fit one table
    html = str(L.fitted_table(pairs, short=["paper", "pair", "changed_bits"], keys=["paper", "pair", "cipher"]))
    for c in pairs.columns:
        assert f">{L.label(c)}</th>" in html.split("<details>")[1]
    with pytest.raises(ValueError, match="keys"):
        L.column_groups(pairs, ["nope"])
    with pytest.raises(ValueError, match="not in it"):
        L.fitted_table(pairs, short=["nope"], keys=["paper"])


def test_construction_finding_follows_the_counts():

    match = sboxes.construction_match_table()
    assert "affine(x XOR 7F)" in V.construction_finding_text(match)
    flipped = match.assign(matching=match["cells"] - match["matching"])
    text = V.construction_finding_text(flipped)
    assert "follow the `xor-sbox` reading" in text and "affine" not in text


def test_fips197_year_shows_the_references_own_year_as_ours():
    """'Ours' is FIPS PUB 197's own year (2001), beside the paper's printed year; it holds only where they agree."""
    rows = {e.claim_id: e for e in E.defect_evidence(profile="quick") if e.claim_id.endswith("-s1-fips197-year")}
    assert set(rows) == {"000-s1-fips197-year", "001-s1-fips197-year"}
    for cid, ev in rows.items():
        printed = paper.published(cid[:3], "Introduction (prose)")
        year = int(printed.loc[printed["row"] == "FIPS-197 published", "number"].iloc[0])
        assert ev.estimate == 2001.0 and ev.holds == (year == 2001) and str(year) in ev.detail


@pytest.mark.parametrize("p", ["000", "001"])
def test_the_papers_decryption_order_inverts_encryption_and_the_check_can_fail(p, monkeypatch):
    """'Inverse ShiftRows, Inverse SubBytes, Inverse AddRoundKey and Inverse SubBytesXOR for nine rounds, the
    final round without Inverse SubBytesXOR', written out step by step, recovers AES-2SBox's plaintexts; the same
    steps with InvShiftRows left out (a wrong order of bytes) do not."""
    ev = E.decryption_order_evidence(p, profile="quick", n_blocks=16)
    assert ev.claim_id == f"{p}-decryption-order" and ev.holds is True and ev.estimate == 0 and ev.n == 64
    monkeypatch.setattr(E, "_inv_shift_rows", lambda state: state)
    bad = E.decryption_order_evidence(p, profile="quick", n_blocks=16)
    assert bad.holds is False and bad.estimate > 0


def test_lightweight_must_hold_in_every_software_style_and_names_each():
    """'Lightweight as it will employ two S-boxes': less computation in both operations and in every software style
    (reference, table); faster in the reference style alone, with no gain in the table style, does not establish it;
    the hardware style is no reading of it."""
    fast = _fake_protocols([10.0, 11.0, 12.0], [5.0, 6.0, 7.0], [10.0, 11.0, 12.0])
    same = _fake_protocols([10.0, 11.0, 12.0], [10.0, 11.0, 12.0], [10.0, 11.0, 12.0], impl="table")
    slow = _fake_protocols([10.0, 11.0, 12.0], [50.0, 55.0, 60.0], [10.0, 11.0, 12.0], impl="aesni")
    both = _fake_protocols([10.0, 11.0, 12.0], [5.0, 6.0, 7.0], [10.0, 11.0, 12.0], impl="table")
    out = _decide(_chapter_evidence(pd.concat([fast, same, slow], ignore_index=True)))
    row = out.loc["000-s4-lightweight"]
    assert row["verdict"] != "reproduced", row["reason"]
    assert "style=table" in row["reason"] and "style=reference" in row["reason"] and "aesni" not in row["reason"]
    out = _decide(_chapter_evidence(pd.concat([fast, both, slow], ignore_index=True)))
    assert out.loc["000-s4-lightweight", "verdict"] == "reproduced"    # the hardware style never decides it
