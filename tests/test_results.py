"""cipherlab.pipeline.results: atomic writes, raw and table files, the timing-table convention, and the
one writer every command goes through.

Every command that writes a file goes through the one writer (``pipeline.results.atomic_path``):
``cipherlab encrypt/decrypt -o``, ``bench --out``, ``selfcheck --out``, ``save_raw``, ``save_table``.

For each: a symlink is written through, a FIFO and a device are written in place (never replaced: a
copy of ``/dev/full`` stays a device and the write fails with one line), a directory and a missing
directory are refused with one line and a non-zero exit (the pipeline's own trees are created), a new
file gets its mode (``-o``: 0600, the others the umask's) and an existing file keeps its mode.
Devices are copies made with ``os.mknod`` in a temporary directory, never /dev itself.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import threading

import pandas as pd
import pytest

from cipherlab import bench, cli, selfcheck
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
    tmp_profile.raw_meta("maes_block").write_text('{"run_id": "r1", "experiment": "maes_block", "profile": "quick"}')
    with pytest.raises(results.RawDataError, match="records no row count"):
        results.read_raw("maes_block", tmp_profile)
    assert path.is_file()


@pytest.mark.parametrize("which", ["record", "raw file"])
def test_a_raw_file_or_record_that_is_a_fifo_is_refused_at_once_not_read(tmp_profile, which):
    """A FIFO in place of the CSV or its record would block the reader forever (a probe waited 10 s)."""
    _saved_trials(tmp_profile)
    target = tmp_profile.raw_meta("maes_block") if which == "record" else tmp_profile.raw_csv("maes_block")
    target.unlink()
    os.mkfifo(target)
    with pytest.raises(results.RawDataError, match="must be a regular file, got a FIFO"):
        results.read_raw("maes_block", tmp_profile)


# -- raw data proves where it came from (issue 33, item 4) ----------------------------------------------


def _pair(tmp_profile, experiment="maes_block", profile="quick", config=None, seed=7):
    """A raw pair written by the one writer into ``profile``'s tree, under ``tmp_profile``'s data root."""
    df = pd.DataFrame({"impl": ["reference", "table"] * 3, "trial": range(6), "seconds": 0.5})
    results.save_raw(df, experiment, paths.Profile(profile),
                     meta={"run_id": "r1", "seed": seed, "config": config or {"trials": 6}, "git_commit": "abc123"})
    return df


def _one_line(err) -> str:
    msg = str(err.value)
    assert "\n" not in msg and "Traceback" not in msg
    return msg


def test_the_record_names_its_experiment_and_profile(tmp_profile):
    _pair(tmp_profile)
    record = json.loads(tmp_profile.raw_meta("maes_block").read_text())
    assert record["experiment"] == "maes_block" and record["profile"] == "quick"
    with pytest.raises(ValueError, match="record says profile 'full'"):
        results.save_raw(pd.DataFrame({"a": [1]}), "x", tmp_profile, meta={"profile": "full"})


def test_a_full_profile_pair_dropped_into_the_quick_tree_is_refused(tmp_profile):
    """The probe: data/raw/full/<x>.{csv,meta.json} copied into data/raw/quick/ was read as quick data."""
    _pair(tmp_profile, profile="full")
    full = paths.Profile("full")
    for src in (full.raw_csv("maes_block"), full.raw_meta("maes_block")):
        (tmp_profile.raw / src.name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_profile.raw / src.name).write_bytes(src.read_bytes())
    with pytest.raises(results.RawDataError) as err:
        results.read_raw("maes_block", tmp_profile)
    assert "is the record of profile 'full', not 'quick'" in _one_line(err)


def test_another_experiments_pair_renamed_is_refused(tmp_profile):
    _pair(tmp_profile, experiment="aead_phase1")
    for ext in (".csv", ".meta.json"):
        (tmp_profile.raw / f"aead_phase1{ext}").rename(tmp_profile.raw / f"maes_block{ext}")
    with pytest.raises(results.RawDataError) as err:
        results.read_raw("maes_block", tmp_profile)
    assert "is the record of experiment 'aead_phase1', not 'maes_block'" in _one_line(err)


def test_a_pair_measured_with_other_parameters_is_refused_naming_each(tmp_profile):
    _pair(tmp_profile, config={"trials": 6, "warmup": 1, "sizes": [1, 2]}, seed=7)
    expected = {"seed": 8, "config": {"trials": 6, "warmup": 2, "sizes": (1, 2), "processes": 2}}
    with pytest.raises(results.RawDataError) as err:
        results.read_raw("maes_block", tmp_profile, expected=expected)
    msg = _one_line(err)
    assert "seed: recorded 7, this run 8" in msg and "config.warmup: recorded 1, this run 2" in msg
    assert "config.processes: not recorded, this run 2" in msg
    assert "sizes" not in msg and "trials" not in msg   # equal values (a tuple is its list) are not named
    same = {"seed": 7, "config": {"trials": 6, "warmup": 1, "sizes": (1, 2)}}
    assert len(results.read_raw("maes_block", tmp_profile, expected=same)) == 6
    with pytest.raises(results.RawDataError, match="config.warmup: recorded 1, not a parameter of this run"):
        results.read_raw("maes_block", tmp_profile, expected={"config": {"trials": 6, "sizes": [1, 2]}})


def test_a_shipped_run_is_checked_in_its_own_directory_and_reports_its_commit(tmp_profile, tmp_path):
    df = _pair(tmp_profile)
    shipped = tmp_path / "shipped" / "quick"
    shipped.mkdir(parents=True)
    for src in (tmp_profile.raw_csv("maes_block"), tmp_profile.raw_meta("maes_block")):
        (shipped / src.name).write_bytes(src.read_bytes())
    tmp_profile.raw_csv("maes_block").unlink()
    record = results.check_raw("maes_block", "quick", directory=shipped,
                               expected={"seed": 7, "config": {"trials": 6}})
    pd.testing.assert_frame_equal(record.frame, df)
    assert record.commit == "abc123" and record.path == shipped / "maes_block.csv"


@pytest.mark.parametrize("damage, message", [
    ("no record", "its provenance record maes_block.meta.json is missing"),
    ("no csv", "missing (its record maes_block.meta.json is there)"),
    ("not json", "not valid JSON"),
    ("a list", "must hold a JSON object, got list"),
    ("rows as text", "records raw_rows '6' and raw_sha256"),
    ("garbage csv", "SHA-256"),
])
def test_a_missing_or_corrupt_record_is_one_line(tmp_profile, damage, message):
    _pair(tmp_profile)
    meta, csv = tmp_profile.raw_meta("maes_block"), tmp_profile.raw_csv("maes_block")
    record = json.loads(meta.read_text())
    if damage == "no record":
        meta.unlink()
    elif damage == "no csv":
        csv.unlink()
    elif damage == "not json":
        meta.write_text("{not json")
    elif damage == "a list":
        meta.write_text("[1, 2]")
    elif damage == "rows as text":
        meta.write_text(json.dumps({**record, "raw_rows": str(record["raw_rows"])}))
    else:
        csv.write_bytes(b"\x00\xff\"unterminated\n")
    with pytest.raises(results.RawDataError) as err:
        results.read_raw("maes_block", tmp_profile)
    assert message in _one_line(err)
    if damage in ("no record", "not json", "a list"):
        with pytest.raises(results.RawDataError, match=message.split(" (")[0]):
            results.read_raw_meta("maes_block", tmp_profile)


def test_save_table_and_read_table(tmp_profile):
    df = pd.DataFrame({"a": ["x", "NA"], "b": [1.5, 2.0]})
    results.save_table(df, "t", tmp_profile)
    back = results.read_table("t", tmp_profile)
    assert list(back["a"]) == ["x", "NA"]  # "NA" is a label, not a missing value


# ============================================================================ the one writer

KEY = "000102030405060708090a0b0c0d0e0f"
CLI_COMMANDS = ("encrypt", "decrypt", "bench", "selfcheck")
LIBRARY = ("save_raw", "save_table")


@pytest.fixture(scope="module")
def bench_frame():
    """One real, tiny benchmark frame (the write is what is tested, not the timing)."""
    return bench.run_bench(4096, ciphers=["aes"], impls=["table"], key_bytes=16, repeats=1)


@pytest.fixture
def fast(monkeypatch, bench_frame):
    """bench and selfcheck with their measuring replaced by a ready frame: only the writing runs."""
    monkeypatch.setattr(bench, "run_bench", lambda *a, **k: bench_frame)
    frame = pd.DataFrame([{"cipher": "aes", "impl": "table", "mode": "ecb", "check": "k", "passed": True,
                           "detail": "d"}])
    monkeypatch.setattr(selfcheck, "run_selfcheck", lambda *a, **k: frame)


def run_cli(command, out, tmp_path, capsys):
    src = tmp_path / "plain.bin"
    if not src.exists():
        src.write_bytes(bytes(range(256)) * 8)
    if command == "decrypt":
        cli.main(["encrypt", "-i", str(src), "-o", str(tmp_path / "ct.bin"), "--key", KEY, "--mode", "ctr", "--iv", KEY])
        src = tmp_path / "ct.bin"
    argv = {"encrypt": ["encrypt", "-i", str(src), "-o", str(out), "--key", KEY, "--mode", "ctr", "--iv", KEY],
            "decrypt": ["decrypt", "-i", str(src), "-o", str(out), "--key", KEY, "--mode", "ctr", "--iv", KEY],
            "bench": ["bench", "--size-mib", "0.01", "--repeats", "1", "--cipher", "aes", "--impl", "table",
                      "--out", str(out)],
            "selfcheck": ["selfcheck", "--out", str(out)]}[command]
    capsys.readouterr()
    status = cli.main(argv)
    return status, capsys.readouterr().err


FRAME = pd.DataFrame({"cipher": ["aes"] * 3, "seconds": [0.1, 0.2, 0.3]})


def library_target(how, prof):
    return prof.raw_csv("exp") if how == "save_raw" else prof.table("exp")


def run_library(how, prof):
    if how == "save_raw":
        return results.save_raw(FRAME, "exp", prof, meta={"run_id": "r"})
    return results.save_table(FRAME, "exp", prof)


def _one_line_error(err):
    return err.count("\n") == 1 and "error" in err and "Traceback" not in err


def _mknod_full(path):
    if os.geteuid() != 0:
        pytest.skip("mknod needs root")
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # 1,7 = full
    return path


# --- the command line ---------------------------------------------------------------------------

@pytest.mark.usefixtures("fast")
@pytest.mark.parametrize("command", CLI_COMMANDS)
def test_cli_symlink_is_written_through(command, tmp_path, capsys):
    real = tmp_path / "real.out"
    real.write_bytes(b"old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.out"
    link.symlink_to(real)
    status, err = run_cli(command, link, tmp_path, capsys)
    assert status == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() != b"old" and stat.S_IMODE(real.stat().st_mode) == 0o640


@pytest.mark.usefixtures("fast")
@pytest.mark.parametrize("command", CLI_COMMANDS)
def test_cli_fifo_is_written_in_place(command, tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    status, err = run_cli(command, fifo, tmp_path, capsys)
    reader.join(timeout=30)
    assert status == 0, err
    assert got and got[0], "nothing reached the reader"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO was replaced by a regular file"


@pytest.mark.usefixtures("fast")
@pytest.mark.parametrize("command", CLI_COMMANDS)
def test_cli_full_device_stays_a_device_and_fails_in_one_line(command, tmp_path, capsys):
    dev = _mknod_full(tmp_path / "full")
    status, err = run_cli(command, dev, tmp_path, capsys)
    assert status == cli.EXIT_FAILURE, err
    assert "No space left on device" in err and _one_line_error(err), err
    assert stat.S_ISCHR(os.stat(dev).st_mode), "the device was replaced by a regular file"
    assert not list(tmp_path.glob(".*.part"))


@pytest.mark.usefixtures("fast")
@pytest.mark.parametrize("command", CLI_COMMANDS)
def test_cli_directory_is_refused_in_one_line(command, tmp_path, capsys):
    target = tmp_path / "adir"
    target.mkdir()
    status, err = run_cli(command, target, tmp_path, capsys)
    assert status == cli.EXIT_FAILURE and "is a directory" in err and _one_line_error(err), err
    assert list(target.iterdir()) == []


@pytest.mark.usefixtures("fast")
@pytest.mark.parametrize("command", CLI_COMMANDS)
def test_cli_missing_directory_is_refused_and_not_created(command, tmp_path, capsys):
    out = tmp_path / "no" / "such" / "out.csv"
    status, err = run_cli(command, out, tmp_path, capsys)
    assert status == cli.EXIT_FAILURE and "does not exist" in err and _one_line_error(err), err
    assert not (tmp_path / "no").exists()


@pytest.mark.usefixtures("fast")
@pytest.mark.parametrize("command", CLI_COMMANDS)
def test_cli_new_file_mode_and_existing_mode(command, tmp_path, capsys):
    new = tmp_path / "new.out"
    old_umask = os.umask(0o022)
    try:
        status, err = run_cli(command, new, tmp_path, capsys)
    finally:
        os.umask(old_umask)
    assert status == 0, err
    # -o may hold plaintext: 0600 like openssl and gpg; a benchmark or check table: what open() gives
    expected = 0o600 if command in ("encrypt", "decrypt") else 0o644
    assert stat.S_IMODE(new.stat().st_mode) == expected
    existing = tmp_path / "existing.out"
    existing.write_bytes(b"old")
    os.chmod(existing, 0o604)
    status, err = run_cli(command, existing, tmp_path, capsys)
    assert status == 0, err
    assert stat.S_IMODE(existing.stat().st_mode) == 0o604 and existing.read_bytes() != b"old"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only directory")
@pytest.mark.usefixtures("fast")
@pytest.mark.parametrize("command", CLI_COMMANDS)
def test_cli_read_only_directory_fails_in_one_line(command, tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o500)
    try:
        status, err = run_cli(command, ro / "out", tmp_path, capsys)
    finally:
        os.chmod(ro, 0o700)
    assert status == cli.EXIT_FAILURE and "Permission denied" in err and _one_line_error(err), err


# --- the library's pipeline writers -------------------------------------------------------------

@pytest.mark.parametrize("how", LIBRARY)
def test_library_creates_its_own_trees_and_writes_with_the_umask(how, tmp_profile):
    old_umask = os.umask(0o022)
    try:
        path = run_library(how, tmp_profile)
    finally:
        os.umask(old_umask)
    assert path == library_target(how, tmp_profile) and path.is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


@pytest.mark.parametrize("how", LIBRARY)
def test_library_symlink_written_through_and_mode_kept(how, tmp_profile, tmp_path):
    target = library_target(how, tmp_profile)
    target.parent.mkdir(parents=True)
    real = tmp_path / "elsewhere.csv"
    real.write_text("old\n")
    os.chmod(real, 0o640)
    target.symlink_to(real)
    run_library(how, tmp_profile)
    assert target.is_symlink() and real.read_text().startswith("cipher,")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


@pytest.mark.parametrize("how", LIBRARY)
def test_library_fifo_written_in_place(how, tmp_profile):
    target = library_target(how, tmp_profile)
    target.parent.mkdir(parents=True)
    os.mkfifo(target)
    got = []
    reader = threading.Thread(target=lambda: got.append(target.read_bytes()), daemon=True)
    reader.start()
    run_library(how, tmp_profile)
    reader.join(timeout=30)
    assert got and got[0].startswith(b"cipher,") and stat.S_ISFIFO(os.stat(target).st_mode)


@pytest.mark.parametrize("how", LIBRARY)
def test_library_full_device_raises_and_stays_a_device(how, tmp_profile):
    target = library_target(how, tmp_profile)
    target.parent.mkdir(parents=True)
    _mknod_full(target)
    with pytest.raises(OSError) as err:
        run_library(how, tmp_profile)
    assert err.value.errno == errno.ENOSPC and str(target) in str(err.value)
    assert stat.S_ISCHR(os.stat(target).st_mode)


@pytest.mark.parametrize("how", LIBRARY)
def test_library_directory_is_refused(how, tmp_profile):
    target = library_target(how, tmp_profile)
    target.mkdir(parents=True)
    with pytest.raises(IsADirectoryError, match="is a directory"):
        run_library(how, tmp_profile)
    assert list(target.iterdir()) == []


def test_the_writers_create_no_directory_unless_asked(tmp_path):
    for write in (lambda p: results.write_text(p, "x"), lambda p: results.write_csv(FRAME, p),
                  lambda p: results.write_json({}, p), lambda p: results.write_bytes(p, b"x")):
        with pytest.raises(FileNotFoundError, match="does not exist"):
            write(tmp_path / "missing" / "f")
        assert not (tmp_path / "missing").exists()
    assert results.write_text(tmp_path / "made" / "f", "x", parents=True).read_text() == "x"
