"""bench and selfcheck run and report; no timing is asserted (timings are noise here)."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import yaml

import cipherlab
from cipherlab import bench, selfcheck
from cipherlab.pipeline.paths import CIPHER_DESCRIPTIONS_DIR
from cipherlab.ciphers.cpu import has_aesni

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
