"""cipherlab.pipeline.results: atomic writes, raw and table files, the timing-table convention."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from cipherlab.analysis import timing

from cipherlab.pipeline import paths, results
@pytest.fixture
def tmp_profile(tmp_path, monkeypatch):
    """A Profile whose trees live under tmp_path (DATA_DIR and ROOT redirected)."""
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path / "data")
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    return paths.Profile("quick")


def test_atomic_write_leaves_no_partial_file_when_the_writer_raises(tmp_path):
    target = tmp_path / "out" / "table.csv"
    with pytest.raises(RuntimeError):
        with results.atomic_path(target) as tmp:
            tmp.write_text("half a tab")
            raise RuntimeError("interrupted")
    assert not target.exists()
    assert list(target.parent.iterdir()) == []  # no temporary left behind either


def test_atomic_write_keeps_the_old_file_when_the_writer_raises(tmp_path):
    target = tmp_path / "table.csv"
    target.write_text("old complete\n")
    with pytest.raises(KeyError):
        with results.atomic_path(target) as tmp:
            tmp.write_text("new partial")
            raise KeyError("boom")
    assert target.read_text() == "old complete\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]


def test_write_csv_is_byte_stable_and_round_trips(tmp_path):
    df = pd.DataFrame({"cipher": ["aes", "maes-1"], "bytes": [16, 32], "x": [0.1, 1 / 3]})
    a = results.write_csv(df, tmp_path / "a.csv").read_bytes()
    b = results.write_csv(df, tmp_path / "b.csv").read_bytes()
    assert a == b and b"\r\n" not in a
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "a.csv"), df)


def test_save_raw_writes_csv_and_provenance(tmp_profile):
    df = pd.DataFrame({c: [1] for c in timing.TIMING_COLUMNS})
    meta = {"run_id": "r1", "seed": 7}
    path = results.save_raw(df, "exp", tmp_profile, meta=meta)
    assert path == tmp_profile.raw_csv("exp") and path.is_file()
    assert json.loads(tmp_profile.raw_meta("exp").read_text()) == meta
    pd.testing.assert_frame_equal(results.read_raw("exp", tmp_profile), df)


def test_save_table_and_read_table(tmp_profile):
    df = pd.DataFrame({"a": ["x", "NA"], "b": [1.5, 2.0]})
    results.save_table(df, "t", tmp_profile)
    back = results.read_table("t", tmp_profile)
    assert list(back["a"]) == ["x", "NA"]  # "NA" is a label, not a missing value
