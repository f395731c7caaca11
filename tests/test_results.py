"""cipherlab.pipeline.results: atomic writes, raw and table files, the timing-table convention."""
from __future__ import annotations

import hashlib
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
        with results.atomic_path(target, parents=True) as tmp:
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
    record = json.loads(tmp_profile.raw_meta("exp").read_text())
    assert {k: record[k] for k in meta} == meta
    assert record["raw_rows"] == 1 and record["raw_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    pd.testing.assert_frame_equal(results.read_raw("exp", tmp_profile), df)


def _saved_trials(tmp_profile, n=2400):
    df = pd.DataFrame({"impl": ["reference", "table"] * (n // 2), "trial": range(n), "seconds": 0.5})
    return results.save_raw(df, "maes_block", tmp_profile, meta={"run_id": "r1"})


@pytest.mark.parametrize("cut", ["whole lines", "mid line"])
def test_a_truncated_raw_file_is_refused_naming_the_file_and_the_rows(tmp_profile, cut):
    path = _saved_trials(tmp_profile)
    lines = path.read_bytes().splitlines(keepends=True)
    kept = b"".join(lines[:1201])
    path.write_bytes(kept if cut == "whole lines" else kept + lines[1201][:5])
    with pytest.raises(results.RawDataError) as err:
        results.read_raw("maes_block", tmp_profile)
    msg = str(err.value)
    assert str(path) in msg and "recorded 2400" in msg and "truncated or edited" in msg
    assert ("1200 rows" in msg) if cut == "whole lines" else ("1201 rows" in msg)


def test_a_raw_file_edited_by_hand_is_refused_even_with_its_row_count(tmp_profile):
    path = _saved_trials(tmp_profile)
    path.write_bytes(path.read_bytes().replace(b"0.5\n", b"0.4\n", 1))
    with pytest.raises(results.RawDataError, match="SHA-256 .*recorded"):
        results.read_raw("maes_block", tmp_profile)


def test_a_raw_file_without_its_record_is_refused(tmp_profile):
    path = _saved_trials(tmp_profile)
    tmp_profile.raw_meta("maes_block").write_text('{"run_id": "r1"}')
    with pytest.raises(results.RawDataError, match="records no row count"):
        results.read_raw("maes_block", tmp_profile)
    assert path.is_file()


def test_save_table_and_read_table(tmp_profile):
    df = pd.DataFrame({"a": ["x", "NA"], "b": [1.5, 2.0]})
    results.save_table(df, "t", tmp_profile)
    back = results.read_table("t", tmp_profile)
    assert list(back["a"]) == ["x", "NA"]  # "NA" is a label, not a missing value
