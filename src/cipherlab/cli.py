"""The ``cipherlab`` command line.

::

    cipherlab encrypt -i plain.txt -o secret.bin --cipher aes --mode cbc --key HEX --iv HEX
    cipherlab decrypt -i secret.bin -o plain.txt --cipher aes --mode cbc --key HEX --iv HEX
    cipherlab bench ...          # see ``cipherlab bench --help``
    cipherlab info               # the environment summary (CPU, cores, versions, git commit)
    cipherlab selfcheck          # known-answer and round-trip checks of every cipher

Bad arguments give a one-line ``cipherlab: error: ...`` on stderr and exit
status 2; a failing operation (wrong padding, unreadable file, a write that
fails: full disk, closed pipe, missing directory) exits 1; SIGTERM or SIGHUP
exits 128 + the signal, leaving no temporary file.  No traceback reaches the user,
and no message repeats a key.

The key comes from ``--key-file FILE`` (hex), the environment variable
``CIPHERLAB_KEY`` (hex) or ``--key HEX``; a command line is visible to every
user of the machine (``/proc/PID/cmdline``), so the first two are the safe ones.
The input is read whole (at most :func:`max_input_bytes`: an eighth of the
memory, 2 GiB at most; an endless input such as ``/dev/zero`` is refused).

``-o FILE`` never clobbers what it should not (:func:`write_output`): the input
itself (the same file, through a symlink or a hard link) is refused; a regular
file is replaced atomically (temporary file, ``fsync``, rename) and keeps its
permission bits; a new file is created ``0600`` (the output may be plaintext),
like ``openssl enc`` and ``gpg``; symlinks are followed and the file they
point to is written; a character or block device, FIFO or socket is written
in place, never replaced; ``/dev/stdout``, ``/dev/fd/N`` and
``/proc/self/fd/N`` are written through the descriptor (``>>file`` appends, a
pipe works). ``--cipher`` takes every registered cipher and every variant
described in ``config/variants/`` (registered when named). The research
ciphers (every registered cipher but ``aes``, see
:mod:`cipherlab.ciphers.registry`, round-reduced ``aes`` and every variant)
print a loud warning on stderr.
"""
from __future__ import annotations

import argparse
import errno
import json
import os
import re
import signal
import stat
import sys
import threading
import warnings
from typing import Any, Sequence

import cipherlab
from cipherlab import bench, selfcheck
from cipherlab._checks import check_hex
from cipherlab._files import read_regular_text
from cipherlab.ciphers.variant_files import register_variant_file
from cipherlab.ciphers.modes import IMPLS, MODES
from cipherlab.pipeline import results
from cipherlab.pipeline.chapters import variant_names
from cipherlab.pipeline.paths import variant_file
from cipherlab.pipeline.provenance import environment_summary
from cipherlab.ciphers.registry import cipher_names

#: Exit status for bad arguments (argparse's convention) and for a failed operation.
EXIT_USAGE = 2
EXIT_FAILURE = 1


class UsageError(Exception):
    """A bad command-line argument; the message names the argument."""


