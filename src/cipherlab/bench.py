"""``cipherlab bench``: MB/s of every cipher x style, beside PyCryptodome.

One run on the same random data (default 8 MiB): encrypt and decrypt in ECB
and CTR for each cipher and software style, on 1 thread and on all threads,
plus PyCryptodome AES ECB with ``use_aesni=False`` (its C software AES) and
with AES-NI. Each figure is the best of ``repeats`` calls after a warm-up, the repeats
interleaved across all cases;
JIT compile time is measured apart (the warm-up calls on a cold cache) and
never enters a throughput figure. MB/s is 10^6 bytes per second.

This is a benchmark, not a test: numbers on a shared machine are noisy.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np
import pandas as pd

from cipherlab._cipher import InsecureCipherWarning
from cipherlab._numba import max_threads
from cipherlab.modes import CIPHERS, new

__all__ = ["run_bench", "main", "target_ratios"]

MiB = 1 << 20
BENCH_MODES = ("ecb", "ctr")
BENCH_IMPLS = ("table", "reference")


def _best_seconds(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        fn()
        best = min(best, (time.perf_counter_ns() - t0) / 1e9)
    return best


def run_bench(size: int = 8 * MiB, ciphers=CIPHERS, impls=BENCH_IMPLS, modes=BENCH_MODES,
              threads=None, key_bytes: int = 16, repeats: int = 3, seed: int = 0) -> pd.DataFrame:
    """Measure throughput; returns one row per (cipher, impl, mode, operation, threads).

    Parameters
    ----------
    size : int
        Bytes of random data (a whole number of 16-byte blocks).
    ciphers, impls, modes : sequences of str
    threads : sequence of int, optional
        Thread counts (default ``(1, all)``).
    key_bytes : {16, 24, 32}
    repeats : int
        Calls per figure; the best (least disturbed) is reported.
    seed : int
        Seeds the data and key.

    Returns
    -------
    pandas.DataFrame
        ``cipher, impl, mode, operation, threads, bytes, seconds, mb_per_s,
        compile_seconds`` (``compile_seconds`` is the first, warm-up call:
        JIT compile or cache load plus a 64 KiB run; NaN where there is none).
    """
    if size <= 0 or size % 16:
        raise ValueError(f"size must be a positive multiple of 16 bytes, got {size!r}")
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats!r}")
    threads = tuple(sorted({1, max_threads()})) if threads is None else tuple(threads)
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, size, dtype=np.uint8)
    key = rng.bytes(key_bytes)
    iv = rng.bytes(16)
    warm = data[: 64 * 1024]
    cases = []  # (row fields, callable)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InsecureCipherWarning)
        for cipher in ciphers:
            for impl in impls:
                for mode in modes:
                    for n_threads in threads:
                        c = new(key, cipher, mode, iv=None if mode == "ecb" else iv, impl=impl,
                                padding=False, threads=n_threads)
                        for op in ("encrypt", "decrypt"):
                            fn = c.encrypt if op == "encrypt" else c.decrypt
                            t0 = time.perf_counter_ns()
                            fn(warm)  # compile (or load from cache) outside the timing
                            compile_s = (time.perf_counter_ns() - t0) / 1e9
                            cases.append((dict(cipher=cipher, impl=impl, mode=mode, operation=op, threads=n_threads,
                                               compile_seconds=compile_s), lambda fn=fn: fn(data)))
    from Crypto.Cipher import AES as PyAES

    raw = data.tobytes()
    for label, aesni in (("pycryptodome-sw", False), ("pycryptodome-aesni", True)):
        c = PyAES.new(key, PyAES.MODE_ECB, use_aesni=aesni)
        for op in ("encrypt", "decrypt"):
            fn = c.encrypt if op == "encrypt" else c.decrypt
            fn(raw[:65536])
            cases.append((dict(cipher="aes", impl=label, mode="ecb", operation=op, threads=1,
                               compile_seconds=float("nan")), lambda fn=fn: fn(raw)))
    # Repeats are interleaved across all cases so that a burst of load from
    # other processes hits every case alike instead of a few of them.
    best = [float("inf")] * len(cases)
    for _ in range(repeats):
        for i, (_, call) in enumerate(cases):
            best[i] = min(best[i], _best_seconds(call, 1))
    rows = [dict(fields, bytes=size, seconds=s, mb_per_s=size / s / 1e6) for (fields, _), s in zip(cases, best)]
    columns = ["cipher", "impl", "mode", "operation", "threads", "bytes", "seconds", "mb_per_s", "compile_seconds"]
    return pd.DataFrame(rows)[columns]


def target_ratios(frame: pd.DataFrame) -> pd.DataFrame:
    """The issue's two targets as ratios from one bench frame."""
    def mbps(impl, threads):
        sel = frame[(frame.cipher == "aes") & (frame.impl == impl) & (frame["mode"] == "ecb")
                    & (frame.operation == "encrypt") & (frame.threads == threads)]
        return float(sel.mb_per_s.iloc[0]) if len(sel) else float("nan")

    all_threads = int(frame.threads.max())
    one = mbps("table", 1)
    return pd.DataFrame([
        dict(target="table AES ECB encrypt, 1 thread / PyCryptodome software AES", ratio=one / mbps("pycryptodome-sw", 1), required=1.5),
        dict(target=f"table AES ECB encrypt, {all_threads} threads / 1 thread", ratio=mbps("table", all_threads) / one, required=1.7),
    ]).assign(met=lambda d: d.ratio >= d.required)


