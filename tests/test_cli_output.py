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


# -- the output never destroys its input (issue 33, item 1) -------------------------------------------------


def _shell(script: str, cwd) -> subprocess.CompletedProcess:
    """``script`` in sh, with ``$C`` the cipherlab command of this interpreter and ``$K`` the key."""
    env = {**os.environ, "C": f"{sys.executable} -m cipherlab", "K": KEY}
    return subprocess.run(["sh", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("how", ["same path", "symlink", "hard link", "stdout appended", "stdin"])
def test_an_output_that_is_the_input_is_refused_and_the_input_kept(tmp_path, how):
    """The probe: `encrypt -i f -o f` exited 0 with f holding only ciphertext (through a symlink too)."""
    (tmp_path / "f").write_bytes(b"secret")
    command = {
        "same path": "$C encrypt -i f -o f --key $K --iv $K",
        "symlink": "ln -s f link && $C encrypt -i f -o link --key $K --iv $K",
        "hard link": "ln f hard && $C encrypt -i f -o hard --key $K --iv $K",
        "stdout appended": "$C encrypt -i f -o - --key $K --iv $K >> f",
        "stdin": "$C encrypt -i - -o f --key $K --iv $K < f",
    }[how]
    proc = _shell(command, tmp_path)
    assert proc.returncode == cli.EXIT_USAGE, proc.stderr
    assert proc.stderr.count("\n") == 1 and "is the input" in proc.stderr and "write to another file" in proc.stderr
    assert (tmp_path / "f").read_bytes() == b"secret"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".part")) == []


def test_a_wrong_key_ctr_decryption_in_place_is_refused(tmp_path):
    """CTR never fails on a wrong key: in place, it replaced the ciphertext with garbage."""
    proc = _shell("printf secret > p && $C encrypt -i p -o c --mode ctr --key $K --iv $K"
                  " && cp c before && $C decrypt -i c -o c --mode ctr --key ffeeddccbbaa99887766554433221100 --iv $K",
                  tmp_path)
    assert proc.returncode == cli.EXIT_USAGE and "is the input" in proc.stderr
    assert (tmp_path / "c").read_bytes() == (tmp_path / "before").read_bytes()


# -- /dev/stdout and friends are written through the descriptor (issue 33, item 2) ------------------------


@pytest.mark.parametrize("target", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
def test_a_descriptor_path_appends_as_the_shell_said(tmp_path, target):
    """The probe: `-o /dev/stdout >>a` replaced a (41 bytes) with the 16-byte ciphertext."""
    (tmp_path / "p").write_bytes(b"plain")
    (tmp_path / "a").write_bytes(b"keep" * 10 + b"\n")
    proc = _shell(f"$C encrypt -i p -o {target} --key $K --iv $K >> a", tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = (tmp_path / "a").read_bytes()
    assert len(data) == 41 + 16 and data.startswith(b"keep" * 10 + b"\n")


@pytest.mark.parametrize("command, size", [
    ("$C encrypt -i p -o /dev/stdout --mode ctr --key $K --iv $K | wc -c", "5"),
    ("$C encrypt -i p -o /dev/stderr --mode ctr --key $K --iv $K 2>&1 >/dev/null | wc -c", "5"),
    ("$C selfcheck --cipher aes --impl table --out /dev/stdout | head -1", "cipher,impl,mode,check,passed,detail"),
    ("$C bench --size-mib 0.01 --repeats 1 --cipher aes --impl table --out /dev/stdout 2>/dev/null | grep -c '^aes,'",
     None),
])
def test_a_descriptor_path_works_into_a_pipe(tmp_path, command, size):
    """Today: "No such file or directory" (the pipe's /proc name resolved to nothing)."""
    (tmp_path / "p").write_bytes(b"plain")
    proc = _shell(command, tmp_path)
    assert proc.returncode == 0, proc.stderr
    if size is None:
        assert int(proc.stdout.strip()) > 0
    else:
        assert proc.stdout.strip() == size


def test_a_descriptor_that_is_not_open_is_one_line(capsys, src):
    status, err = run(capsys, "/dev/fd/97", src)
    assert status == cli.EXIT_FAILURE and err.count("\n") == 1 and "descriptor 97, which is not open" in err


def test_an_empty_output_name_is_one_line(capsys, src):
    status = cli.main(["encrypt", "-i", str(src), "-o", "", "--key", KEY, "--mode", "ctr", "--iv", KEY])
    err = capsys.readouterr().err
    assert status == cli.EXIT_USAGE and err == ("cipherlab: error: --output must name a file ('-' for standard "
                                                "output), got an empty string\n")
