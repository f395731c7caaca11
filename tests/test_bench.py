"""bench and selfcheck run and report; no timing is asserted (timings are noise here)."""
from __future__ import annotations

import pandas as pd
import pytest

from cipherlab import bench, selfcheck


def test_run_bench_small_frame():
    frame = bench.run_bench(size=4096, ciphers=("aes", "maes-2"), impls=("table",), threads=(1,), repeats=1)
    assert set(frame.columns) >= {"cipher", "impl", "mode", "operation", "threads", "bytes", "seconds", "mb_per_s",
                                  "compile_seconds"}
    ours = frame[frame.impl == "table"]
    assert len(ours) == 2 * 2 * 2  # ciphers x modes x operations
    assert set(frame.impl) == {"table", "pycryptodome-sw", "pycryptodome-aesni"}
    assert (frame.mb_per_s > 0).all() and (frame.bytes == 4096).all()
    ratios = bench.target_ratios(frame)
    assert list(ratios.required) == [1.5, 1.7]


def test_run_bench_rejects_bad_size():
    with pytest.raises(ValueError, match="size must be a positive multiple of 16"):
        bench.run_bench(size=100)


def test_bench_main_prints_table(capsys):
    assert bench.main(["--size-mib", "0.01", "--repeats", "1", "--cipher", "aes", "--impl", "table"]) == 0
    out = capsys.readouterr().out
    assert "pycryptodome-sw" in out and "encrypt 1T" in out and "target >= 1.5x" in out


def test_selfcheck_subset_and_main(tmp_path):
    frame = selfcheck.run_selfcheck(ciphers=("aes-2sbox",), impls=("reference", "table"))
    assert list(frame.columns) == ["cipher", "impl", "mode", "check", "passed", "detail"]
    assert frame.passed.all() and set(frame.cipher) == {"aes-2sbox"}
    assert any(frame.check.str.startswith("reference == table"))
    out = tmp_path / "selfcheck.csv"
    assert selfcheck.main(["--out", str(out), "--cipher", "aes", "--impl", "table"]) == 0
    written = pd.read_csv(out)
    assert written.passed.all() and any(written.check.str.startswith("FIPS-197"))


def test_selfcheck_reports_a_broken_cipher(monkeypatch):
    import cipherlab.selfcheck as sc

    real_new = sc.new

    def broken_new(*args, **kwargs):
        obj = real_new(*args, **kwargs)
        obj.encrypt = lambda data: b"\x00" * 16
        return obj

    monkeypatch.setattr(sc, "new", broken_new)
    frame = sc.run_selfcheck(ciphers=("aes",), impls=("table",))
    assert not frame.passed.all()
    assert sc.main(["--cipher", "aes", "--impl", "table"]) == 1


def test_selfcheck_rejects_unknown():
    with pytest.raises(ValueError, match="ciphers must be a subset"):
        selfcheck.run_selfcheck(ciphers=("rot13",))
