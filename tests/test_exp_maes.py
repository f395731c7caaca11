"""Correctness of the MAES chapter's runners (cipherlab.experiments.maes); no timing is asserted."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

import cipherlab
from cipherlab.experiments import maes as m
from cipherlab.paper import published
from cipherlab.timing import measure
from cipherlab.verdicts import VERDICTS, Verdict

KEY = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
IV = bytes(range(16))


@pytest.fixture(autouse=True)
def _quiet_insecure_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.InsecureCipherWarning)
        yield


@pytest.fixture(scope="module")
def image():
    return m.load_test_image()


# --- image -----------------------------------------------------------------


def test_image_loads_deterministically(image):
    again = m.load_test_image()
    assert image.dtype == np.uint8 and image.shape == (600, 512, 3)
    assert image.flags["C_CONTIGUOUS"]
    assert np.array_equal(image, again)
    assert m.image_digest(image) == m.image_digest(again)
    assert image.size % 16 == 0  # encrypted without padding, shown at the same size


def test_encrypt_image_matches_cipher_and_round_trips(image):
    small = np.ascontiguousarray(image[:32, :32])  # 3072 bytes, whole blocks
    for cipher in m.CIPHERS:
        for mode in m.IMAGE_MODES:
            enc = m.encrypt_image(small, cipher, mode, KEY, IV)
            assert enc.shape == small.shape and enc.dtype == np.uint8
            kw = {"iv": IV} if mode == "cbc" else {}
            c = cipherlab.new(KEY, cipher=cipher, mode=mode, padding=False, **kw)
            assert np.array_equal(np.asarray(c.encrypt(small.ravel())), enc.ravel())
            d = cipherlab.new(KEY, cipher=cipher, mode=mode, padding=False, **kw)
            assert np.array_equal(np.asarray(d.decrypt(enc.ravel())), small.ravel())


def test_encrypt_image_pads_then_cuts_odd_sizes():
    odd = np.arange(3 * 5 * 3, dtype=np.uint8).reshape(3, 5, 3)  # 45 bytes
    enc = m.encrypt_image(odd, "aes", "ecb", KEY)
    assert enc.shape == odd.shape
    full = cipherlab.new(KEY, cipher="aes", mode="ecb").encrypt(odd.ravel())
    assert np.array_equal(np.asarray(full)[:45], enc.ravel())


def test_image_ciphertexts_keys_and_bad_input(image):
    small = np.ascontiguousarray(image[:16, :16])
    out = m.image_ciphertexts(small, KEY, IV, ciphers=("aes", "maes-2"), modes=("ecb",))
    assert list(out) == [("plain", "none"), ("aes", "ecb"), ("maes-2", "ecb")]
    with pytest.raises(ValueError, match="cipher"):
        m.image_ciphertexts(small, KEY, IV, ciphers=("des",))
    with pytest.raises(ValueError, match="mode"):
        m.encrypt_image(small, "aes", "ofb", KEY)
    with pytest.raises(ValueError, match="iv"):
        m.encrypt_image(small, "aes", "cbc", KEY, None)


# --- histograms, entropy, chi-square ----------------------------------------


def test_entropy_and_chi_square_of_known_histograms():
    flat = np.tile(np.arange(256, dtype=np.uint8), 64)
    const = np.zeros(4096, dtype=np.uint8)
    two = np.repeat(np.array([0, 255], dtype=np.uint8), 2048)
    tab = m.entropy_table({("flat", "x"): flat, ("const", "x"): const, ("two", "x"): two}).set_index("cipher")
    assert tab.loc["flat", "entropy_bits"] == pytest.approx(8.0, abs=1e-12)
    assert tab.loc["const", "entropy_bits"] == pytest.approx(0.0, abs=1e-12)
    assert tab.loc["two", "entropy_bits"] == pytest.approx(1.0, abs=1e-12)
    assert tab.loc["flat", "chi2"] == pytest.approx(0.0, abs=1e-9)
    assert tab.loc["flat", "p_value"] == pytest.approx(1.0)
    assert bool(tab.loc["flat", "uniform_at_alpha"]) and not bool(tab.loc["const", "uniform_at_alpha"])


def test_chi_square_agrees_with_scipy():
    data = np.random.default_rng(7).integers(0, 256, 10_000, dtype=np.uint8)
    row = m.entropy_table({("r", "x"): data}).iloc[0]
    ref = st.chisquare(np.bincount(data, minlength=256))
    assert row["chi2"] == pytest.approx(ref.statistic, rel=1e-12)
    assert row["p_value"] == pytest.approx(ref.pvalue, rel=1e-9)
    counts = np.bincount(data, minlength=256) / data.size
    assert row["entropy_bits"] == pytest.approx(-(counts[counts > 0] * np.log2(counts[counts > 0])).sum(), rel=1e-12)


def test_entropy_table_carries_published_values():
    pub = published("002", "Table IV").set_index("row")["number"]
    data = np.arange(256, dtype=np.uint8)
    tab = m.entropy_table({("aes", "ecb"): data, ("maes-2", "cbc"): data, ("plain", "none"): data})
    by = tab.set_index("cipher")["published_entropy"]
    assert by["aes"] == pub[m.TABLE4_ROWS["aes"]]
    assert by["maes-2"] == pub[m.TABLE4_ROWS["maes-2"]]
    assert math.isnan(by["plain"])
    with pytest.raises(ValueError, match="alpha"):
        m.entropy_table({("aes", "ecb"): data}, alpha=0)


def test_expected_entropy_uniform_matches_simulation():
    n = 4096
    rng = np.random.default_rng(3)
    sims = [cipherlab.stats.byte_entropy(rng.integers(0, 256, n, dtype=np.uint8)) for _ in range(200)]
    assert m.expected_entropy_uniform(n) == pytest.approx(np.mean(sims), abs=2e-3)
    assert m.entropy_sd_uniform(n) == pytest.approx(np.std(sims, ddof=1), rel=0.25)
    with pytest.raises(ValueError, match="n_bytes"):
        m.expected_entropy_uniform(0)
    assert m.bytes_for_expected_entropy(m.expected_entropy_uniform(n)) == pytest.approx(n)
    with pytest.raises(ValueError, match="entropy_bits"):
        m.bytes_for_expected_entropy(8.0)


def test_histogram_frame_counts_every_byte(image):
    small = np.ascontiguousarray(image[:8, :8])
    h = m.histogram_frame({("plain", "none"): small})
    assert len(h) == 256 and h["count"].sum() == small.size
    assert np.array_equal(h["count"].to_numpy(), np.bincount(small.ravel(), minlength=256))


def test_byte_dependency_aes_diffuses_maes_does_not():
    aes = m.byte_dependency("aes", KEY, n_blocks=32)
    assert len(aes) == 32 * 16
    assert aes["bytes_changed"].mean() > 15.0  # each byte unchanged with probability 1/256
    for cipher in ("maes-1", "maes-2"):
        dep = m.byte_dependency(cipher, KEY, n_blocks=32)
        assert (dep["bytes_changed"] == 1).all()


# --- key space ---------------------------------------------------------------


def test_keyspace_numbers_are_powers_of_two():
    ks = m.keyspace_table()
    assert list(ks["key_bits"]) == [128, 192, 256]
    for b, keys, half in zip(ks["key_bits"], ks["keys"], ks["expected_trials"]):
        assert int(keys) == 2 ** b and int(half) == 2 ** (b - 1)
    assert ks["published_key_bits"].all()
    assert ks.loc[0, "log10_keys"] == pytest.approx(128 * math.log10(2))
    assert (ks["accepted_by"] == "aes maes-1 maes-2").all()
    odd = m.keyspace_table((3, 64))
    assert odd.loc[0, "keys"] == "8" and not odd.loc[0, "published_key_bits"]
    assert odd["accepted_by"].tolist() == ["", ""]
    with pytest.raises(ValueError, match="keys_per_second"):
        m.keyspace_table(keys_per_second=0)


# --- timing cases and tables --------------------------------------------------


def test_parse_hex_and_options():
    assert m.parse_hex("00ff", "key_hex", (2,)) == b"\x00\xff"
    with pytest.raises(ValueError, match="key_hex"):
        m.parse_hex("zz", "key_hex", (16,))
    with pytest.raises(ValueError, match="key_hex"):
        m.parse_hex("00", "key_hex", (16, 24, 32))
    assert m.maes_options() == {"iv_source": "sha3", "sha3": "sha3_256", "sha3_chain": "iv"}
    with pytest.raises(ValueError, match="iv_source"):
        m.maes_options(iv_source="rand")
    with pytest.raises(ValueError, match="sha3"):
        m.maes_options(sha3="md5")


def test_case_functions_compute_what_they_claim():
    from cipherlab import aes, maes

    cases = m.table1_cases(KEY)
    assert len(cases) == 1 + 2 * 2 * 2
    by = {(c["cipher"], c["operation"], c["iv_source"]): c["fn"] for c in cases}
    assert np.array_equal(by[("aes", "key_expansion", "none")](), aes.expand_key(KEY))
    assert np.array_equal(by[("maes-2", "iv_generation", "sha3")](), maes.maes_ivs(KEY, 2, "sha3"))
    rk, ivs = by[("maes-1", "setup", "keyexp")]()
    assert np.array_equal(rk, aes.expand_key(KEY)) and np.array_equal(ivs, maes.maes_ivs(KEY, 1, "keyexp"))
    stage = m.table2_cases(8)
    assert len(stage) == 6 and {c["operation"] for c in stage} == {"mix_columns", "inv_mix_columns", "xor_iv"}
    block = m.table3_cases(KEY)
    assert len(block) == 3 * 2 * 2
    for c in block:
        out = c["fn"]()
        assert len(bytes(out)) == 16
    enc = [c for c in block if c["cipher"] == "maes-2" and c["impl"] == "reference"]
    ct = next(c for c in enc if c["operation"] == "encrypt")["fn"]()
    pt = next(c for c in enc if c["operation"] == "decrypt")["fn"]()
    assert bytes(cipherlab.new(KEY, cipher="maes-2", padding=False).encrypt_block(bytes(pt))) == bytes(ct)
    with pytest.raises(ValueError, match="data"):
        m.bulk_cases(KEY, np.zeros(15, dtype=np.uint8))
    with pytest.raises(ValueError, match="iv"):
        m.bulk_cases(KEY, np.zeros(32, dtype=np.uint8), modes=("cbc",))
    with pytest.raises(ValueError, match="impls"):
        m.table2_cases(4, impls=("aesni",))


def test_compile_times_frame_is_tidy():
    ct = m.compile_times(m.table3_cases(KEY)[:2], run_id="r")
    assert list(ct.columns[:8]) == ["cipher", "impl", "mode", "operation", "bytes", "trial", "seconds", "run_id"]
    assert (ct["trial"] == 0).all() and (ct["seconds"] > 0).all() and (ct["run_id"] == "r").all()


def test_tables_from_a_short_measurement():
    raw1 = measure(m.table1_cases(KEY), trials=3, progress=False)
    t1 = m.table1(raw1)
    assert len(t1) == 9
    pub1 = published("002", "Table I")
    aes_pub = pub1.loc[pub1["row"] == m.TABLE1_ROWS["aes"], "number"].iloc[0]
    assert t1.loc[t1["operation"] == "key_expansion", "published_us"].iloc[0] == aes_pub
    assert t1.loc[t1["operation"] == "key_expansion", "ratio_to_aes"].iloc[0] == 1.0
    assert t1.loc[t1["operation"] == "iv_generation", "published_us"].notna().all()
    assert t1.loc[t1["operation"] == "setup", "published_us"].isna().all()
    raw2 = measure(m.table2_cases(16), trials=3, progress=False)
    t2 = m.table2(raw2)
    assert len(t2) == 6
    assert (t2.loc[t2["operation"] == "xor_iv", "ratio_to_xor"] == 1.0).all()
    assert np.allclose(t2["median_us_per_state"] * 16, t2["median_us"])
    raw3 = measure(m.table3_cases(KEY), trials=3, progress=False)
    t3 = m.table3(raw3)
    assert len(t3) == 12 and t3["published_us"].notna().all()
    assert set(raw3.columns) >= {"cipher", "impl", "mode", "operation", "bytes", "trial", "seconds", "run_id"}


def test_throughput_table_units():
    raw = pd.DataFrame({"cipher": "aes", "impl": "table", "mode": "ecb", "operation": "encrypt",
                        "bytes": 1_000_000, "trial": range(3), "seconds": [0.5, 0.5, 0.5], "run_id": "x"})
    tp = m.throughput_table(raw).iloc[0]
    assert tp["mb_per_s"] == pytest.approx(2.0)
    assert tp["us_per_block"] == pytest.approx(0.5e6 / (1_000_000 / 16))


def _synthetic_raw(times: dict[tuple[str, str, str], float], n: int = 10) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    rows = []
    for (cipher, impl, op), t in times.items():
        for i in range(n):
            rows.append({"cipher": cipher, "impl": impl, "mode": "block", "operation": op, "bytes": 16,
                         "trial": i, "seconds": t * (1 + 1e-3 * rng.standard_normal()), "run_id": "x"})
    return pd.DataFrame(rows)


def test_speedup_formula_is_the_papers():
    times = {}
    for impl in m.IMPLS:
        for op in ("encrypt", "decrypt"):
            times[("aes", impl, op)] = 3.0
            times[("maes-1", impl, op)] = 1.0
            times[("maes-2", impl, op)] = 1.5
    sp = m.speedup_table(_synthetic_raw(times), n_resamples=200)
    assert len(sp) == 2 * 2 * 2
    one = sp[(sp["cipher"] == "maes-1")]
    assert np.allclose(one["speedup_median_pct"], 200.0, atol=1.0)
    two = sp[(sp["cipher"] == "maes-2")]
    assert np.allclose(two["speedup_median_pct"], 100.0, atol=1.0)
    assert (sp["ci_low_pct"] <= sp["speedup_mean_pct"]).all() and (sp["speedup_mean_pct"] <= sp["ci_high_pct"]).all()
    assert (sp["median_ci_low_pct"] <= sp["speedup_median_pct"]).all()
    assert (sp["speedup_median_pct"] <= sp["median_ci_high_pct"]).all()
    pub = published("002", "Table III").set_index(["row", "column"])["number"]
    row = sp[(sp["baseline"] == "aes (reference)") & (sp["cipher"] == "maes-2") & (sp["operation"] == "encrypt")].iloc[0]
    expected = (pub[(m.TABLE3_ROWS[("aes", "reference")], "Encryption")]
                / pub[(m.TABLE3_ROWS[("maes-2", None)], "Encryption")] - 1) * 100
    assert row["published_speedup_pct"] == pytest.approx(expected)


def test_median_speedup_ci_is_robust_to_outliers():
    rng = np.random.default_rng(1)
    old = 2.0 + 0.01 * rng.standard_normal(400)
    new = 1.0 + 0.01 * rng.standard_normal(400)
    new[:8] = 500.0  # a few trials that lost the CPU
    est, low, high = m.median_speedup_ci(old, new, n_resamples=300)
    assert est == pytest.approx((np.median(old) / np.median(new) - 1) * 100)
    assert low <= est <= high and 95 < low and high < 105
    assert cipherlab.stats.speedup(old.mean(), new.mean()) < 0  # the mean is fooled
    with pytest.raises(ValueError, match="old and new"):
        m.median_speedup_ci([1.0], [1.0, 2.0])


def test_speedup_verdict_rules():
    assert m.speedup_verdict(-20, -5, 150)[0] == "contradicted"
    assert m.speedup_verdict(100, 200, 150)[0] == "reproduced"
    assert m.speedup_verdict(10, 40, 150)[0] == "not reproduced"
    assert m.speedup_verdict(-5, 5, 150)[0] == "not reproduced"
    assert m.speedup_verdict(0, 0, 150)[0] == "not reproduced"  # equal medians: no difference resolved
    assert m.speedup_verdict(float("nan"), 1, 150)[0] == "not testable"


def test_verdict_rows_from_synthetic_frames(image):
    small = np.ascontiguousarray(image[:64, :64])
    ims = m.image_ciphertexts(small, KEY, IV)
    ent = m.entropy_table(ims)
    dep = pd.concat([m.byte_dependency(c, KEY, n_blocks=8) for c in m.CIPHERS])
    times = {(c, i, o): (3.0 if c == "aes" else 1.0) for c in m.CIPHERS for i in m.IMPLS for o in ("encrypt", "decrypt")}
    sp = m.speedup_table(_synthetic_raw(times), n_resamples=200)
    t1 = m.table1(measure(m.table1_cases(KEY), trials=2, progress=False))
    t2 = m.table2(measure(m.table2_cases(8), trials=2, progress=False))
    rows = m.verdict_rows(m.VerdictInputs(t1, t2, sp, sp, ent, dep, m.keyspace_table()))
    assert rows and all(isinstance(r, Verdict) and r.verdict in VERDICTS and r.paper == "002" for r in rows)
    claims = [r.claim for r in rows]
    assert len(claims) == len(set(claims))
    by = {r.claim: r for r in rows}
    complexity = next(r for c, r in by.items() if "complexity" in c)
    assert complexity.verdict == "contradicted"  # MAES changes one byte per changed plaintext byte
    enc = next(r for c, r in by.items() if c.startswith("Speed-up") and "encryption, one block" in c)
    assert enc.verdict == "reproduced"  # synthetic 200 % against published 150 %
    ecb_hist = next(r for c, r in by.items() if c.startswith("Figure 8") and "(ECB)" in c)
    assert ecb_hist.verdict == "contradicted"
    assert by["MAES is still the fastest against optimized AES (bulk)"].verdict == "reproduced"
    # table styles level: the optimized-AES claim is contradicted over whole files
    level = {(c, i, o): (1.0 if i == "table" else (3.0 if c == "aes" else 1.0))
             for c in m.CIPHERS for i in m.IMPLS for o in ("encrypt", "decrypt")}
    sp_level = m.speedup_table(_synthetic_raw(level), n_resamples=200)
    rows = m.verdict_rows(m.VerdictInputs(t1, t2, sp_level, sp_level, ent, dep, m.keyspace_table()))
    by = {r.claim: r for r in rows}
    assert by["MAES is still the fastest against optimized AES (bulk)"].verdict == "contradicted"
    assert by["MAES is still the fastest against optimized AES (one block)"].verdict == "not reproduced"


# --- repeated-byte leak ---------------------------------------------------------


def test_byte_routes_maes_is_a_permutation_aes_diffuses():
    assert m.byte_routes("aes", KEY) is None
    for cipher in ("maes-1", "maes-2"):
        r = m.byte_routes(cipher, KEY)
        assert r is not None and sorted(r.tolist()) == list(range(16))
        # changing plaintext byte p changes ciphertext byte r[p] and nothing else
        c = cipherlab.new(KEY, cipher=cipher, padding=False)
        block = bytearray(16)
        base = np.frombuffer(bytes(c.encrypt_block(bytes(block))), dtype=np.uint8)
        block[5] = 0xA5
        other = np.frombuffer(bytes(c.encrypt_block(bytes(block))), dtype=np.uint8)
        assert np.flatnonzero(base != other).tolist() == [r[5]]


def test_leak_table_maes_ecb_keeps_every_repeat(image):
    small = np.ascontiguousarray(image[:64, :64])
    ims = m.image_ciphertexts(small, KEY, IV)
    routes = {c: m.byte_routes(c, KEY) for c in m.CIPHERS}
    lk = m.leak_table(ims, routes=routes).set_index(["cipher", "mode"])
    for cipher in ("maes-1", "maes-2"):
        assert lk.loc[(cipher, "ecb"), "p_equal_if_plain_equal"] == 1.0
        assert lk.loc[(cipher, "ecb"), "p_equal_if_plain_differs"] == 0.0
    assert lk.loc[("aes", "ecb"), "p_equal_if_plain_equal"] < 0.05
    assert not lk.loc[("aes", "ecb"), "routed"]
    with pytest.raises(ValueError, match="lag_bytes"):
        m.leak_table(ims, lag_bytes=20)


def test_repeat_map_counts_equal_channels():
    flat = np.full((4, 32, 3), 7, dtype=np.uint8)
    rm = m.repeat_map(flat, lag_bytes=48)
    assert rm.shape == (4, 32) and rm.dtype == np.uint8
    assert (rm.ravel()[16:] == 3).all() and (rm.ravel()[:16] == 0).all()
    noisy = np.arange(4 * 32 * 3, dtype=np.uint8).reshape(4, 32, 3)
    assert (m.repeat_map(noisy, lag_bytes=48) == 0).all()  # i and i-48 never equal mod 256
