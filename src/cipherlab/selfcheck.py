"""Known-answer and round-trip checks the pipeline runs before any timing.

``cipherlab selfcheck --out PATH`` (or ``python -m cipherlab.selfcheck``) writes one row per check
(``cipher, impl, mode, check, passed, detail``) atomically and exits non-zero
if any check failed, naming each failing cipher. The output is deterministic
(seeded inputs, no timings).

Checks: AES against FIPS-197 Appendix C, SP 800-38A and PyCryptodome; every
registered research cipher (:func:`cipherlab.ciphers.registry.cipher_names`: AES-2SBox,
MAES-1, MAES-2) against its frozen known answers (``vectors/<name>.json`` with
``-`` as ``_``: ``aes_2sbox.json``, ``maes_1.json``, ``maes_2.json``, generated
once from the naive implementation in ``tests/naive.py``; a research cipher
without them fails), in every style the registry lists for it and this CPU
runs; round trips; ``reference == table`` and ``reference == aesni``; and
each cipher description in ``config/ciphers/<name>.yaml`` (what the security
chapter analyses, :mod:`cipherlab.ciphers.variant_files`) encrypts exactly as the
registered cipher ``<name>`` (what the speed chapters time), in every mode, key
size and style they share.
"""
from __future__ import annotations

import argparse
import sys
import warnings

import numpy as np
import pandas as pd
from Crypto.Util.Padding import pad

from cipherlab.ciphers import vectors
from cipherlab.ciphers.cpu import aesni_status
from cipherlab._checks import check_choices
from cipherlab.ciphers.variant_files import build_from_description, load_variant
from cipherlab.ciphers.modes import IMPLS, MODES, available_impls, new, pycryptodome_aes
from cipherlab.ciphers.registry import InsecureCipherWarning, cipher_names, lookup
from cipherlab.names import AES_KEY_BYTES
from cipherlab.pipeline.paths import CIPHER_DESCRIPTIONS_DIR
from cipherlab.pipeline.results import resolve_target, write_csv

__all__ = ["run_selfcheck", "main", "vector_file"]

KEY_SIZES = AES_KEY_BYTES
ROUND_TRIP_LENGTHS = (0, 1, 15, 16, 17, 1000, 70_001)


def vector_file(cipher: str) -> str:
    """The frozen known answers of a research cipher: ``vectors/<name with - as _>.json``."""
    return cipher.replace("-", "_")


def _supports(cipher: str, impl: str) -> bool:
    """Whether style ``impl`` exists for ``cipher`` (its registry entry) and runs here (``aesni`` needs the CPU)."""
    return impl in lookup(cipher).styles and impl in available_impls()


def _research_kats(rows, cipher, impl):
    """Every frozen known-answer case of a research cipher, encrypt and decrypt."""
    for case in vectors.load(vector_file(cipher))["cases"]:
        def kat(case=case):
            key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
            iv = bytes.fromhex(case["iv"]) if case["iv"] else None
            c = new(key, cipher, case["mode"], iv=iv, impl=impl, padding=case["padding"], **case["options"])
            enc, dec = c.encrypt(pt), c.decrypt(ct)
            return enc == ct and dec == pt, (f"{len(pt)} bytes" if enc == ct else f"encrypt gave {enc.hex()}")
        _check(rows, cipher, impl, case["mode"], f"known answer {case['name']}", kat)


def _described_agree(rows, cipher, impls, rng, folder=CIPHER_DESCRIPTIONS_DIR):
    """``config/ciphers/<cipher>.yaml`` built from its description == the registered ``cipher``."""
    path = folder / f"{cipher}.yaml"
    if not path.is_file():
        return
    described = build_from_description(load_variant(path))
    for impl in impls:
        if impl not in described.styles or not _supports(cipher, impl):
            continue
        for mode in MODES:
            for size in KEY_SIZES:
                if size not in described.key_sizes:
                    continue
                key, iv, data = rng.bytes(size), rng.bytes(16), rng.bytes(int(rng.integers(1, 5000)))

                def agree(key=key, iv=iv, data=data, mode=mode, impl=impl):
                    ivm = None if mode == "ecb" else iv
                    a = new(key, described, mode, iv=ivm, impl=impl).encrypt(data)
                    b = new(key, cipher, mode, iv=ivm, impl=impl).encrypt(data)
                    return a == b, f"{len(data)} bytes, {path.parent.name}/{path.name}"
                _check(rows, cipher, impl, mode, f"description == registered {8 * size}-bit key", agree)


def _check(rows, cipher, impl, mode, check, fn):
    try:
        ok, detail = fn()
    except Exception as exc:  # a crash is a failed check, reported, not raised
        ok, detail = False, f"{type(exc).__name__}: {exc}"
    rows.append({"cipher": cipher, "impl": impl, "mode": mode, "check": check, "passed": bool(ok), "detail": detail})


