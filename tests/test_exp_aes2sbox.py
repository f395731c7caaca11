"""Tests of the AES-2SBox chapter's runners and tables (cipherlab.experiments.aes2sbox)."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from cipherlab import paper
from cipherlab._cipher import InsecureCipherWarning
from cipherlab.experiments import aes2sbox as X
from cipherlab.sboxes import second_sbox

FIPS_KEY = "2b7e151628aed2a6abf7158809cf4f3c"

pytestmark = pytest.mark.filterwarnings("ignore::cipherlab._cipher.InsecureCipherWarning")


def naive_bits(a: bytes, b: bytes) -> int:
    return sum(bin(x ^ y).count("1") for x, y in zip(a, b))


# --- Tables 1-2 ---------------------------------------------------------------

def test_sbox_grid_layout():
    sbox = np.arange(256, dtype=np.uint8)[::-1].copy()
    grid = X.sbox_grid(sbox)
    assert grid.shape == (16, 16)
    assert grid.loc["0", "0"] == "FF" and grid.loc["1", "7"] == f"{255 - 0x17:02X}" and grid.loc["F", "F"] == "00"
    with pytest.raises(ValueError, match="256"):
        X.sbox_grid(np.zeros(10, dtype=np.uint8))
    printed = sbox.copy()
    printed[0x17] = 0x00
    marked = X.sbox_grid(sbox, printed)
    assert marked.loc["1", "7"] == f"{255 - 0x17:02X} (printed 00)"
    assert (marked != grid).sum().sum() == 1


def test_sbox_diff_lists_exactly_the_differing_cells():
    ours, ours_inv = second_sbox(0x7F)
    pub, pub_inv = ours.copy(), ours_inv.copy()
    pub[0x17] = pub[0x5D]          # a duplicate, as in the papers' misprint
    pub_inv[0x00] ^= 0x10           # a second, one-bit difference in the inverse
    d = X.sbox_diff(ours, ours_inv, pub, pub_inv)
    assert list(zip(d["table"], d["index"])) == [("Table 1", "17"), ("Table 2", "00")]
    assert d.loc[0, "published"] == f"{pub[0x17]:02X}" and d.loc[0, "ours"] == f"{ours[0x17]:02X}"
    assert "misprint" in d.loc[0, "cause"] and "row 5 column D" in d.loc[0, "cause"]
    assert d.loc[1, "differing_bits"] == 1
    assert X.sbox_diff(ours, ours_inv, ours, ours_inv).empty


@pytest.mark.parametrize("which", X.PAPERS)
def test_published_tables_differ_from_construction_in_cells_found_naively(which):
    ours, ours_inv = second_sbox(X.published_key_byte(which))
    pub, pub_inv = X.published_sboxes(which)
    expected = {("Table 1", f"{x:02X}") for x in range(256) if ours[x] != pub[x]} | \
               {("Table 2", f"{x:02X}") for x in range(256) if ours_inv[x] != pub_inv[x]}
    d = X.sbox_diff_table(which)
    assert set(zip(d["table"], d["index"])) == expected
    assert len(d) == len(expected)


def test_construction_match_counts_agree_with_naive_count():
    cm = X.construction_match_table(["000"]).set_index(["table", "construction"])
    pub, _ = X.published_sboxes("000")
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
    a = X.audit_published_stats(["000"])
    sel = a[(a["table"] == "Table 3")]
    assert sel.loc[sel["quantity"] == "t Stat", "recomputed"].item() == pytest.approx(t_hand, rel=1e-12)
    dfs = sel.loc[sel["quantity"] == "df", "recomputed"].to_numpy()
    assert sorted(dfs) == pytest.approx(sorted([df_hand, round(df_hand)]))


def test_audit_flags_what_does_not_agree():
    a = X.audit_published_stats(["000"])
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
    assert X.agrees_as_printed(printed, value) is ok


# --- avalanche ----------------------------------------------------------------

def test_changed_bits_equals_naive_count():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 256, (50, 16), dtype=np.uint8), rng.integers(0, 256, (50, 16), dtype=np.uint8)
    got = X.changed_bits(a, b)
    assert list(got) == [naive_bits(x.tobytes(), y.tobytes()) for x, y in zip(a, b)]
    assert X.changed_bits(b"\x0f", b"\xf0") == 8
    with pytest.raises(ValueError, match="same shape"):
        X.changed_bits(a, b[:3])


def test_avalanche_pair_counts_equal_naive_count_of_our_ciphertexts():
    from cipherlab.modes import new

    pairs = X.avalanche_pairs(["001"], key=FIPS_KEY, impl="reference")
    for r in pairs.itertuples():
        opts = {"xor_byte": 0x7F} if r.cipher == "aes-2sbox" else {}
        enc = new(bytes.fromhex(FIPS_KEY), cipher=r.cipher, mode="ecb", impl="table", padding=False, **opts)
        ca = enc.encrypt(bytes.fromhex(r.plaintext_a))
        cb = enc.encrypt(bytes.fromhex(r.plaintext_b))
        assert r.ciphertext_a == ca.hex().upper() and r.ciphertext_b == cb.hex().upper()
        assert r.changed_bits == naive_bits(ca, cb)
        assert r.percent == pytest.approx(100 * naive_bits(ca, cb) / 128)


def test_avalanche_distribution_matches_per_block_loop():
    from cipherlab.modes import new

    dist = X.avalanche_distribution(n_plaintexts=3, n_keys=2, key=FIPS_KEY, seed=5, ciphers=("aes-2sbox",))
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
    s = X.avalanche_summary(dist).iloc[0]
    assert s["mean_bits"] == 64 and s["min_bits"] == 60 and s["max_bits"] == 68 and s["share_at_least_half"] == 0.75
    h = X.avalanche_histogram(dist)
    assert h["count"].sum() == 4 and h.loc[h["changed_bits"] == 64, "count"].item() == 2
    assert h["ideal_share"].sum() == pytest.approx(1.0)


def test_avalanche_distribution_rejects_bad_counts():
    with pytest.raises(ValueError, match="n_plaintexts"):
        X.avalanche_distribution(n_plaintexts=0)
    with pytest.raises(ValueError, match="n_keys"):
        X.avalanche_distribution(n_plaintexts=1, n_keys=0)


# --- speed ----------------------------------------------------------------------

def _fake_raw(old_ms, new_ms, protocol="000", operation="encrypt", impl="table"):
    rows = []
    for cipher, ms in (("aes", old_ms), ("aes-2sbox", new_ms)):
        for t, v in enumerate(ms):
            rows.append({"cipher": cipher, "impl": impl, "mode": "ecb", "operation": operation, "bytes": 100,
                         "trial": t, "seconds": v / 1e3, "run_id": "r", "protocol": protocol})
    return pd.DataFrame(rows)


def test_welch_side_by_side_uses_the_trials_in_ms():
    from scipy import stats

    old, new = [10.0, 12.0, 11.0, 13.0], [5.0, 6.0, 5.5, 7.0]
    side = X.welch_side_by_side(_fake_raw(old, new), "000", "encrypt", "table")
    assert side.loc["Mean", "ours AES-Rijndael"] == pytest.approx(np.mean(old))
    assert side.loc["Variance", "ours AES-2SBox"] == pytest.approx(np.var(new, ddof=1))
    assert side.loc["t Stat", "ours AES-Rijndael"] == pytest.approx(stats.ttest_ind(old, new, equal_var=False).statistic)
    assert side.loc["Mean", "published AES-Rijndael"] == paper.published("000", "Table 3").query(
        "row == 'Mean' and column == 'AES-Rijndael'")["value"].item()


def test_speedup_table_follows_the_papers_formula():
    old, new = [10.0, 12.0, 11.0, 13.0], [5.0, 6.0, 5.5, 7.0]
    sp = X.speedup_table(_fake_raw(old, new), ["000"], n_resamples=500)
    row = sp.iloc[0]
    assert row["ours_speedup_pct"] == pytest.approx((np.mean(old) / np.mean(new) - 1) * 100)
    assert row["ci_low_pct"] <= row["ours_speedup_pct"] <= row["ci_high_pct"]
    assert row["published_speedup_pct"] == paper.published("000", "Table 5").query(
        "row == 'Encryption' and column == 'ETPE%'")["value"].item()


def test_speed_cases_round_trip_and_label():
    data = bytes(range(256)) * 3 + b"odd"
    cases = X.speed_cases(data, key=FIPS_KEY, impls=("reference", "aesni"), labels={"protocol": "000"})
    got = {(c["cipher"], c["impl"], c["operation"]) for c in cases}
    assert got == {("aes", "reference", "encrypt"), ("aes", "reference", "decrypt"),
                   ("aes", "aesni", "encrypt"), ("aes", "aesni", "decrypt"),
                   ("aes-2sbox", "reference", "encrypt"), ("aes-2sbox", "reference", "decrypt")}
    dec = next(c for c in cases if c["cipher"] == "aes-2sbox" and c["operation"] == "decrypt")
    assert dec["fn"]().tobytes() == data and dec["bytes"] == len(data) and dec["protocol"] == "000"
    with pytest.raises(ValueError, match="impls"):
        X.speed_cases(data, key=FIPS_KEY, impls=("fast",))


def test_run_protocols_gives_tidy_trials():
    raw, first = X.run_protocols({"001": {"file": "f", "trials": 2, "warmup": 0}}, lambda name: b"a" * 100,
                                 key=FIPS_KEY, impls=("table",), progress=False)
    assert list(raw.columns[:8]) == ["cipher", "impl", "mode", "operation", "bytes", "trial", "seconds", "run_id"]
    assert len(raw) == 2 * 2 * 2 and set(raw["protocol"]) == {"001"} and (raw["seconds"] > 0).all()
    assert len(first) == 4 and (first["first_call_seconds"] > 0).all()
    assert set(zip(first["cipher"], first["operation"])) == {(c, o) for c in X.CIPHERS for o in X.OPERATIONS}
    with pytest.raises(ValueError, match="trials"):
        X.run_protocols({"001": {"file": "f", "warmup": 0}}, lambda name: b"", key=FIPS_KEY)


def test_bad_paper_is_rejected():
    with pytest.raises(ValueError, match="paper"):
        X.published_sboxes("002")


# --- verdicts -------------------------------------------------------------------

def test_verdicts_follow_the_data():
    from cipherlab.verdicts import VERDICTS

    faster = _fake_raw([10.0, 12.0, 11.0, 13.0, 12.5], [5.0, 6.0, 5.5, 7.0, 6.2])
    same = _fake_raw([10.0, 12.0, 11.0, 13.0, 12.5], [10.1, 12.2, 10.9, 13.1, 12.4], operation="decrypt")
    sp = X.speedup_table(pd.concat([faster, same]), ["000"], n_resamples=500)
    dist = X.avalanche_distribution(n_plaintexts=4, key=FIPS_KEY)
    rows = X.verdict_rows(speedups=sp, audit=X.audit_published_stats(["000"]),
                          construction=X.construction_match_table(["000"]),
                          sbox_diffs=X.sbox_diff_table("000"), pairs=X.avalanche_pairs(["000"], key=FIPS_KEY),
                          summary=X.avalanche_summary(dist))
    by_claim = {r.claim: r for r in rows}
    assert all(r.verdict in VERDICTS for r in rows)
    enc = by_claim["encryption speedup of AES-2SBox over AES (table style)"]
    dec = by_claim["decryption speedup of AES-2SBox over AES (table style)"]
    assert enc.verdict == "not reproduced" and "faster" in enc.reason   # ~95 % faster, not 22.986 %
    assert dec.verdict == "not reproduced" and "holds 0" in dec.reason
    assert by_claim["significant encryption time difference at 0.05 (table style, Table 3)"].verdict == "reproduced"
    assert by_claim["significant decryption time difference at 0.05 (table style, Table 4)"].verdict == "not reproduced"
    assert by_claim["the avalanche of AES-2SBox is slightly below the 50% expected"].verdict == "contradicted"
    assert any(r.claim.startswith("Table 2") and r.verdict == "reproduced" for r in rows)


def test_median_speedup_is_robust_to_one_preempted_trial():
    old = [10.0, 10.2, 9.9, 10.1, 10.0, 10.3] * 4
    new = [5.0, 5.1, 4.9, 5.0, 5.1, 5.2] * 4
    new[7] = 500.0                                      # one trial pre-empted by other work
    est, lo, hi = X.median_speedup_ci(old, new, n_resamples=500)
    assert est == pytest.approx((np.median(old) / np.median(new) - 1) * 100)
    assert lo <= est <= hi and lo > 0
    sp = X.speedup_table(_fake_raw(old, new), ["000"], n_resamples=500).iloc[0]
    assert sp["ours_speedup_pct"] < 0 < sp["median_speedup_pct"]   # the mean is fooled, the median is not
    with pytest.raises(ValueError, match="at least 2"):
        X.median_speedup_ci([1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="q must"):
        X.quantile_speedup_ci(old, new, 1.5)


def test_lower_quartile_survives_a_third_of_trials_preempted():
    rng = np.random.default_rng(0)
    old = 1.0 + 0.01 * rng.random(30)
    new = 0.5 + 0.01 * rng.random(30)
    new[:10] += 10.0                                    # a third of the new cipher's trials disturbed
    est, lo, hi = X.quantile_speedup_ci(old, new, 0.25, n_resamples=1000)
    assert est == pytest.approx((np.quantile(old, 0.25) / np.quantile(new, 0.25) - 1) * 100)
    assert 90 < lo <= est <= hi < 110


def test_wide_interval_holding_zero_does_not_reproduce():
    from types import SimpleNamespace

    row = SimpleNamespace(published_speedup_pct="22.986", median_speedup_pct=20.0, median_ci_low_pct=-10.0,
                          median_ci_high_pct=90.0, ours_speedup_pct=21.0, ci_low_pct=5.0, ci_high_pct=40.0,
                          q25_speedup_pct=10.0, q25_ci_low_pct=8.0, q25_ci_high_pct=12.0)
    assert X._speedup_verdict(row, "q25")[0] == "not reproduced" and "faster" in X._speedup_verdict(row, "q25")[1]
    assert X._speedup_verdict(row, "median")[0] == "not reproduced"
    assert X._speedup_verdict(row, "mean")[0] == "reproduced"
    row.median_ci_low_pct, row.median_ci_high_pct = -30.0, -5.0
    assert X._speedup_verdict(row, "median")[0] == "contradicted"
