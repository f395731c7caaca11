"""The timed runs of phases 1 and 2, their A/A controls and inputs (aead.measure). No timing is asserted."""
import numpy as np
import pandas as pd
import pytest

from cipherlab.experiments.aead import chapter, forgery, measure, tables

from aead_synthetic import AAD, texts


def test_library_tag_lengths_match_the_standards_where_they_are_strict():
    assert measure.library_tag_bytes("ccm") == measure.STANDARD_TAG_BYTES["ccm"]
    assert set(measure.STANDARD_TAG_BYTES["gcm"]) <= set(measure.library_tag_bytes("gcm"))
    assert measure.library_tag_bytes("eax")[-1] == 16


def test_every_timed_run_carries_its_aa_control():
    data = texts()
    p1 = measure.measure_phase1(data, trials=3, warmup=1, aad=AAD, seed=1, progress=False)
    p2 = measure.measure_phase2(data, trials=3, warmup=1, aad=AAD, seed=1, progress=False)
    f, _ = forgery.measure_forgery(data, trials=3, warmup=1, aad=AAD, seed=1, progress=False)
    for df, sel in ((p1, {"cipher": "aes", "mode": "gcm"}), (p2, {"cipher": "aes", "mode": "eax"}),
                    (f, {"mode": "gcm", "kind": "random_tag"})):
        ctl = df[df["instance"] == "control"]
        assert len(ctl) and all((ctl[k] == v).all() for k, v in sel.items())
        main = df[df["instance"] == "main"]
        mask = np.logical_and.reduce([main[k] == v for k, v in sel.items()])
        # the control repeats exactly the cases (sizes and operations) of its main instance
        key = ["bytes", "operation"]
        assert sorted(map(tuple, ctl[key].drop_duplicates().to_numpy())) == \
            sorted(map(tuple, main[mask][key].drop_duplicates().to_numpy()))
    with pytest.raises(ValueError, match="control"):
        measure.aead_cases(data, [("aes", "ccm")], aad=AAD, seed=1, control=("aes", "gcm"))


def test_short_calls_are_timed_in_batches():
    p = measure.measure_aead({1000: texts()[1000]}, [("aes", "gcm")], trials=2, warmup=1, aad=AAD, seed=1,
                          min_trial_seconds=0.002, progress=False)
    assert (p["calls"] > 1).all()
    assert (p["seconds"] < 0.002).all()
    # calls that already last a trial are timed singly, without the batching probes
    long = measure.measure_aead({1000: texts()[1000]}, [("aes", "gcm")], trials=2, warmup=1, aad=AAD, seed=1,
                             min_trial_seconds=1e-9, progress=False)
    assert (long["calls"] == 1).all() and len(long) == 2 * 2


def test_phase_runners_return_tidy_frames_with_throughput():
    data = texts()
    p1 = measure.measure_phase1(data, trials=3, warmup=1, aad=AAD, seed=1, progress=False)
    assert len(p1) == (3 + 1) * 2 * 2 * 3  # three modes and the AES-GCM A/A control
    assert list(p1.columns[:9]) == ["cipher", "impl", "mode", "operation", "bytes", "process", "trial", "seconds", "run_id"]
    p2 = measure.measure_phase2(data, trials=3, warmup=1, aad=AAD, seed=1, progress=False)
    assert set(p2["cipher"]) == set(measure.CIPHERS) and set(p2["mode"]) == {"eax"}
    s = measure.throughput_summary(p2)
    row = s.iloc[0]
    p2m = p2[p2["instance"] == "main"]
    sel = p2m[(p2m.cipher == row.cipher) & (p2m.operation == row.operation) & (p2m.bytes == row.bytes)]
    assert row["n"] == 3
    assert row["median_mb_per_s"] == pytest.approx((sel["bytes"] / 1e6 / sel["seconds"]).median())
    assert row["median_s"] == pytest.approx(sel["seconds"].median())
    r = tables.throughput_ratios(measure.throughput_summary(p1), s)
    assert (r[r["name"] == r["reference"]]["ratio_to_reference"] == 1.0).all()


def test_read_inputs_keys_by_size(tmp_path):
    for n in (10, 30):
        (tmp_path / chapter.input_name(n)).write_bytes(b"a" * n)
    got = measure.read_inputs(tmp_path / chapter.input_name(n) for n in (30, 10))
    assert list(got) == [10, 30]


def test_bad_parameters_raise_value_error():
    with pytest.raises(ValueError, match="mode"):
        measure.new_aead("blowfish", "gcm", bytes(16), bytes(16))
    with pytest.raises(ValueError, match="cipher"):
        measure.new_aead("des", "eax", bytes(16), bytes(16))
    with pytest.raises(ValueError, match="group"):
        tables.ranking_table(pd.DataFrame(), "size")
    with pytest.raises(ValueError, match="kind"):
        forgery.forged_tags(bytes(16), "zero_tag", 1, 0)


def test_mb_units():
    assert chapter.mb_to_bytes([0.1, 5]) == [100_000, 5_000_000]
    assert chapter.mb_to_bytes([1], mb_bytes=2**20) == [1_048_576]


def test_the_factory_checks_once_and_builds_the_same_object_as_the_library():
    with pytest.raises(ValueError, match="^mode must be one of"):
        measure.aead_factory("cast", "ccm")
    make = measure.aead_factory("aes", "gcm", mac_len=12)
    key, nonce = bytes(range(16)), bytes(range(12))
    ours = make(key, nonce).encrypt_and_digest(b"cipherlab")
    from Crypto.Cipher import AES
    assert ours == AES.new(key, AES.MODE_GCM, nonce=nonce, mac_len=12).encrypt_and_digest(b"cipherlab")
