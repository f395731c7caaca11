"""``cipherlab encrypt/decrypt -o``: never clobber a device, FIFO or symlink, keep modes, report every
failed write.  Devices are *copies* made with ``os.mknod`` in a temporary directory, never /dev itself."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading

import pytest

from cipherlab import cli

KEY = "000102030405060708090a0b0c0d0e0f"


def run(capsys, out, src):
    status = cli.main(["encrypt", "-i", str(src), "-o", str(out), "--key", KEY, "--mode", "ctr", "--iv", KEY])
    return status, capsys.readouterr().err


@pytest.fixture
def src(tmp_path):
    p = tmp_path / "plain.bin"
    p.write_bytes(os.urandom(5000))
    return p


def _mknod(path, minor):
    if os.geteuid() != 0:
        pytest.skip("mknod needs root")
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))  # 1,3 = null; 1,7 = full
    return path


def test_character_device_is_written_not_replaced(capsys, tmp_path, src):
    dev = _mknod(tmp_path / "null", 3)
    status, err = run(capsys, dev, src)
    assert status == 0, err
    assert stat.S_ISCHR(os.stat(dev).st_mode), "the device was replaced by a regular file"
    assert not list(tmp_path.glob(".*.part"))


def test_full_device_gives_nonzero_exit_and_clear_message(capsys, tmp_path, src):
    dev = _mknod(tmp_path / "full", 7)
    status, err = run(capsys, dev, src)
    assert status == cli.EXIT_FAILURE
    assert "No space left on device" in err and "--output" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert stat.S_ISCHR(os.stat(dev).st_mode)


def test_symlink_is_written_through(capsys, tmp_path, src):
    real = tmp_path / "real.bin"
    real.write_bytes(b"old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.bin"
    link.symlink_to(real)
    status, err = run(capsys, link, src)
    assert status == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert len(real.read_bytes()) == 5000
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640


def test_dangling_symlink_creates_its_target(capsys, tmp_path, src):
    link = tmp_path / "link.bin"
    link.symlink_to(tmp_path / "new.bin")
    status, err = run(capsys, link, src)
    assert status == 0, err
    assert link.is_symlink() and (tmp_path / "new.bin").stat().st_size == 5000


def test_fifo_is_written_not_replaced(capsys, tmp_path, src):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    status, err = run(capsys, fifo, src)
    reader.join(timeout=30)
    assert status == 0, err
    assert got and len(got[0]) == 5000
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o644, 0o400])
def test_existing_file_keeps_its_mode(capsys, tmp_path, src, mode):
    out = tmp_path / "out.bin"
    out.write_bytes(b"old")
    os.chmod(out, mode)
    status, err = run(capsys, out, src)
    assert status == 0, err
    assert stat.S_IMODE(os.stat(out).st_mode) == mode
    assert out.stat().st_size == 5000


def test_new_file_is_created_0600(capsys, tmp_path, src):
    out = tmp_path / "secret.bin"
    old = os.umask(0)  # even with a permissive umask
    try:
        status, err = run(capsys, out, src)
    finally:
        os.umask(old)
    assert status == 0, err
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600


def test_missing_output_directory_is_an_error(capsys, tmp_path, src):
    out = tmp_path / "no" / "such" / "dir" / "out.bin"
    status, err = run(capsys, out, src)
    assert status == cli.EXIT_FAILURE
    assert "does not exist" in err
    assert not (tmp_path / "no").exists()


def test_directory_as_output_is_an_error(capsys, tmp_path, src):
    status, err = run(capsys, tmp_path, src)
    assert status == cli.EXIT_FAILURE and "is a directory" in err


def test_closed_pipe_does_not_exit_zero(tmp_path):
    """``-o - | head -c 10`` on a 30 MB input: the reader goes away after 10 bytes."""
    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(30 * 2**20))
    proc = subprocess.Popen([sys.executable, "-m", "cipherlab", "encrypt", "-i", str(big), "-o", "-",
                             "--key", KEY, "--mode", "ctr", "--iv", KEY],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert len(proc.stdout.read(10)) == 10
    proc.stdout.close()
    err = proc.stderr.read().decode()
    status = proc.wait(timeout=120)
    assert status != 0, f"exit 0 after the reader closed the pipe; stderr: {err}"
    assert "closed the pipe" in err and "Traceback" not in err and "Exception ignored" not in err


def test_stdout_round_trip(tmp_path, src):
    proc = subprocess.run([sys.executable, "-m", "cipherlab", "encrypt", "-i", str(src), "-o", "-",
                           "--key", KEY, "--mode", "ctr", "--iv", KEY], capture_output=True, timeout=120)
    assert proc.returncode == 0 and len(proc.stdout) == 5000
