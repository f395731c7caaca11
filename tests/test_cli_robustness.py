"""The minor defects of issue 23, each one line and a non-zero exit, or the right behaviour:
Ctrl-C during imports, MemoryError, closed stdin/stdout, ``info >/dev/full``, ``selfcheck`` argument
errors, unknown config keys, ``make variant`` with a bad name or file, and the research-cipher warning
of ``cipherlab.Cipher``."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

import cipherlab
from cipherlab import cli
from cipherlab.pipeline import chapters, config, paths

KEY = "000102030405060708090a0b0c0d0e0f"
CIPHERLAB = Path(sys.executable).with_name("cipherlab")


def _cmd(*args):
    """The console script if installed, else ``python -m cipherlab``."""
    return [str(CIPHERLAB), *args] if CIPHERLAB.exists() else [sys.executable, "-m", "cipherlab", *args]


def _one_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err and "Exception ignored" not in err


# --- tracebacks --------------------------------------------------------------------------------

@pytest.mark.parametrize("delay", [0.3, 0.8, 1.5])
def test_ctrl_c_during_the_imports_gives_no_traceback(delay):
    proc = subprocess.Popen(_cmd("info"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    if "Traceback" in err and "cipherlab" not in err:
        pytest.skip("the signal landed in the interpreter's own start-up, before cipherlab runs")
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert proc.returncode in (-signal.SIGINT, 130) or (proc.returncode == 0 and err == ""), (proc.returncode, err)


def test_ctrl_c_after_the_imports_says_interrupted(capsys, monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "run_info", interrupted)
    assert cli.main(["info"]) == 130
    assert capsys.readouterr().err == "cipherlab: interrupted\n"


def test_ctrl_c_while_the_parser_is_built_says_interrupted(capsys, monkeypatch):
    """A Ctrl-C that lands after the imports but before a command's own handler (argparse building the parser, on
    a loaded machine a second after the start) is one line too, never a traceback."""
    def interrupted():
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["info"]) == 130
    assert capsys.readouterr().err == "cipherlab: interrupted\n"


def test_memory_error_is_one_line(capsys, monkeypatch, tmp_path):
    class Huge:
        def encrypt(self, data):
            raise MemoryError
    src = tmp_path / "in.bin"
    src.write_bytes(bytes(1000))
    monkeypatch.setattr(cipherlab, "new", lambda *a, **k: Huge())
    status = cli.main(["encrypt", "-i", str(src), "-o", str(tmp_path / "out"), "--key", KEY])
    err = capsys.readouterr().err
    assert status == cli.EXIT_FAILURE and "out of memory for an input of 1000 bytes" in err and _one_line(err), err
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS")
def test_memory_error_under_a_real_limit_is_one_line(tmp_path):
    import resource
    big = tmp_path / "big.bin"
    with open(big, "wb") as fh:
        fh.truncate(600 * 2**20)  # sparse: 600 MiB of zeros

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1500 * 2**20, 1500 * 2**20))
    proc = subprocess.run(_cmd("encrypt", "-i", str(big), "-o", str(tmp_path / "out"), "--key", KEY,
                               "--mode", "ctr", "--iv", KEY),
                          capture_output=True, text=True, timeout=300, preexec_fn=limit)
    if proc.returncode == 0:
        pytest.skip("the encryption fitted under the limit on this machine")
    assert proc.returncode == cli.EXIT_FAILURE and "out of memory" in proc.stderr, proc.stderr[-2000:]
    assert _one_line(proc.stderr), proc.stderr[-2000:]


def test_closed_stdout_is_one_line(tmp_path):
    src = tmp_path / "in.bin"
    src.write_bytes(b"hello")
    for args in (("encrypt", "-i", str(src), "-o", "-", "--key", KEY, "--mode", "ecb"), ("info",)):
        proc = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *_cmd(*args)], capture_output=False,
                              stderr=subprocess.PIPE, text=True, timeout=120)
        assert proc.returncode == cli.EXIT_FAILURE, proc.stderr
        assert "standard output is closed" in proc.stderr and _one_line(proc.stderr), proc.stderr


def test_closed_stdin_is_one_line(tmp_path):
    proc = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh",
                           *_cmd("encrypt", "-i", "-", "-o", str(tmp_path / "out"), "--key", KEY)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == cli.EXIT_USAGE, proc.stderr
    assert "standard input is closed" in proc.stderr and _one_line(proc.stderr), proc.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_info_to_a_full_device_is_one_line():
    with open("/dev/full", "w") as full:
        proc = subprocess.run(_cmd("info"), stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == cli.EXIT_FAILURE
    assert "No space left on device" in proc.stderr and _one_line(proc.stderr), proc.stderr


@pytest.mark.parametrize("args, match", [
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--impl", "nope"], "argument --impl: invalid choice: 'nope'"),
    (["--cipher"], "argument --cipher: expected one argument"),
])
def test_selfcheck_argument_errors_are_one_line_and_named_cipherlab_selfcheck(capsys, args, match):
    assert cli.main(["selfcheck", *args]) == cli.EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("cipherlab selfcheck: error: ") and match in err and _one_line(err), err


def test_selfcheck_refuses_a_bad_out_before_it_checks(capsys, tmp_path, monkeypatch):
    from cipherlab import selfcheck
    monkeypatch.setattr(selfcheck, "run_selfcheck", lambda *a, **k: pytest.fail("ran the checks first"))
    assert cli.main(["selfcheck", "--out", str(tmp_path / "none" / "x.csv")]) == cli.EXIT_FAILURE
    err = capsys.readouterr().err
    assert "does not exist" in err and _one_line(err)


# --- config: unknown keys -------------------------------------------------------------------------

@pytest.mark.parametrize("profile", ["quick", "full"])
def test_an_unknown_key_in_a_config_section_is_refused(profile):
    cfg = config.read_config(profile)
    cfg.setdefault("maes", {})["trials_bogus"] = 3
    with pytest.raises(ValueError, match=r"maes.trials_bogus: unknown key \(allowed: key_hex, "):
        config.validate(cfg, f"config/{profile}.yaml")


def test_snakemakes_validate_refuses_it_too(tmp_path):
    from snakemake.exceptions import WorkflowError
    from snakemake.utils import validate
    cfg = config.read_config("quick")
    cfg.setdefault("aead", {})["trails"] = 3
    with pytest.raises(WorkflowError, match="trails"):
        validate(cfg, str(config.write_schema(tmp_path / "config.schema.json")))


def test_every_config_section_with_keys_refuses_unknown_ones():
    schema = config.schema()
    open_sections = [name for name, sub in schema["properties"].items()
                     if isinstance(sub, dict) and "properties" in sub and sub.get("additionalProperties") is not False]
    assert not open_sections, f"sections that accept any key: {open_sections}"


# --- make variant -----------------------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
@pytest.mark.parametrize("name", ["../ciphers/aes", "no-such-variant", "Bad Name"])
def test_make_variant_with_a_bad_name_is_one_line(name):
    proc = subprocess.run(["make", "-s", "variant", f"VARIANT={name}"], cwd=paths.ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode != 0
    ours = [ln for ln in proc.stderr.splitlines() if not ln.startswith("make")]
    assert len(ours) == 1 and "no file config/variants/<name>.yaml" in ours[0], proc.stderr
    described = ", ".join(chapters.variant_names())   # words, not a list repr
    assert "['" not in ours[0] and ours[0].endswith(f"described variants: {described}"), ours[0]
    assert "Traceback" not in proc.stdout + proc.stderr and "snakemake" not in proc.stdout


@pytest.mark.parametrize("text, match", [
    ("custom: 'os:system'\n", r"key 'custom': 'os:system' would run Python code; refused unless allowed "
                              r"\(CIPHERLAB_ALLOW_CUSTOM=1"),
    ("key_bytes: 16\nseed: 99.0\n", r"unknown key 'seed'|key 'key_bytes' is given twice"),
    ("sbox: {kind: table, file: ../../../../etc/passwd}\nlinear: {kind: mixcolumns}\n",
     r"key 'sbox.file': a table file must lie in the variant file's folder"),
])
def test_the_variant_check_gives_the_reason_in_one_line(tmp_path, text, match):
    (tmp_path / "config" / "variants").mkdir(parents=True)
    (tmp_path / "config" / "variants" / "bad.yaml").write_text("name: bad\nsummary: s\nkey_bytes: 16\n" + text)
    env = {**os.environ, "CIPHERLAB_ROOT": str(tmp_path)}
    env.pop("CIPHERLAB_ALLOW_CUSTOM", None)
    proc = subprocess.run([sys.executable, "-m", "cipherlab._variant_check", "bad"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and _one_line(proc.stderr), proc.stderr
    assert proc.stderr.startswith("variant: error: ") and "root:" not in proc.stderr
    import re
    assert re.search(match, proc.stderr), proc.stderr


# --- the research-cipher warning ------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: cipherlab.Cipher(bytes(16), "maes-1"),
    lambda: cipherlab.Cipher(bytes(16), "aes-2sbox", "ecb"),
    lambda: cipherlab.Cipher(bytes(16), "aes", options={"rounds": 4}),
    lambda: cipherlab.new(bytes(16), "maes-2"),
])
def test_every_way_to_make_a_research_cipher_warns_once_at_the_callers_line(make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make()
    insecure = [w for w in caught if issubclass(w.category, cipherlab.InsecureCipherWarning)]
    assert len(insecure) == 1, [str(w.message) for w in caught]
    assert insecure[0].filename == __file__


def test_aes_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", cipherlab.InsecureCipherWarning)
        cipherlab.Cipher(bytes(16), "aes")
        cipherlab.new(bytes(16), "aes", "cbc", iv=bytes(16))


# --- issue 33's minor defects of the command line -------------------------------------------------------------

IV = "00" * 16


def test_a_mistyped_key_is_not_echoed(capsys, tmp_path):
    (tmp_path / "p").write_bytes(b"x")
    secret = "2b7e151628aed2a6abf7158809cf4f3g"
    status = cli.main(["encrypt", "-i", str(tmp_path / "p"), "-o", str(tmp_path / "c"), "--key", secret, "--iv", IV])
    err = capsys.readouterr().err
    assert status == cli.EXIT_USAGE and _one_line(err) and "character 32 of 32 is not a hex digit" in err
    assert secret[:8] not in err


def test_an_odd_number_of_hex_digits_is_said_so(capsys, tmp_path):
    (tmp_path / "p").write_bytes(b"x")
    status = cli.main(["encrypt", "-i", str(tmp_path / "p"), "-o", str(tmp_path / "c"), "--key", KEY[:-1], "--iv", IV])
    err = capsys.readouterr().err
    assert status == cli.EXIT_USAGE and "an even number of digits (two per byte), got 31" in err and _one_line(err)


def test_sigterm_during_a_write_leaves_no_part_file(tmp_path):
    """The interrupted write's temporary file goes with the process (outside the pipeline, nothing else
    would delete it)."""
    (tmp_path / "big").write_bytes(os.urandom(3 * 2**20))
    code = ("import os, signal, sys\nfrom cipherlab import cli\nfrom cipherlab.pipeline import results\n"
            "real = results.write_all\n"
            "def interrupted(fd, data):\n    real(fd, bytes(data)[:1000])\n    os.kill(os.getpid(), signal.SIGTERM)\n"
            "    real(fd, bytes(data)[1000:])\nresults.write_all = interrupted\n"
            f"sys.exit(cli.main(['encrypt', '-i', 'big', '-o', 'out', '--key', {KEY!r}, '--iv', {IV!r}, '--mode', 'ctr']))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM and _one_line(proc.stderr), proc.stderr
    assert "terminated by SIGTERM" in proc.stderr and sorted(p.name for p in tmp_path.iterdir()) == ["big"]


@pytest.mark.parametrize("source", ["/dev/zero", "-"])
def test_an_endless_input_is_one_line_not_a_memory_error(tmp_path, source):
    code = ("import sys\nfrom cipherlab import cli\ncli.max_input_bytes = lambda: 1 << 22\n"
            f"sys.exit(cli.main(['encrypt', '-i', {source!r}, '-o', 'out', '--key', {KEY!r}, '--iv', {IV!r}]))")
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, stdin=zero, capture_output=True,
                              text=True, timeout=120)
    assert proc.returncode == cli.EXIT_USAGE and _one_line(proc.stderr), proc.stderr
    assert "holds more than 4194304 bytes" in proc.stderr and not (tmp_path / "out").exists()
    assert 1 << 20 <= cli.max_input_bytes() <= 2 << 30


def test_the_key_from_a_file_or_the_environment_never_on_the_command_line(tmp_path):
    (tmp_path / "p").write_bytes(b"plain text")
    (tmp_path / "k").write_text(f"{KEY[:16]}\n  {KEY[16:]}\n")
    base = ["encrypt", "-i", "p", "--iv", IV]
    env = {k: v for k, v in os.environ.items() if k != cli.KEY_ENV}
    runs = {"argument": (_cmd(*base, "-o", "a", "--key", KEY), env),
            "file": (_cmd(*base, "-o", "b", "--key-file", "k"), env),
            "environment": (_cmd(*base, "-o", "c"), {**env, cli.KEY_ENV: KEY})}
    for name, (cmd, environ) in runs.items():
        proc = subprocess.run(cmd, cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, (name, proc.stderr)
    assert (tmp_path / "a").read_bytes() == (tmp_path / "b").read_bytes() == (tmp_path / "c").read_bytes()
    proc = subprocess.run(_cmd(*base, "-o", "d"), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == cli.EXIT_USAGE and "a key is required: --key-file FILE, the environment variable " \
        "CIPHERLAB_KEY, or --key HEX" in proc.stderr and _one_line(proc.stderr)
    os.mkfifo(tmp_path / "fifo")
    proc = subprocess.run(_cmd(*base, "-o", "d", "--key-file", "fifo"), cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == cli.EXIT_USAGE and "must be a regular file, got a FIFO" in proc.stderr
    helptext = " ".join(subprocess.run(_cmd("encrypt", "--help"), capture_output=True, text=True,
                                       timeout=120).stdout.split())
    assert "--key-file" in helptext and cli.KEY_ENV in helptext and "every user of the machine" in helptext


def test_selfcheck_refuses_aesni_where_the_cpu_has_none_as_bench_does():
    """The probe: on a host without AES-NI, `selfcheck --impl aesni` reported 21 failures."""
    env = {**os.environ, "NUMBA_CPU_NAME": "generic"}
    env.pop("NUMBA_CPU_FEATURES", None)
    for command in ("selfcheck", "bench"):
        proc = subprocess.run(_cmd(command, "--impl", "aesni", *(["--sizes"] if command == "bench" else [])),
                              env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 2 and _one_line(proc.stderr), proc.stderr
        assert "argument --impl: 'aesni' is not available here" in proc.stderr


# --- issue 37: the console ------------------------------------------------------------------------------------


def test_a_described_variant_is_usable_from_the_cli_with_the_insecure_warning(capsys, tmp_path, monkeypatch):
    from cipherlab.ciphers import registry
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    (tmp_path / "p").write_bytes(b"plain text")
    common = ["--cipher", "aes-4-rounds", "--key", KEY, "--iv", IV]
    assert cli.main(["encrypt", "-i", str(tmp_path / "p"), "-o", str(tmp_path / "c"), *common]) == 0
    assert cli.main(["decrypt", "-i", str(tmp_path / "c"), "-o", str(tmp_path / "d"), *common]) == 0
    err = capsys.readouterr().err
    assert (tmp_path / "d").read_bytes() == b"plain text" and err.count("WARNING: 'aes-4-rounds' is a research") == 2
    expected = cipherlab.new(bytes.fromhex(KEY), "aes", "cbc", iv=bytes(16), rounds=4).encrypt(b"plain text")
    assert (tmp_path / "c").read_bytes() == expected
    assert "aes-4-rounds" in cli.cipher_choices() and "aes-random-sbox" in cli.cipher_choices()


def test_a_wrong_key_decryption_names_the_cli_flag(capsys, tmp_path):
    (tmp_path / "p").write_bytes(b"plain text")
    assert cli.main(["encrypt", "-i", str(tmp_path / "p"), "-o", str(tmp_path / "c"), "--key", KEY, "--iv", IV]) == 0
    status = cli.main(["decrypt", "-i", str(tmp_path / "c"), "-o", str(tmp_path / "d"), "--key", "ff" * 16, "--iv", IV])
    err = capsys.readouterr().err
    assert status == cli.EXIT_FAILURE and "use --no-padding" in err and "padding=False" not in err and _one_line(err)


def test_bench_help_has_no_rst_and_info_has_a_description():
    bench_help = subprocess.run(_cmd("bench", "--help"), capture_output=True, text=True, timeout=120).stdout
    assert "``" not in bench_help and "cipherlab bench: MB/s" in bench_help
    info_help = subprocess.run(_cmd("info", "--help"), capture_output=True, text=True, timeout=120).stdout
    assert "Print what cipherlab records with every run" in info_help


@pytest.mark.parametrize("command", ["bench", "selfcheck"])
def test_an_empty_out_is_refused_not_ignored(command):
    """The probe of this round: `--out ''` ran the whole command and wrote nothing, exit 0."""
    proc = subprocess.run(_cmd(command, "--out", ""), capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0 and _one_line(proc.stderr) and "an empty path names no file" in proc.stderr, proc.stderr