def run_selfcheck(ciphers=None, impls=None) -> pd.DataFrame:
    """Run every check; returns one row per check.

    Parameters
    ----------
    ciphers : sequence of str, optional
        Registered names (default :func:`cipherlab.ciphers.registry.cipher_names`: one per distinct cipher).
    impls : sequence of str, optional
        Subset of :data:`cipherlab.IMPLS` (default all available here); each
        cipher is checked in the styles its registry entry lists.
    """
    ciphers = check_choices("ciphers", cipher_names() if ciphers is None else ciphers, cipher_names())
    impls = check_choices("impls", available_impls() if impls is None else impls, IMPLS)
    rows: list[dict] = []
    rng = np.random.default_rng(20260101)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InsecureCipherWarning)
        if "aes" in ciphers:
            for impl in impls:
                for case in vectors.load("fips197")["cases"]:
                    key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))

                    def kat(key=key, pt=pt, ct=ct, impl=impl):
                        c = new(key, impl=impl, padding=False)
                        got_ct, got_pt = c.encrypt_block(pt), c.decrypt_block(ct)
                        return got_ct == ct and got_pt == pt, f"encrypt {got_ct.hex()} decrypt {got_pt.hex()}"
                    _check(rows, "aes", impl, "block", f"FIPS-197 {case['section']} {case['name']}", kat)
                for case in vectors.load("sp800_38a")["cases"]:
                    key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
                    iv = bytes.fromhex(case["iv"]) if case["iv"] else None

                    def sp(key=key, pt=pt, ct=ct, iv=iv, impl=impl, mode=case["mode"]):
                        c = new(key, mode=mode, iv=iv, impl=impl, padding=False)
                        enc, dec = c.encrypt(pt), c.decrypt(ct)
                        return enc == ct and dec == pt, f"{len(pt)} bytes"
                    _check(rows, "aes", impl, case["mode"], f"SP 800-38A {case['section']} {case['name']}", sp)
                for mode in MODES:
                    for size in KEY_SIZES:
                        key, iv, data = rng.bytes(size), rng.bytes(16), rng.bytes(int(rng.integers(0, 5000)))

                        def cross(key=key, iv=iv, data=data, mode=mode, impl=impl):
                            ivm = None if mode == "ecb" else iv
                            expected = pycryptodome_aes(key, mode, ivm).encrypt(data if mode == "ctr" else pad(data, 16))
                            got = new(key, mode=mode, iv=ivm, impl=impl).encrypt(data)
                            return got == expected, f"AES-{8 * size}, {len(data)} bytes"
                        _check(rows, "aes", impl, mode, f"PyCryptodome cross-check AES-{8 * size}", cross)
        for cipher in ciphers:
            for impl in impls:
                if not _supports(cipher, impl):
                    continue
                if lookup(cipher).research:
                    _research_kats(rows, cipher, impl)
                for mode in MODES:
                    for size in KEY_SIZES:
                        key, iv = rng.bytes(size), rng.bytes(16)
                        datas = [rng.bytes(n) for n in ROUND_TRIP_LENGTHS]

                        def trip(key=key, iv=iv, datas=datas, cipher=cipher, mode=mode, impl=impl):
                            c = new(key, cipher, mode, iv=None if mode == "ecb" else iv, impl=impl)
                            bad = [len(d) for d in datas if c.decrypt(c.encrypt(d)) != d]
                            return not bad, f"lengths {list(ROUND_TRIP_LENGTHS)}" + (f"; failed {bad}" if bad else "")
                        _check(rows, cipher, impl, mode, f"round trip {8 * size}-bit key", trip)
                        if impl in ("table", "aesni") and "reference" in impls:
                            def agree(key=key, iv=iv, data=datas[-2], cipher=cipher, mode=mode, impl=impl):
                                ivm = None if mode == "ecb" else iv
                                a = new(key, cipher, mode, iv=ivm, impl="reference").encrypt(data)
                                b = new(key, cipher, mode, iv=ivm, impl=impl).encrypt(data)
                                return a == b, f"{len(data)} bytes"
                            _check(rows, cipher, impl, mode, f"reference == {impl} {8 * size}-bit key", agree)
        described_rng = np.random.default_rng(20261123)  # its own stream: the checks above keep their inputs
        for cipher in ciphers:
            _described_agree(rows, cipher, impls, described_rng)
    return pd.DataFrame(rows, columns=["cipher", "impl", "mode", "check", "passed", "detail"])


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (no usage block), exit status 2."""

    def error(self, message: str) -> "None":  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} ({self.prog} --help)\n")


def main(argv=None) -> int:
    """``cipherlab selfcheck --out PATH``; exit status 1 if any check failed or the CSV cannot be written."""
    parser = _Parser(prog="cipherlab selfcheck", description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="CSV to write (atomically; its directory must exist); "
                                      "omit to only print the summary")
    parser.add_argument("--cipher", action="append", choices=cipher_names(),
                        help="restrict to a cipher (repeatable)")
    parser.add_argument("--impl", action="append", choices=IMPLS, help="restrict to an impl (repeatable)")
    args = parser.parse_args(argv)
    if args.impl and "aesni" in args.impl and "aesni" not in available_impls():   # as `cipherlab bench` does
        parser.error(f"argument --impl: 'aesni' is not available here: {aesni_status()}")
    if args.out is not None:  # refuse a bad path ('' too) before minutes of checks
        try:
            resolve_target(args.out)
        except OSError as exc:
            parser.exit(1, f"{parser.prog}: error: --out: cannot write {args.out!r}: {exc.strerror or exc}\n")
    frame = run_selfcheck(args.cipher, args.impl)
    if args.out:
        try:
            write_csv(frame, args.out)
        except OSError as exc:
            parser.exit(1, f"{parser.prog}: error: --out: cannot write {args.out!r}: {exc.strerror or exc}\n")
    failed = frame[~frame["passed"]]
    print(f"selfcheck: {len(frame) - len(failed)}/{len(frame)} checks passed")
    if len(failed):
        print(failed.to_string(index=False))
        for cipher, rows in failed.groupby("cipher", sort=True):
            print(f"selfcheck FAILED for cipher {cipher}: {len(rows)} check(s), styles "
                  f"{sorted(set(rows['impl']))}, e.g. {rows['check'].iloc[0]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