def format_table(frame: pd.DataFrame) -> str:
    """The printed table: MB/s per thread count, encrypt and decrypt side by side."""
    pivot = frame.pivot_table(index=["cipher", "impl", "mode"], columns=["operation", "threads"],
                              values="mb_per_s", sort=False)
    pivot.columns = [f"{op} {t}T" for op, t in pivot.columns]
    return pivot.round(1).to_string()


def main(argv=None) -> int:
    """``cipherlab bench [--size-mib N] [--repeats N] [--cipher C] [--impl I] [--out CSV]``."""
    p = argparse.ArgumentParser(prog="cipherlab bench", description=__doc__.splitlines()[0])
    p.add_argument("--size-mib", type=float, default=8.0, help="MiB of random data (default 8)")
    p.add_argument("--repeats", type=int, default=3, help="calls per figure, best reported (default 3)")
    p.add_argument("--key-bits", type=int, choices=(128, 192, 256), default=128)
    p.add_argument("--cipher", action="append", choices=CIPHERS, help="restrict to a cipher (repeatable)")
    p.add_argument("--impl", action="append", choices=BENCH_IMPLS, help="restrict to a style (repeatable)")
    p.add_argument("--out", help="also write the raw rows to this CSV")
    args = p.parse_args(argv)
    size = int(args.size_mib * MiB) // 16 * 16
    if size <= 0:
        p.error("--size-mib must be positive")
    t0 = time.perf_counter()
    frame = run_bench(size, ciphers=args.cipher or CIPHERS, impls=args.impl or BENCH_IMPLS,
                      key_bytes=args.key_bits // 8, repeats=args.repeats)
    print(f"cipherlab bench: {size / MiB:g} MiB random data, AES-{args.key_bits} key, best of {args.repeats}, "
          f"MB/s (10^6 B/s); threads: 1 and {max_threads()}")
    print(format_table(frame))
    compile_total = frame.groupby(["cipher", "impl"]).compile_seconds.max().sum()
    print(f"\nwarm-up (JIT compile or cache load + 64 KiB) excluded from the figures: "
          f"first call {frame.compile_seconds.max():.2f} s, sum of per-cipher maxima {compile_total:.2f} s")
    if "aes" in set(frame.cipher) and "table" in set(frame.impl):
        print()
        for r in target_ratios(frame).itertuples():
            print(f"{r.target}: {r.ratio:.2f}x (target >= {r.required}x) {'met' if r.met else 'MISSED'}")
    print(f"\nwall time {time.perf_counter() - t0:.1f} s")
    if args.out:
        from cipherlab.results import write_csv

        write_csv(frame, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
