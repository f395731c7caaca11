"""The ``cipherlab`` command line.

::

    cipherlab encrypt -i plain.txt -o secret.bin --cipher aes --mode cbc --key HEX --iv HEX
    cipherlab decrypt -i secret.bin -o plain.txt --cipher aes --mode cbc --key HEX --iv HEX
    cipherlab bench ...          # see ``cipherlab bench --help``
    cipherlab info               # the environment summary (CPU, cores, versions, git commit)
    cipherlab selfcheck          # known-answer and round-trip checks of every cipher

Bad arguments give a one-line ``cipherlab: error: ...`` on stderr and exit
status 2; a failing operation (wrong padding, unreadable file, a write that
fails: full disk, closed pipe, missing directory) exits 1.  No traceback
reaches the user.

``-o FILE`` never clobbers what it should not (:func:`write_output`): a
regular file is replaced atomically (temporary file, ``fsync``, rename) and
keeps its permission bits; a new file is created ``0600`` (the output may be
plaintext), like ``openssl enc`` and ``gpg``; symlinks are followed and the
file they point to is written; a character or block device, FIFO or socket is
written in place, never replaced.  The research ciphers (every registered
cipher but ``aes``, see :mod:`cipherlab.ciphers.registry`, and round-reduced ``aes``)
print a loud warning on stderr.
"""
from __future__ import annotations

import argparse
import errno
import json
import os
import signal
import stat
import sys
import threading
import warnings
from pathlib import Path
from typing import Any, Sequence

import cipherlab
from cipherlab import bench, selfcheck
from cipherlab.ciphers.modes import IMPLS, MODES
from cipherlab.pipeline import results
from cipherlab.pipeline.provenance import environment_summary
from cipherlab.ciphers.registry import cipher_names

#: Exit status for bad arguments (argparse's convention) and for a failed operation.
EXIT_USAGE = 2
EXIT_FAILURE = 1


class UsageError(Exception):
    """A bad command-line argument; the message names the argument."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block) and exit status 2."""

    def error(self, message: str) -> "None":  # type: ignore[override]
        raise UsageError(message)


def _hex_bytes(name: str, text: "str | None") -> "bytes | None":
    if text is None:
        return None
    cleaned = text.strip().replace(" ", "").replace(":", "")
    if cleaned.lower().startswith("0x"):
        cleaned = cleaned[2:]
    try:
        return bytes.fromhex(cleaned)
    except ValueError:
        raise UsageError(f"{name} must be hexadecimal digits (e.g. 000102...0f), got {text!r}") from None


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


def _add_cipher_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("-i", "--input", required=True, help="input file ('-' for stdin)")
    p.add_argument("-o", "--output", required=True, help="output file ('-' for stdout)")
    p.add_argument("--cipher", default="aes", choices=cipher_names(families=True),
                   help="aes (default); the others are insecure research ciphers")
    p.add_argument("--mode", default="cbc", choices=MODES, help="default: cbc")
    p.add_argument("--key", required=True, metavar="HEX", help="16, 24 or 32 bytes in hex")
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
        _add_cipher_arguments(sub.add_parser(name, help=helptext, description=helptext))
    sub.add_parser("bench", help="benchmark the ciphers (options: cipherlab bench --help)", add_help=False)
    info = sub.add_parser("info", help="the environment summary: CPU, cores, OS, versions, git commit")
    info.add_argument("--json", action="store_true", help="print JSON instead of text")
    sub.add_parser("selfcheck", help="known-answer and round-trip checks of every cipher", add_help=False)
    return p


def _read(path: str) -> bytes:
    if path == "-":
        if sys.stdin is None:  # started with stdin closed (``<&-``)
            raise OSError(errno.EBADF, "standard input is closed")
        return sys.stdin.buffer.read()
    return Path(path).read_bytes()


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


def run_cipher(args: argparse.Namespace) -> int:
    key = _hex_bytes("--key", args.key)
    iv = _hex_bytes("--iv", args.iv)
    options = parse_options(args.option)
    try:
        data = _read(args.input)
    except OSError as exc:
        raise UsageError(f"--input: cannot read {args.input!r}: {exc.strerror or exc}") from None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", cipherlab.InsecureCipherWarning)
        try:
            obj = cipherlab.new(key, cipher=args.cipher, mode=args.mode, iv=iv, impl=args.impl,
                                padding=not args.no_padding, threads=args.threads, **options)
        except (ValueError, TypeError) as exc:
            raise UsageError(str(exc)) from None
    for w in caught:
        if issubclass(w.category, cipherlab.InsecureCipherWarning):
            _warn_insecure(str(w.message))
        else:
            print(f"cipherlab: warning: {w.message}", file=sys.stderr)
    try:
        out = obj.encrypt(data) if args.command == "encrypt" else obj.decrypt(data)
    except ValueError as exc:
        print(f"cipherlab: error: {args.command} failed: {exc}", file=sys.stderr)
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


def main(argv: "Sequence[str] | None" = None) -> int:
    """Entry point of the ``cipherlab`` console script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the imports are done (see cipherlab/__init__)
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
