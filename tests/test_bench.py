"""bench and selfcheck run and report; ``cipherlab bench --sizes``: the size sweep, the openssl anchor (parsed,
or said to be absent), the table and the Environment page's parts built from it. No timing is asserted (timings
are noise here)."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import yaml

import cipherlab
from cipherlab import bench, selfcheck
from cipherlab.analysis import sweep
from cipherlab.pipeline import config
from cipherlab.pipeline.paths import CIPHER_DESCRIPTIONS_DIR
from cipherlab.ciphers.cpu import has_aesni
from cipherlab.report import environment as env_page

needs_aesni = pytest.mark.skipif(not has_aesni(), reason="no AES-NI on this CPU / JIT target")


def test_against_bound_is_the_fraction_of_the_recorded_bound():
    frame = pd.DataFrame([dict(cipher="aes", impl="aesni", mode="ctr", operation="encrypt", threads=1, bytes=3000,
                               seconds=1e-6, mb_per_s=3000.0, compile_seconds=0.0),
                          dict(cipher="aes", impl="aesni", mode="ctr", operation="decrypt", threads=1, bytes=3000,
                               seconds=1e-6, mb_per_s=3000.0, compile_seconds=0.0)])
    record = {"probe": {"clock_hz": 3e9, "bound_cycles_per_byte": {"256": 0.5}}, "kernel_width": 512}
    table = bench.against_bound(frame, record, 256)
    assert len(table) == 1 and table["cycles/B"].iloc[0] == pytest.approx(1.0)
    assert table["fraction of the bound"].iloc[0] == pytest.approx(0.5)
    assert table["formula cycles/B"].iloc[0] == pytest.approx(14 / 128)


@needs_aesni
def test_run_bench_small_frame():
    frame = bench.run_bench(size=4096, ciphers=("aes", "maes-2"), impls=("table", "aesni"), threads=(1,), repeats=1)
    assert list(frame.columns) == bench.COLUMNS
    ours = frame[frame.impl != "pycryptodome"]
    arrays = bench.kernel_rows(ours)
    assert len(arrays) == 2 * 2 * 2 * 2  # ciphers x styles x modes x operations
    assert set(arrays["data"]) == {"array"} and set(arrays["object"]) == {"reused"}
    user = ours[ours["data"] == "bytes"]  # encryption as a user calls it: bytes, the object reused and fresh
    assert len(user) == 2 * 2 * 2 * len(bench.USER_CASES) and set(user.operation) == {"encrypt"}
    assert set(zip(user["data"], user["object"])) == set(bench.USER_CASES)
    assert len(ours) == len(arrays) + len(user)
    table = bench.user_table(frame)
    assert {"array reused 1T", "bytes reused 1T", "bytes fresh 1T", "bytes fresh 1T / pycryptodome"} <= set(table)
    assert len(table) == 2 * 2 * 2 and table.notna().all().all()
    assert len(bench.format_table(frame).splitlines()) == 2 + 2 * 2 * 2 + 2  # two header lines, one per case
    assert set(frame.impl) == {"table", "aesni", "pycryptodome"}
    assert set(frame[frame.impl == "pycryptodome"]["mode"]) == {"ecb", "ctr"}
    assert (frame.mb_per_s > 0).all() and (frame.bytes == 4096).all()
    ratios = bench.target_ratios(frame)
    assert ratios.ratio.notna().sum() >= 5 and set(ratios.required) == {1.0, 1.5, 1.7, 0.95}


@pytest.mark.parametrize("kwargs, match", [
    (dict(size=100), "size must be a positive multiple of 16"),
    (dict(size=0), "size must be a positive multiple of 16"),
    (dict(size=4096, repeats=0), "repeats must be an integer >= 1"),
    (dict(size=4096, repeats=-1), "repeats must be an integer >= 1"),
    (dict(size=4096, impls=("pycryptodome",)), "impls must be a subset"),
])
def test_run_bench_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        bench.run_bench(**kwargs)


@pytest.mark.parametrize("argv, match", [
    (["--repeats", "0"], "--repeats: must be an integer >= 1"),
    (["--repeats", "-1"], "--repeats: must be an integer >= 1"),
    (["--size-mib", "nan"], "--size-mib: must be a finite number > 0"),
    (["--size-mib", "inf"], "--size-mib: must be a finite number > 0"),
    (["--size-mib", "-1"], "--size-mib: must be a finite number > 0"),
    (["--size-mib", "1e-9"], "--size-mib: must be at least 16 bytes"),
])
def test_bench_main_rejects_bad_arguments(capsys, argv, match):
    with pytest.raises(SystemExit) as exc:
        bench.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert match in err
    assert err.count("\n") == 1 and err.startswith("cipherlab bench: error: "), err  # one line, no usage block


def test_bench_unknown_argument_is_one_line(capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main(["--bogus"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err == "cipherlab bench: error: unrecognized arguments: --bogus\n"


@needs_aesni
def test_bench_main_prints_table_and_writes_csv_with_provenance(capsys, tmp_path):
    """The table, the targets, every AES row on one thread against the measured bound, the CSV and its record."""
    out = tmp_path / "bench.csv"
    assert bench.main(["--size-mib", "0.01", "--repeats", "1", "--cipher", "aes", "--impl", "table",
                       "--impl", "aesni", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "pycryptodome" in text and "encrypt 1T" in text and "enc 1T / pycryptodome" in text
    assert "aesni AES CTR / PyCryptodome CTR" in text and "target >= 1.5x" in text
    assert "against the bound measured on this CPU (AES-128" in text and "fraction of the bound" in text
    written = pd.read_csv(out)
    assert set(written.impl) == {"table", "aesni", "pycryptodome"} and written.run_id.nunique() == 1
    meta = json.loads((tmp_path / "bench.csv.meta.json").read_text())
    assert meta["run_id"] == written.run_id[0] and meta["profile"] == "bench" and "cpu_model" in meta
    assert set(meta["probe"]["bound_cycles_per_byte"]) == {"128", "192", "256"} and meta["kernel_width"] in (128, 256, 512)


@needs_aesni
def test_selfcheck_subset_and_main(tmp_path):
    frame = selfcheck.run_selfcheck(ciphers=("aes-2sbox",), impls=("reference", "table", "aesni"))
    assert list(frame.columns) == ["cipher", "impl", "mode", "check", "passed", "detail"]
    assert frame.passed.all() and set(frame.cipher) == {"aes-2sbox"}
    assert any(frame.check.str.startswith("reference == table"))
    assert any(frame.check.str.startswith("reference == aesni"))
    out = tmp_path / "selfcheck.csv"
    assert selfcheck.main(["--out", str(out), "--cipher", "aes", "--impl", "aesni"]) == 0
    written = pd.read_csv(out)
    assert written.passed.all() and any(written.check.str.startswith("FIPS-197"))


def test_selfcheck_reports_a_broken_cipher(monkeypatch):
    import cipherlab.selfcheck as sc

    real_new = sc.new

    class Broken:
        def __init__(self, obj):
            self._obj = obj

        def __getattr__(self, name):
            return getattr(self._obj, name)

        def encrypt(self, data):
            return b"\x00" * 16

    monkeypatch.setattr(sc, "new", lambda *a, **k: Broken(real_new(*a, **k)))
    frame = sc.run_selfcheck(ciphers=("aes",), impls=("table",))
    assert not frame.passed.all()
    assert sc.main(["--cipher", "aes", "--impl", "table"]) == 1


def test_selfcheck_checks_each_description_against_the_registered_cipher(tmp_path):
    import cipherlab.selfcheck as sc

    frame = sc.run_selfcheck(impls=("reference", "table"))
    described = frame[frame.check.str.startswith("description == registered")]
    assert set(described.cipher) == {"aes", "aes-2sbox", "maes-1", "maes-2"} and described.passed.all()
    assert set(described["mode"]) == set(cipherlab.MODES) and set(described.impl) == {"reference", "table"}
    # a description that says something else than the registered cipher fails its checks, each named
    doc = yaml.safe_load((CIPHER_DESCRIPTIONS_DIR / "aes-2sbox.yaml").read_text())
    doc["linear"]["map"]["xor_byte"] = 0x7E
    (tmp_path / "aes-2sbox.yaml").write_text(yaml.safe_dump(doc))
    rows: list = []
    with pytest.warns(cipherlab.InsecureCipherWarning):
        sc._described_agree(rows, "aes-2sbox", ("table",), np.random.default_rng(0), folder=tmp_path)
    assert rows and not any(r["passed"] for r in rows)
    assert all(r["check"].startswith("description == registered") for r in rows)


def test_selfcheck_rejects_unknown():
    with pytest.raises(ValueError, match=r"ciphers must be one of \('aes', 'aes-2sbox', 'maes-1', 'maes-2'\)"):
        selfcheck.run_selfcheck(ciphers=("rot13",))
    with pytest.raises(ValueError, match=r"impls must be one of .*pycryptodome"):
        selfcheck.run_selfcheck(impls=("fast",))


# -- `cipherlab bench --sizes`: the size sweep, the openssl anchor, the tables ---------------------------------

OPENSSL_MR = """+DT:AES-128-CTR:1:16
+R:55501815:AES-128-CTR:1.000000
+F:25:AES-128-CTR:888029040.00:2990000000.00:5900000000.00:8300000000.00:9100000000.00:9200000000.00
"""


#: A run's record of the bound, as ``bench.bound_record`` writes it (the parts the tables read).
RECORD = {"probe": {"clock_hz": 3e9, "bound_cycles_per_byte": {"128": 0.16, "192": 0.19, "256": 0.22},
                    "aes_bound_cycles_per_byte": {"128": 0.155, "192": 0.186, "256": 0.217},
                    "widths": {"128": {"status": "measured", "aes_per_cycle": 2.0, "blocks_per_instruction": 1,
                                       "block_rounds_per_cycle": 2.0,
                                       "ctr_cycles_per_byte": {"128": 0.31, "192": 0.37, "256": 0.44}},
                               "512": {"status": "not measured: the CPU lacks the feature(s) ['avx512f']",
                                       "blocks_per_instruction": 4, "ctr_cycles_per_byte": {}}}},
          "kernel_width": 256, "zmm_gain": float("nan"), "cpu_flags": ["aes", "avx2", "vaes"]}


def test_run_sweep_fresh_and_reused_beside_pycryptodome():
    frame = bench.run_sweep(sizes=(16, 1024), mode="ctr", impl="table", repeats=1, clock_hz=3e9, two_threads=(1024,))
    assert list(frame.columns) == bench.SWEEP_COLUMNS and set(frame.part) == {"sizes"} and set(frame.key_bits) == {128}
    one = frame[(frame.threads == 1) & (frame.library != "copy")]
    assert set(zip(one.library, one.object, one["data"])) == {
        ("cipherlab", "fresh", "array"), ("cipherlab", "reused", "array"), ("cipherlab", "fresh", "bytes"),
        ("cipherlab", "reused", "bytes"), ("pycryptodome", "fresh", "bytes"), ("pycryptodome", "reused", "bytes")}
    two = frame[frame.threads == 2]
    copies = frame[frame.library == "copy"]
    if bench.max_threads() >= 2:  # a reused cipherlab object on two threads, and the copy's ceiling, at the sizes asked only
        assert set(two.bytes) == {1024} and set(zip(two.library, two.object, two["data"])) == {
            ("cipherlab", "reused", "array"), ("cipherlab", "reused", "bytes"), ("cipherlab", "reused", "streams"),
            ("cipherlab", "first calls", "array"), ("copy", "reused", "array")}
        first = two[two.object == "first calls"]
        assert list(first.calls) == [bench.FIRST_CALLS]  # the cold calls, reported apart
        assert (two[two.library == "cipherlab"].query("object == 'reused'").calls >= bench.STREAM_CALLS).all()
        ways = frame.attrs["two_thread_ways"][1024]  # the table style: no long message is traced
        assert ways == {"first_calls": [], "first_call_faults": [], "warm": []}
        assert sorted(copies.threads) == [1, 2] and set(copies.bytes) == {1024}
    else:
        assert two.empty and copies.empty
    assert sorted(frame.bytes.unique()) == [16, 1024] and (frame.mb_per_s > 0).all()
    np.testing.assert_allclose(frame.cycles_per_byte, frame.seconds * 3e9 / frame.bytes)
    table = sweep.sweep_table(frame, meta=RECORD)
    assert list(table.message) == ["16 B", "1 KiB"] and table["openssl -evp MB/s"].isna().all()
    assert (table["fresh: cipherlab / PyCryptodome"] > 0).all()
    np.testing.assert_allclose(table["reused: fraction of the bound"], 0.16 / table["cipherlab reused cycles/B"])
    assert (table["bound cycles/B (measured)"] == 0.16).all() and (table["formula cycles/B"] == 10 / 64).all()
    assert np.isnan(table["2 threads / 1 thread"].iloc[0])  # 16 B: not timed on two threads
    if bench.max_threads() >= 2:
        assert table["2 threads / 1 thread"].iloc[1] == pytest.approx(
            table["cipherlab reused 2 threads MB/s"].iloc[1] / table["cipherlab reused MB/s"].iloc[1])
        assert table["bytes: 2 threads / 1 thread"].iloc[1] == pytest.approx(
            table["cipherlab reused bytes 2 threads MB/s"].iloc[1] / table["cipherlab reused bytes MB/s"].iloc[1])
        assert np.isnan(table["plain copy: 2 threads / 1 thread"].iloc[0])
        row = table.iloc[1]
        mbps = two[two.library == "cipherlab"].set_index(["object", "data"]).mb_per_s
        assert row["2 threads first calls / 1 thread"] == pytest.approx(
            mbps["first calls", "array"] / row["cipherlab reused MB/s"])
        assert row["2 streams / 1 thread"] == pytest.approx(mbps["reused", "streams"] / row["cipherlab reused MB/s"])
        assert row["cipherlab reused 2 threads MB/s"] == pytest.approx(mbps["reused", "array"])
        copy = copies.set_index("threads").mb_per_s
        assert table["plain copy: 2 threads / 1 thread"].iloc[1] == pytest.approx(copy[2] / copy[1])
    on_bytes = frame[(frame.library == "cipherlab") & (frame["data"] == "bytes") & (frame.threads == 1)]
    for obj in ("fresh", "reused"):  # bytes in, bytes out against PyCryptodome's (bytes) figure
        mbps = on_bytes[on_bytes.object == obj].set_index("bytes").mb_per_s
        np.testing.assert_allclose(table[f"cipherlab {obj} bytes MB/s"], mbps.loc[[16, 1024]])
        np.testing.assert_allclose(table[f"bytes {obj}: cipherlab / PyCryptodome"],
                                   table[f"cipherlab {obj} bytes MB/s"] / table[f"pycryptodome {obj} MB/s"])


def test_run_limits_times_every_key_size_and_mode_against_the_bound():
    frame = bench.run_limits(size=4096, impl="table", repeats=1, clock_hz=3e9)
    assert list(frame.columns) == bench.SWEEP_COLUMNS and set(frame.part) == {"limit"}
    assert sorted(zip(frame.key_bits, frame["mode"])) == [(b, m) for b in (128, 192, 256) for m in ("ctr", "ecb")]
    assert (frame.threads == 1).all() and (frame.object == "reused").all() and (frame.bytes == 4096).all()
    limits = sweep.limit_table(frame, RECORD)
    assert list(limits.columns) == sweep.LIMIT_COLUMNS and list(limits.key.unique()) == ["AES-128", "AES-192", "AES-256"]
    row = limits[(limits.key == "AES-192") & (limits["mode"] == "CTR")].iloc[0]
    assert row["bound cycles/B (measured)"] == 0.19 and row["AES units alone cycles/B"] == 0.186
    assert row["fraction of the bound"] == pytest.approx(0.19 / row["cipherlab cycles/B"])
    assert row["formula cycles/B"] == pytest.approx(12 / 64)
    assert sweep.sweep_table(frame).empty  # the limit part is not a message size of the sweep


def test_the_probe_table_says_which_widths_were_measured():
    table = sweep.probe_table(RECORD)
    assert list(table.register) == ["xmm (AES-NI)", "zmm (VAES, AVX-512)"]
    assert table.measured.iloc[0] == "yes" and table.measured.iloc[1].startswith("not measured: the CPU lacks")
    assert table["CTR block AES-192 cycles/B"].iloc[0] == 0.37 and np.isnan(table["AES instructions / cycle"].iloc[1])


def test_run_sweep_without_a_clock_or_a_record_says_unknown():
    frame = bench.run_sweep(sizes=(64,), mode="ecb", impl="table", repeats=1)
    assert frame.cycles_per_byte.isna().all()
    table = sweep.sweep_table(frame)
    assert table["bound cycles/B (measured)"].isna().all() and table["formula cycles/B"].isna().all()
    assert sweep.limit_table(frame, {}).empty


def test_an_older_sweep_without_parts_still_reads():
    frame = bench.run_sweep(sizes=(64,), mode="ctr", impl="table", repeats=1, clock_hz=3e9)
    old = frame.drop(columns=["part", "key_bits", "threads"])
    assert list(sweep.sweep_table(old).message) == ["64 B"]


@pytest.mark.parametrize("kwargs, match", [
    (dict(sizes=(15,)), "sizes must be positive multiples of 16"),
    (dict(sizes=()), "sizes must be positive multiples of 16"),
    (dict(mode="cbc"), "mode must be one of"),
    (dict(impl="fast"), "impl must be one of"),
    (dict(repeats=0), "repeats must be an integer >= 1"),
])
def test_run_sweep_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        bench.run_sweep(**kwargs)


def test_openssl_machine_readable_output_is_parsed():
    rows = bench.parse_openssl_mr(OPENSSL_MR, bench.OPENSSL_DEFAULT_SIZES)
    assert [r["bytes"] for r in rows] == [16, 64, 256, 1024, 8192, 16384]
    assert rows[0]["mb_per_s"] == pytest.approx(888.02904) and rows[-1]["mb_per_s"] == pytest.approx(9200.0)
    assert bench.parse_openssl_mr("no result line\n", (16,)) == []


def test_openssl_absent_is_said(monkeypatch):
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    assert bench.openssl_speed("ctr") == "openssl is not on PATH: not measured"


def test_openssl_runs_one_process_per_extra_size(monkeypatch):
    calls = []

    class Done:
        def __init__(self, cmd):
            calls.append(cmd)
            n = int(cmd[cmd.index("-bytes") + 1]) if "-bytes" in cmd else None
            self.stdout = OPENSSL_MR if n is None else f"+F:25:AES-128-CTR:{n * 1000.0}\n"

    monkeypatch.setattr(bench.shutil, "which", lambda name: "/usr/bin/openssl")
    monkeypatch.setattr(bench.subprocess, "run", lambda cmd, **kw: Done(cmd))
    got = bench.openssl_speed("ecb", sizes=(16, 1 << 20))
    assert list(got.bytes) == [16, 1 << 20] and got.mb_per_s.iloc[1] == pytest.approx((1 << 20) / 1000)
    assert all(c[-2:] == ["-evp", "aes-128-ecb"] for c in calls) and len(calls) == 2


def test_bench_sizes_main_prints_and_writes(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(bench, "SWEEP_SIZES", (16, 256))
    monkeypatch.setattr(bench, "TWO_THREAD_SIZES", (256,))
    monkeypatch.setattr(bench, "LIMIT_BYTES", 1024)
    monkeypatch.setattr(bench, "openssl_speed", lambda mode, sizes: "openssl is not on PATH: not measured")
    monkeypatch.setattr(bench, "new_timings", lambda mode: pd.DataFrame(
        [dict(impl="table", us=5.0, pycryptodome_us=6.0, ratio=5 / 6)]))
    out = tmp_path / "sweep.csv"
    assert bench.main(["--sizes", "--impl", "table", "--repeats", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "cipherlab fresh MB/s" in text and "OpenSSL: openssl is not on PATH: not measured" in text
    assert "the measured bound" in text and "fraction of the bound" in text and "AES units alone" in text
    assert "new() alone" in text and "load average before" in text and "features" in text
    rows, meta = sweep.sweep_results(out)
    assert set(rows[rows.part == "sizes"].bytes) == {16, 256} and rows.run_id.nunique() == 1
    assert set(rows[rows.part == "limit"].key_bits) == {128, 192, 256}
    assert meta["clock_hz_measured"] == meta["probe"]["clock_hz"] > 0 and "load_average_before" in meta
    assert "cpu_mhz_os" in meta and meta["kernel_width"] is None and isinstance(meta["cpu_flags"], list)
    assert set(meta["probe"]["bound_cycles_per_byte"]) == {"128", "192", "256"}
    assert meta["limit_batches"] == bench.LIMIT_REPEATS and f"the fastest of {bench.LIMIT_REPEATS} batches" in text
    assert json.loads((tmp_path / "sweep.csv.meta.json").read_text())["openssl"].startswith("openssl is not")
    fig = env_page.sweep_figure(rows)
    assert len(fig.axes[0].lines) == 4
    assert len(sweep.limit_table(rows, meta)) == 6


def _fake_sweep(monkeypatch):
    monkeypatch.setattr(bench, "SWEEP_SIZES", (16, 256))
    monkeypatch.setattr(bench, "LIMIT_BYTES", 256)   # the limit part: 3 key sizes x 2 modes, on 256 B here
    monkeypatch.setattr(bench, "openssl_speed", lambda mode, sizes: "openssl is not on PATH: not measured")
    monkeypatch.setattr(bench, "new_timings", lambda mode: pd.DataFrame(
        [dict(impl="table", us=5.0, pycryptodome_us=6.0, ratio=5 / 6)]))


def test_the_pipeline_sweep_goes_through_the_one_raw_writer_and_reader(monkeypatch, tmp_path):
    """Issue 33, item 5: the rule bench_sweep's file was written without a row count or digest and read with
    pd.read_csv, so 5 rows dropped and one mb_per_s set to 987654 reached the Environment page."""
    from cipherlab.pipeline import paths
    from cipherlab.pipeline.results import RawDataError

    _fake_sweep(monkeypatch)
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path)
    repeats = config.load_config("quick")["bench_sweep_repeats"]
    assert bench.main(["--sizes", "--impl", "table", "--repeats", str(repeats), "--profile", "quick"]) == 0
    csv, meta_path = paths.Profile("quick").raw_csv("bench_sweep"), paths.Profile("quick").raw_meta("bench_sweep")
    meta = json.loads(meta_path.read_text())
    # the sweep's two parts in one file: 2 sizes x 6 cases (cipherlab on arrays and on bytes, fresh and reused,
    # PyCryptodome fresh and reused), and the limit part (3 key sizes x ECB and CTR)
    assert meta["experiment"] == "bench_sweep" and meta["profile"] == "quick" and meta["raw_rows"] == 12 + 6
    assert meta["config"] == {"mode": "ctr", "repeats": repeats} and meta["sizes"] == [16, 256]
    rows, _ = env_page.read_sweep("quick")
    assert len(rows) == 12 + 6 and rows["part"].value_counts().to_dict() == {"sizes": 12, "limit": 6}
    good = csv.read_bytes()
    lines = good.splitlines(keepends=True)
    edited = [lines[0]] + lines[1:]
    edited[1] = edited[1].replace(edited[1].split(b",")[5], b"987654", 1)
    for damaged in (b"".join(lines[:-5]), b"".join(edited)):
        csv.write_bytes(damaged)
        with pytest.raises(RawDataError, match="truncated or edited"):
            env_page.read_sweep("quick")
    csv.write_bytes(good)
    meta_path.write_text(json.dumps({**meta, "config": {"mode": "ctr", "repeats": repeats + 1}}))
    with pytest.raises(RawDataError, match=f"config.repeats: recorded {repeats + 1}, this run {repeats}"):
        env_page.read_sweep("quick")
    meta_path.unlink()
    with pytest.raises(RawDataError, match="provenance record bench_sweep.meta.json is missing"):
        env_page.read_sweep("quick")


def test_bench_profile_goes_with_sizes_and_not_with_out(capsys):
    for argv in (["--profile", "quick"], ["--sizes", "--profile", "quick", "--out", "x.csv"], ["--sizes", "--profile", "nope"]):
        with pytest.raises(SystemExit) as exc:
            bench.main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--profile" in err