class _Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: unwinding removes every temporary file (``atomic_path``'s ``finally``)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: The environment variable a key may come from (hex), instead of a command line every user can read.
KEY_ENV = "CIPHERLAB_KEY"
#: The most a ``--key-file`` may hold (a key is at most 64 hex digits; whitespace aside).
MAX_KEY_FILE_BYTES = 4096


def max_input_bytes() -> int:
    """The largest input read (bytes): an eighth of the machine's memory (a stream is joined once it is read,
    the output needs as much again, the kernels some more), at most 2 GiB."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        memory = 16 << 30
    return max(1 << 20, min(2 << 30, memory // 8))


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block) and exit status 2."""

    def error(self, message: str) -> "None":  # type: ignore[override]
        raise UsageError(message)


def _hex_bytes(name: str, text: "str | None") -> "bytes | None":
    """``text`` (hex; whitespace, ``:`` separators and a ``0x`` prefix allowed) as bytes, through the one hex
    parser (:func:`cipherlab._checks.check_hex`: the message never repeats the text, a key stays out of logs)."""
    if text is None:
        return None
    cleaned = "".join(text.split()).replace(":", "")
    if cleaned.lower().startswith("0x"):
        cleaned = cleaned[2:]
    try:
        return check_hex(name, cleaned)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def read_key(args: argparse.Namespace) -> "tuple[bytes, str]":
    """The key and where it came from: ``--key-file``, ``--key`` or ``CIPHERLAB_KEY`` (one of them)."""
    if args.key is not None and args.key_file is not None:
        raise UsageError("give the key once: --key or --key-file, not both")
    if args.key_file is not None:
        try:
            text = read_regular_text(args.key_file, MAX_KEY_FILE_BYTES, f"--key-file {args.key_file!r}")
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        return _hex_bytes("--key-file", text), "--key-file"
    if args.key is not None:
        return _hex_bytes("--key", args.key), "--key"
    if os.environ.get(KEY_ENV):
        return _hex_bytes(KEY_ENV, os.environ[KEY_ENV]), KEY_ENV
    raise UsageError(f"a key is required: --key-file FILE, the environment variable {KEY_ENV}, or --key HEX")


#: The library's words for a parameter, as the command line says it (``key`` is the key's source).
_CLI_WORDS = (
    (re.compile(r"^iv must be None for mode"), "--iv must not be given for mode"),
    (re.compile(r"^iv "), "--iv "),
    (re.compile(r"^threads must be None \(all cores\) or an integer"), "--threads must be an integer"),
    (re.compile(r"^data must be (.*) when padding=False"), r"the input must be \1 with --no-padding"),
    (re.compile(r"use padding=True or the ctr mode"), "drop --no-padding, or use --mode ctr"),
    (re.compile(r"^data: "), "the input: "),
    (re.compile(r"the data is not padded; use padding=False"), "the input is not padded; use --no-padding"),
    (re.compile(r"padding=False"), "--no-padding"),
)


def cli_words(message: str, key_source: str = "--key") -> str:
    """A library error (``cipherlab.new``, ``encrypt``) in the command line's words: ``--iv``, ``--no-padding``..."""
    message = re.sub(r"^key ", f"{key_source} ", message)
    for pattern, words in _CLI_WORDS:
        message = pattern.sub(words, message)
    return message


def parse_option_value(text: str) -> Any:
    """``--option name=value`` values: integers (``4``, ``0x63``), ``true``/``false``, else the string."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text, 0)
    except ValueError:
        return text


def parse_options(items: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--option takes NAME=VALUE (e.g. --option rounds=4), got {item!r}")
        options[name.strip()] = parse_option_value(value)
    return options


def cipher_choices() -> tuple[str, ...]:
    """``--cipher``'s choices: every registered cipher, then every variant described in ``config/variants/``
    (a file named like a built-in cipher is not offered: the name means the built-in one)."""
    registered = cipher_names(families=True)
    return registered + tuple(v for v in variant_names() if v not in registered)


def _add_cipher_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("-i", "--input", required=True, help="input file ('-' for stdin)")
    p.add_argument("-o", "--output", required=True,
                   help="output file ('-' or /dev/stdout for stdout); never the input file")
    p.add_argument("--cipher", default="aes", choices=cipher_choices(), metavar="CIPHER",
                   help="aes (default); the others are insecure research ciphers: "
                        + ", ".join(c for c in cipher_choices() if c != "aes")
                        + " (the variants described in config/variants/ included)")
    p.add_argument("--mode", default="cbc", choices=MODES, help="default: cbc")
    key = p.add_mutually_exclusive_group()
    key.add_argument("--key-file", metavar="FILE",
                     help="a file holding the key in hex (16, 24 or 32 bytes; whitespace ignored); the safe way")
    key.add_argument("--key", metavar="HEX",
                     help=f"the key in hex (16, 24 or 32 bytes); every user of the machine can read a command "
                          f"line: prefer --key-file or the environment variable {KEY_ENV}")
    p.add_argument("--iv", metavar="HEX",
                   help="16 bytes in hex: the IV (cbc) or the initial counter block (ctr); not for ecb")
    p.add_argument("--impl", default="table", choices=IMPLS + ("auto",), help="default: table")
    p.add_argument("--no-padding", action="store_true",
                   help="no PKCS#7 padding (ecb/cbc): the input must be whole 16-byte blocks")
    p.add_argument("--threads", type=int, default=None, help="threads of the parallel kernels (default: all)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="cipher option, may repeat (e.g. rounds=4, xor_byte=0x63, approach=1, iv_source=keyexp)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cipherlab", description="Encrypt, decrypt and benchmark with cipherlab's ciphers.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, helptext in (("encrypt", "encrypt a file"), ("decrypt", "decrypt a file")):
        _add_cipher_arguments(sub.add_parser(
            name, help=helptext, description=helptext,
            epilog=f"The key: --key-file FILE, or the environment variable {KEY_ENV}, or --key HEX (hex each time). "
                   "The input is read whole; the output replaces its file only when complete."))
    sub.add_parser("bench", help="benchmark the ciphers (options: cipherlab bench --help)", add_help=False)
    info = sub.add_parser("info", help="the environment summary: CPU, cores, OS, versions, git commit",
                          description="Print what cipherlab records with every run: the CPU (model, AES-NI, the "
                                      "clock the OS reports, boost, governor), cores, memory, Numba threads, the "
                                      "OS, Python and the tracked packages' versions, and the git commit.")
    info.add_argument("--json", action="store_true", help="print JSON instead of text")
    sub.add_parser("selfcheck", help="known-answer and round-trip checks of every cipher", add_help=False)
    return p


class _TooBig(Exception):
    """The input is larger than :func:`max_input_bytes`."""


def _read(path: str, limit: int) -> bytes:
    """The whole input, at most ``limit`` bytes (:class:`_TooBig` beyond: an endless stream is never read to
    the end of memory)."""
    if path == "-":
        if sys.stdin is None:  # started with stdin closed (``<&-``)
            raise OSError(errno.EBADF, "standard input is closed")
        return _read_stream(sys.stdin.buffer, limit)
    with open(path, "rb") as fh:
        st = os.fstat(fh.fileno())
        if stat.S_ISREG(st.st_mode):
            if st.st_size > limit:
                raise _TooBig(st.st_size)
            data = fh.read(st.st_size + 1)   # one buffer of the file's size (a stream is read in chunks)
            if len(data) > st.st_size:       # it grew meanwhile: the rest as a stream
                data += _read_stream(fh, max(0, limit - len(data)))
            return data
        return _read_stream(fh, limit)


def _read_stream(fh, limit: int) -> bytes:
    chunks, size = [], 0
    while True:
        chunk = fh.read(min(1 << 24, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise _TooBig(size)


def _same_file(a: "os.stat_result | None", b: "os.stat_result | None") -> bool:
    return (a is not None and b is not None and stat.S_ISREG(a.st_mode) and stat.S_ISREG(b.st_mode)
            and (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino))


def _stat_of(path: str, std: int, output: bool) -> "os.stat_result | None":
    """What ``path`` names (``-``: descriptor ``std``), followed through links; None when unknown or missing."""
    try:
        if path == "-":
            return os.fstat(std)
        return results.resolve_target(path)[1] if output else os.stat(path)
    except (OSError, ValueError):
        return None


def check_not_the_input(args: argparse.Namespace) -> None:
    """Refuse an output that is the input file itself (the same file, or a symlink or hard link to it, or the
    standard output redirected to it): writing it would destroy the input before or while it is used."""
    if _same_file(_stat_of(args.input, 0, False), _stat_of(args.output, 1, True)):
        where = "standard output" if args.output == "-" else repr(args.output)
        source = "standard input" if args.input == "-" else repr(args.input)
        raise UsageError(f"--output: {where} is the input ({source}: the same file, or a link to it); writing it "
                         "would destroy the input: write to another file")


def _quiet_stdout(fd: int) -> None:
    """Point ``fd`` at /dev/null so the interpreter's exit flush of stdout stays quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _write_stdout(data: bytes) -> None:
    if sys.stdout is None:  # started with stdout closed (``>&-``)
        raise OSError(errno.EBADF, "standard output is closed")
    sys.stdout.flush()
    fd = sys.stdout.fileno()
    try:
        results.write_all(fd, data)
        if stat.S_ISREG(os.fstat(fd).st_mode):
            results.fsync(fd, special=False)
    except BrokenPipeError:
        # the reader went away: say so, and keep the interpreter's exit flush quiet
        _quiet_stdout(fd)
        raise OSError(errno.EPIPE, "the reader closed the pipe before all output was written") from None
    except OSError:
        _quiet_stdout(fd)
        raise


def write_output(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` (``"-"``: stdout) without clobbering what should not be.

    The project's one writer, :func:`cipherlab.pipeline.results.atomic_path`:
    a symlink is followed; a device, FIFO or socket is written in place, never
    replaced; a regular file is replaced atomically and keeps its permission
    bits; a new file is created ``0600`` (the output may be plaintext); a
    directory, or a directory that does not exist, is an error (nothing is
    created).  Every ``write()`` and ``fsync()`` is checked; ``OSError`` on failure.
    """
    if path == "-":
        _write_stdout(data)
        return
    results.write_bytes(path, data, new_mode=0o600)


def _warn_insecure(message: str) -> None:
    bar = "!" * 72
    print(f"{bar}\nWARNING: {message}\n"
          "cipherlab reproduces it to measure it: never use it to protect real data.\n"
          f"{bar}", file=sys.stderr)


def _ensure_registered(name: str) -> None:
    """A variant described in ``config/variants/<name>.yaml`` is registered when named (one line if it cannot be)."""
    if name in cipher_names(families=True):
        return
    try:
        register_variant_file(variant_file(name))
    except ValueError as exc:
        raise UsageError(f"--cipher {name}: {exc}") from None


def run_cipher(args: argparse.Namespace) -> int:
    for name, value in (("--input", args.input), ("--output", args.output)):
        if value == "":
            raise UsageError(f"{name} must name a file ('-' for standard {name[2:-3]}put), got an empty string")
    key, key_source = read_key(args)
    iv = _hex_bytes("--iv", args.iv)
    options = parse_options(args.option)
    check_not_the_input(args)
    _ensure_registered(args.cipher)
    limit = max_input_bytes()
    try:
        data = _read(args.input, limit)
    except _TooBig:
        raise UsageError(f"--input: {'standard input' if args.input == '-' else repr(args.input)} holds more than {limit} bytes, the most cipherlab reads (it "
                         "encrypts in memory, the output needs as much again); split the input") from None
    except MemoryError:
        print(f"cipherlab: error: {args.command} failed: out of memory reading the input {args.input!r} "
              "(the output needs as much again; split the input)", file=sys.stderr)
        return EXIT_FAILURE
    except OSError as exc:
        raise UsageError(f"--input: cannot read {args.input!r}: {exc.strerror or exc}") from None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", cipherlab.InsecureCipherWarning)
        try:
            obj = cipherlab.new(key, cipher=args.cipher, mode=args.mode, iv=iv, impl=args.impl,
                                padding=not args.no_padding, threads=args.threads, **options)
        except (ValueError, TypeError) as exc:
            raise UsageError(cli_words(str(exc), key_source)) from None
    for w in caught:
        if issubclass(w.category, cipherlab.InsecureCipherWarning):
            _warn_insecure(str(w.message))
        else:
            print(f"cipherlab: warning: {w.message}", file=sys.stderr)
    try:
        out = obj.encrypt(data) if args.command == "encrypt" else obj.decrypt(data)
    except ValueError as exc:
        print(f"cipherlab: error: {args.command} failed: {cli_words(str(exc), key_source)}", file=sys.stderr)
        return EXIT_FAILURE
    except MemoryError:
        print(f"cipherlab: error: {args.command} failed: out of memory for an input of {len(data)} bytes "
              "(the output needs as much again; split the input)", file=sys.stderr)
        return EXIT_FAILURE
    try:
        write_output(args.output, bytes(out))
    except OSError as exc:
        print(f"cipherlab: error: --output: cannot write {args.output!r}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILURE
    return 0


def run_info(as_json: bool) -> int:
    env = environment_summary()
    if as_json:
        text = json.dumps(env, indent=2, sort_keys=True) + "\n"
    else:
        packages = env.pop("packages")
        width = max(len(k) for k in env)
        pwidth = max(len(k) for k in packages)
        text = "".join([*(f"{k:<{width}}  {v}\n" for k, v in env.items()), "packages:\n",
                        *(f"  {k:<{pwidth}}  {v}\n" for k, v in packages.items())])
    try:
        if sys.stdout is None:  # started with stdout closed (``>&-``)
            raise OSError(errno.EBADF, "standard output is closed")
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as exc:  # a full disk (``>/dev/full``), a closed pipe
        try:
            _quiet_stdout(sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        print(f"cipherlab: error: info: cannot write to standard output: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILURE
    return 0


#: Subcommands that own their arguments: ``cipherlab bench ...`` is ``bench.main([...])``.
DELEGATES = {"bench": bench.main, "selfcheck": selfcheck.main}


def _terminate(signum, frame):
    raise _Terminated(signum)


#: Signals that end a run cleanly: the temporary file of an interrupted write is removed on the way out.
_ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def main(argv: "Sequence[str] | None" = None) -> int:
    """Entry point of the ``cipherlab`` console script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if threading.current_thread() is not threading.main_thread():
        return _main(argv)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # the imports are done (see cipherlab/__init__)
    previous = {s: signal.signal(s, _terminate) for s in _ENDING_SIGNALS}
    try:
        return _main(argv)
    except KeyboardInterrupt:  # before a command's own handler runs (building the parser, say): one line too
        print("cipherlab: interrupted", file=sys.stderr)
        return 130
    except _Terminated as exc:
        print(f"cipherlab: terminated by {signal.Signals(exc.signum).name}; nothing half-written was left",
              file=sys.stderr)
        return 128 + exc.signum
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _main(argv: list) -> int:
    parser = build_parser()
    # bench and selfcheck own their arguments: pass them through untouched.
    if argv and argv[0] in DELEGATES:
        try:
            return int(DELEGATES[argv[0]](argv[1:]) or 0)
        except SystemExit as exc:  # argparse inside the delegate: it has printed its message
            return exc.code if isinstance(exc.code, int) else EXIT_USAGE
        except KeyboardInterrupt:
            print("cipherlab: interrupted", file=sys.stderr)
            return 130
        except MemoryError:
            print(f"cipherlab {argv[0]}: error: out of memory", file=sys.stderr)
            return EXIT_FAILURE
        except OSError as exc:  # e.g. --out on a full disk, a directory, a missing directory
            print(f"cipherlab {argv[0]}: error: {exc.strerror or exc}"
                  + (f": {exc.filename}" if exc.filename else ""), file=sys.stderr)
            return EXIT_FAILURE
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise UsageError("a command is required: encrypt, decrypt, bench, info or selfcheck "
                             "(cipherlab --help)")
        if args.command in ("encrypt", "decrypt"):
            return run_cipher(args)
        if args.command == "info":
            return run_info(args.json)
        raise UsageError(f"unknown command {args.command!r}")  # pragma: no cover - argparse rejects it first
    except UsageError as exc:
        print(f"cipherlab: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("cipherlab: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
