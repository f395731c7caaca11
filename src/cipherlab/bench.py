"""``cipherlab bench``: MB/s of every cipher x style, beside PyCryptodome.

One run on the same random data (default 8 MiB): encrypt and decrypt in ECB
and CTR for each cipher and style (``reference``, ``table``, ``aesni`` where
the CPU has AES-NI), on 1 thread and on all threads, plus PyCryptodome's AES
(``pycryptodome``: its C code, AES-NI where available, one thread) in ECB and
CTR. cipherlab's rows time one object reused on a uint8 array (``data`` ``array``,
``object`` ``reused``: the kernels' speed); its encryption is also timed as a
user calls it, on ``bytes`` in and out (``data`` ``bytes``), with the object
reused and with a fresh object per message (``object`` ``fresh``), as the size
sweep does. Each figure is the best of ``repeats`` calls after a warm-up, the
repeats interleaved across all cases; JIT compile time is measured apart (the
warm-up calls: cold compile or cache load) and never enters a throughput
figure. MB/s is 10^6 bytes per second. ``--out`` writes the rows as CSV with a
``run_id`` column and the run's provenance beside it (``<out>.meta.json``).

This is a benchmark, not a test: numbers on a shared machine are noisy.
"""
from __future__ import annotations

import argparse
import contextlib
import math
import shutil
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from cipherlab._checks import check_choices
from cipherlab.ciphers._numba import max_threads
from cipherlab.ciphers.cpu import aesni_status
from cipherlab.ciphers.modes import available_impls, new, pycryptodome_aes
from cipherlab.names import OWN_STYLES
from cipherlab.pipeline.provenance import run_metadata
from cipherlab.ciphers.registry import InsecureCipherWarning, cipher_names, lookup
from cipherlab.pipeline.machine_lock import machine_lock
from cipherlab.pipeline.paths import PROFILES
from cipherlab.pipeline.results import descriptor_of, resolve_target, save_raw, write_csv, write_json, write_raw
from cipherlab.ciphers._aesni import ZMM_MIN_GAIN
from cipherlab.ciphers.probe import instruction_bound
from cipherlab.analysis.sweep import SWEEP_EXPERIMENT, SWEEP_MODE, limit_table, probe_table, sweep_parameters, sweep_table
from cipherlab.bench_tables import REFERENCE, against_bound, format_table, kernel_rows, target_ratios, user_table
from cipherlab.bench_timing import (BATCH_SECONDS, FIRST_CALLS, STREAM_CALLS, STREAM_LEAD_SECONDS, STREAM_SECONDS,
                                    batch_time, first_calls, sweep_cases, time_cases)

__all__ = ["run_bench", "run_sweep", "run_limits", "bound_record", "against_bound", "openssl_speed", "sweep_table",
           "instruction_bound", "main", "target_ratios", "format_table", "kernel_rows", "user_table", "BENCH_IMPLS",
           "SWEEP_SIZES"]

MiB = 1 << 20
BENCH_MODES = ("ecb", "ctr")
#: cipherlab's styles; PyCryptodome is always measured beside them.
BENCH_IMPLS = OWN_STYLES
COLUMNS = ["cipher", "impl", "mode", "operation", "threads", "bytes", "seconds", "mb_per_s", "compile_seconds",
           "data", "object"]
#: The ways cipherlab's encryption is timed besides an array through a reused object: ``(data, object)``.
USER_CASES = (("bytes", "reused"), ("bytes", "fresh"))


def _pycryptodome_cases(key: bytes, iv: bytes, raw: bytes, modes) -> list:
    cases = []
    for mode in modes:
        for op in ("encrypt", "decrypt"):
            if mode == "ecb":
                fn = getattr(pycryptodome_aes(key, mode), op)
            else:  # a fresh object per message, as cipherlab's CTR starts at iv on every call
                def fn(data, op=op, mode=mode):
                    return getattr(pycryptodome_aes(key, mode, iv), op)(data)
            fn(raw[:65536])
            cases.append((dict(cipher="aes", impl=REFERENCE, mode=mode, operation=op, threads=1,
                               compile_seconds=float("nan"), data="bytes", object="reused" if mode == "ecb" else "fresh"),
                           lambda fn=fn: fn(raw)))
    return cases


def run_bench(size: int = 8 * MiB, ciphers=None, impls=None, modes=BENCH_MODES,
              threads=None, key_bytes: int = 16, repeats: int = 3, seed: int = 0) -> pd.DataFrame:
    """Measure throughput; returns one row per (cipher, impl, mode, operation, threads).

    Parameters
    ----------
    size : int
        Bytes of random data (a positive multiple of 16).
    ciphers : sequence of str, optional
        Registered names (default :func:`cipherlab.ciphers.registry.cipher_names`);
        each runs in the styles of ``impls`` its registry entry lists.
    modes : sequence of str
    impls : sequence of str, optional
        cipherlab styles (default: those of :data:`BENCH_IMPLS` available here).
        PyCryptodome's AES (``impl == "pycryptodome"``) is always added.
    threads : sequence of int, optional
        Thread counts (default ``(1, all)``).
    key_bytes : {16, 24, 32}
    repeats : int
        Calls per figure (>= 1); the best (least disturbed) is reported.
    seed : int
        Seeds the data and key.

    Returns
    -------
    pandas.DataFrame
        ``cipher, impl, mode, operation, threads, bytes, seconds, mb_per_s,
        compile_seconds, data, object`` (``compile_seconds`` is the first, warm-up
        call on 64 KiB: JIT compile or cache load; NaN for PyCryptodome and the
        rows of :data:`USER_CASES`). ``data`` is ``array`` (a uint8 array in and
        out) or ``bytes``; ``object`` is ``reused`` (one object for every call) or
        ``fresh`` (``new()`` per message). cipherlab's rows with ``data``
        ``array`` are what this frame had before those two columns; the rows of
        :data:`USER_CASES` (encryption only) time what a user calls. PyCryptodome
        takes and returns bytes: a reused object in ECB, a fresh one in CTR.
    """
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size <= 0 or size % 16:
        raise ValueError(f"size must be a positive multiple of 16 bytes, got {size!r}")
    if isinstance(repeats, bool) or not isinstance(repeats, (int, np.integer)) or repeats < 1:
        raise ValueError(f"repeats must be an integer >= 1, got {repeats!r}")
    impls = tuple(i for i in BENCH_IMPLS if i in available_impls()) if impls is None else tuple(impls)
    bad = [i for i in impls if i not in BENCH_IMPLS]
    if bad:
        raise ValueError(f"impls must be a subset of {BENCH_IMPLS} (PyCryptodome is always measured), got {bad}")
    ciphers = check_choices("ciphers", cipher_names() if ciphers is None else ciphers, cipher_names(families=True))
    threads = tuple(sorted({1, max_threads()})) if threads is None else tuple(threads)
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, size, dtype=np.uint8)
    key = rng.bytes(key_bytes)
    iv = rng.bytes(16)
    raw = data.tobytes()
    warm = data[: 64 * 1024]
    cases = []  # (row fields, callable)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InsecureCipherWarning)
        for cipher in ciphers:
            for impl in (i for i in impls if i in lookup(cipher).styles):
                for mode in modes:
                    for n_threads in threads:
                        kw = dict(iv=None if mode == "ecb" else iv, impl=impl, padding=False, threads=n_threads)
                        c = new(key, cipher, mode, **kw)
                        row = dict(cipher=cipher, impl=impl, mode=mode, threads=n_threads)
                        for op in ("encrypt", "decrypt"):
                            fn = c.encrypt if op == "encrypt" else c.decrypt
                            t0 = time.perf_counter_ns()
                            fn(warm)  # compile (or load from cache) outside the timing
                            compile_s = (time.perf_counter_ns() - t0) / 1e9
                            cases.append((dict(row, operation=op, compile_seconds=compile_s, data="array",
                                               object="reused"), lambda fn=fn: fn(data)))
                        user = {"reused": c.encrypt,
                                "fresh": lambda m, kw=kw, cipher=cipher, mode=mode: new(key, cipher, mode, **kw).encrypt(m)}
                        for kind, obj in USER_CASES:
                            user[obj](raw[: 64 * 1024])  # the first call's set-up (the thread's scratch) untimed
                            cases.append((dict(row, operation="encrypt", compile_seconds=float("nan"), data=kind,
                                               object=obj), lambda fn=user[obj]: fn(raw)))
    if "aes" in ciphers:
        cases += _pycryptodome_cases(key, iv, raw, modes)
    # Repeats are interleaved across all cases so that a burst of load from
    # other processes hits every case alike instead of a few of them.
    best = [float("inf")] * len(cases)
    with warnings.catch_warnings():  # a fresh research cipher object warns on every new()
        warnings.simplefilter("ignore", InsecureCipherWarning)
        for _ in range(repeats):
            for i, (_, call) in enumerate(cases):
                t0 = time.perf_counter_ns()
                call()
                best[i] = min(best[i], (time.perf_counter_ns() - t0) / 1e9)
    rows = [dict(fields, bytes=size, seconds=s, mb_per_s=size / s / 1e6) for (fields, _), s in zip(cases, best)]
    return pd.DataFrame(rows, columns=COLUMNS)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return value


def write_results(frame: pd.DataFrame, out, *, size: int, repeats: int, key_bits: int, record: "dict | None" = None
                  ) -> Path:
    """The rows as CSV (with ``run_id``) and the provenance record beside it (``<out>.meta.json``), with
    the bound's record (:func:`bound_record`) where given."""
    meta = run_metadata(profile="bench", seed=0, config=dict(size=size, repeats=repeats, key_bits=key_bits),
                        **(record or {}))
    path = write_csv(frame.assign(run_id=meta["run_id"]), out)
    if _record_beside(out):
        write_json(meta, path.with_name(path.name + ".meta.json"))
    return path


def _record_beside(out) -> bool:
    """Whether ``out`` gets its provenance record beside it (``<out>.meta.json``): not for a descriptor
    (``--out /dev/stdout``), which is written to where it stands and has no folder of its own."""
    if descriptor_of(out) is None:
        return True
    print(f"cipherlab bench: {out} is a descriptor: the rows are written to it, without the provenance record "
          "(it goes beside a file: --out FILE)", file=sys.stderr)
    return False


# -- the size sweep (``cipherlab bench --sizes``), the way ``openssl speed`` reports -------------

#: Message sizes of the sweep (bytes): ``openssl speed``'s six, then 1 MiB and 8 MiB.
SWEEP_SIZES = (16, 64, 256, 1024, 8192, 16384, MiB, 8 * MiB)
#: Sizes at which a reused cipherlab object is also timed on two threads (the scaling factor).
TWO_THREAD_SIZES = (MiB, 8 * MiB)
#: The limit part of the sweep: one thread, a reused object, each key size and mode at this size.
LIMIT_BYTES = 8 * MiB
#: The limit part times each of its cases in this many times the sweep's batches (``repeats``), the fastest
#: kept, as the bound is the probe's best: its batches are short (three 8 MiB messages), and on a VM whose L3
#: is shared with other tenants one process's AES-128 batches at 8 MiB (input and output: half the 32 MiB L3)
#: spread from 0.80 to 0.95 of the bound, in runs a minute apart (measured on a 2-vCPU Zen 5 VM: the best
#: of 5 batches 0.80-0.96, of 30 0.87-0.96). Six cases of 0.5 ms batches: under a tenth of a second in all.
LIMIT_REPEATS = 4
#: ``part`` is ``sizes`` (AES-128 by message size) or ``limit`` (every key size and mode at
#: :data:`LIMIT_BYTES`, against the measured bound).
SWEEP_COLUMNS = ["part", "library", "object", "mode", "key_bits", "threads", "bytes", "seconds", "mb_per_s",
                 "cycles_per_byte", "calls", "data"]
def _check_sweep_args(mode, impl, repeats):
    from cipherlab.ciphers.modes import resolve_impl
    check_choices("mode", (mode,), BENCH_MODES)
    impl = resolve_impl(impl)
    if impl not in BENCH_IMPLS:
        raise ValueError(f"impl must be one of {BENCH_IMPLS} or 'auto', got {impl!r}")
    if isinstance(repeats, bool) or not isinstance(repeats, (int, np.integer)) or repeats < 1:
        raise ValueError(f"repeats must be an integer >= 1, got {repeats!r}")
    return impl


def _row(part, library, obj, mode, key_bits, threads, n, seconds, calls, clock_hz, data="array") -> dict:
    return dict(part=part, library=library, object=obj, mode=mode, key_bits=key_bits, threads=threads, bytes=n,
                seconds=seconds, mb_per_s=n / seconds / 1e6,
                cycles_per_byte=seconds * clock_hz / n if clock_hz else float("nan"), calls=calls, data=data)


def run_sweep(sizes=SWEEP_SIZES, mode: str = "ctr", impl: str = "auto", repeats: int = 5, seed: int = 0,
              clock_hz: "float | None" = None, two_threads=TWO_THREAD_SIZES) -> pd.DataFrame:
    """Throughput of AES-128 by message size, one thread: cipherlab and PyCryptodome side by side.

    Each size runs the cases of :func:`cipherlab.bench_timing.sweep_cases` (cipherlab / PyCryptodome, a fresh object per
    message / one object reused, cipherlab on arrays and on bytes), and at the sizes of ``two_threads``
    a reused cipherlab object on two threads and the plain copy's ceiling as well (where Numba may run
    two), interleaved, ``repeats`` batches each (a batch lasts about
    :data:`cipherlab.bench_timing.BATCH_SECONDS`); the fastest batch is reported, as seconds per call. ``cycles_per_byte``
    uses ``clock_hz`` (None: NaN, the clock unknown).
    """
    impl = _check_sweep_args(mode, impl, repeats)
    sizes = tuple(sizes)
    if not sizes or any(isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 16 or n % 16
                        for n in sizes):
        raise ValueError(f"sizes must be positive multiples of 16 bytes, got {sizes!r}")
    rng = np.random.default_rng(seed)
    key, iv = rng.bytes(16), rng.bytes(16)
    rows, ways = [], {}
    for n in sizes:
        data = rng.integers(0, 256, n, dtype=np.uint8)
        two = n in two_threads and max_threads() >= 2
        cases = sweep_cases(mode, impl, key, iv, data, data.tobytes(), two)
        if two:  # the size class's first calls on two threads, timed alone; the kernel's compile (or cache
            from cipherlab.ciphers._threads import start  # load) and the helper thread's making kept out
            start(2)
            cases[1][4]()  # the reused object on one thread: the same kernel
            i = next(i for i, (_, _, t, kind, _) in enumerate(cases) if t == 2 and kind == "array")
            seconds, calls = first_calls(cases[i][4], FIRST_CALLS)
            rows.append(_row("sizes", "cipherlab", "first calls", mode, 128, 2, n, seconds, FIRST_CALLS, clock_hz))
            ways[n] = {"first_calls": [bool(c.shared) for c in calls], "first_call_faults": [c.faults for c in calls]}
        ours_two = [t == 2 and lib == "cipherlab" for lib, _, t, _, _ in cases]  # each batch a stream of messages
        timed = time_cases([fn for *_, fn in cases], repeats, least=[STREAM_CALLS if s else 1 for s in ours_two],
                           seconds=[STREAM_SECONDS if two else BATCH_SECONDS] * len(cases),
                           lead=[STREAM_LEAD_SECONDS if two else 0.0] * len(cases),
                           per_call=[2 if kind == "streams" else 1 for *_, kind, _ in cases])
        if two:
            from cipherlab.ciphers._threads import trace
            with trace() as calls:  # the way the warm object takes now (the learned choice)
                cases[i][4]()
            ways[n]["warm"] = [bool(c.shared) for c in calls]
        for (library, obj, threads, kind, _), (s, c) in zip(cases, timed):
            rows.append(_row("sizes", library, obj, mode, 128, threads, n, s, c, clock_hz, kind))
    frame = pd.DataFrame(rows, columns=SWEEP_COLUMNS)
    frame.attrs["two_thread_ways"] = ways
    return frame


def run_limits(size: int = LIMIT_BYTES, impl: str = "auto", repeats: int = 5, seed: int = 0,
               clock_hz: "float | None" = None) -> pd.DataFrame:
    """A reused cipherlab object, one thread, at ``size`` bytes, for every key size (AES-128/192/256)
    and both modes of the sweep (ECB, CTR), interleaved: the rows the measured bound is held against."""
    impl = _check_sweep_args("ctr", impl, repeats)
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, size, dtype=np.uint8)
    labels, cases = [], []
    for key_bits in (128, 192, 256):
        key, iv = rng.bytes(key_bits // 8), rng.bytes(16)
        for mode in BENCH_MODES:
            c = new(key, "aes", mode, iv=None if mode == "ecb" else iv, impl=impl, padding=False, threads=1)
            labels.append((mode, key_bits))
            cases.append(lambda c=c: c.encrypt(data))
    rows = [_row("limit", "cipherlab", "reused", mode, key_bits, 1, size, s, c, clock_hz)
            for (mode, key_bits), (s, c) in zip(labels, time_cases(cases, repeats))]
    return pd.DataFrame(rows, columns=SWEEP_COLUMNS)


def new_timings(mode: str = "ctr", repeats: int = 40, seed: int = 0) -> pd.DataFrame:
    """``new()`` alone, AES-128, for each cipherlab style available here beside PyCryptodome's
    ``AES.new`` (interleaved batches, the fastest kept): ``impl, us, pycryptodome_us, ratio``."""
    rng = np.random.default_rng(seed)
    key, iv = rng.bytes(16), rng.bytes(16)
    iv = None if mode == "ecb" else iv
    theirs = lambda: pycryptodome_aes(key, mode, iv)  # noqa: E731
    styles = [i for i in BENCH_IMPLS if i in available_impls()]
    fns = [theirs] + [lambda impl=impl: new(key, "aes", mode, iv=iv, impl=impl) for impl in styles]
    for fn in fns:
        fn()
    calls = 100  # short batches, many of them: a batch that another process interrupts is not the fastest
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], batch_time(fn, calls))
    return pd.DataFrame([dict(impl=impl, us=b * 1e6, pycryptodome_us=best[0] * 1e6, ratio=b / best[0])
                         for impl, b in zip(styles, best[1:])])


def openssl_speed(mode: str = "ctr", sizes=SWEEP_SIZES, seconds: int = 1) -> "pd.DataFrame | str":
    """``openssl speed -evp aes-128-<mode>`` at each size (its one thread, a context reused), parsed
    from its machine-readable output: ``bytes, mb_per_s`` rows; or a string saying why not."""
    exe = shutil.which("openssl")
    if exe is None:
        return "openssl is not on PATH: not measured"
    default = tuple(n for n in sizes if n in OPENSSL_DEFAULT_SIZES)
    runs = ([[]] if default else []) + [["-bytes", str(n)] for n in sizes if n not in OPENSSL_DEFAULT_SIZES]
    rows = []
    for extra in runs:
        cmd = [exe, "speed", "-mr", "-seconds", str(seconds), *extra, "-evp", f"aes-128-{mode}"]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            return f"openssl speed failed ({exc.__class__.__name__}): not measured"
        measured = OPENSSL_DEFAULT_SIZES if not extra else (int(extra[1]),)
        rows += parse_openssl_mr(out, measured)
    rows = [r for r in rows if r["bytes"] in sizes]
    return pd.DataFrame(rows, columns=["bytes", "mb_per_s"]) if rows else "openssl speed printed no result"


#: The sizes ``openssl speed`` runs when not given ``-bytes``.
OPENSSL_DEFAULT_SIZES = (16, 64, 256, 1024, 8192, 16384)


def parse_openssl_mr(text: str, sizes) -> list:
    """The ``+F:<n>:<cipher>:<bytes/s>:...`` line of ``openssl speed -mr`` as ``{bytes, mb_per_s}`` rows."""
    for line in text.splitlines():
        if line.startswith("+F:"):
            values = [float(v) for v in line.split(":")[3:]]
            return [dict(bytes=n, mb_per_s=v / 1e6) for n, v in zip(sizes, values)]
    return []


def bound_record(impl: str) -> dict:
    """What the run records about the machine's limit: the probe's figures (:func:`cipherlab.ciphers.probe.measure`,
    cached per process), the register width the hardware style ran ECB and CTR at (None for another
    style), the probe's zmm-over-ymm gain that chose it and the least gain that picks zmm, and the CPU
    features that matter here."""
    from cipherlab.ciphers import probe
    from cipherlab.ciphers._aesni import kernel_width
    from cipherlab.ciphers.cpu import feature_flags
    return {"probe": probe.measure().as_dict(), "kernel_width": kernel_width() if impl == "aesni" else None,
            "zmm_gain": probe.zmm_gain(), "zmm_min_gain": ZMM_MIN_GAIN, "cpu_flags": feature_flags()}


def _print_limits(frame: pd.DataFrame, record: dict, batches: int) -> None:
    print("\nthe measured bound (probe on this CPU: AES chains per register width, a CTR block's rounds, loads "
          f"and stores in L1); cipherlab at one thread, a reused object, the fastest of {batches} batches; "
          "fraction = bound / measured:")
    print(limit_table(frame, record).round(3).to_string(index=False))
    print(probe_table(record).round(3).to_string(index=False))


def _ways(shared: list) -> str:
    return " ".join("S" if s else "1" for s in shared) or "none timed (a short message or not the hardware style)"


def run_sizes(args) -> int:
    """``cipherlab bench --sizes``: the probe of the bound, the sweep and its limit part, OpenSSL beside
    it, printed (and written with ``--out``)."""
    from cipherlab.ciphers.modes import resolve_impl
    from cipherlab.pipeline.provenance import cpu_model, load_average, os_clock_mhz
    load_before = load_average()
    impl = resolve_impl((args.impl or ["auto"])[0])
    record = bound_record(impl)
    clock = record["probe"]["clock_hz"]
    sizes = run_sweep(sizes=SWEEP_SIZES, mode=args.mode, impl=impl, repeats=args.repeats, clock_hz=clock,
                      two_threads=TWO_THREAD_SIZES)
    ways = sizes.attrs["two_thread_ways"]
    limit_batches = LIMIT_REPEATS * args.repeats
    frame = pd.concat([sizes, run_limits(size=LIMIT_BYTES, impl=impl, repeats=limit_batches, clock_hz=clock)],
                      ignore_index=True)
    openssl = openssl_speed(args.mode, SWEEP_SIZES)
    width = record["kernel_width"]
    print(f"cipherlab bench --sizes: AES-128 {args.mode.upper()}, impl {impl}"
          f"{f' ({width}-bit kernels)' if width else ''}, best of {args.repeats} batches, MB/s (10^6 B/s); "
          f"clock {clock / 1e6:.0f} MHz measured (the OS reports {os_clock_mhz()}); CPU {cpu_model()}, "
          f"features {' '.join(record['cpu_flags']) or 'none of interest'}")
    print(sweep_table(frame, openssl, record).round(3).to_string(index=False))
    if isinstance(openssl, str):
        print(f"\nOpenSSL: {openssl}")
    if max_threads() < 2:
        print("\ntwo threads: not measured (Numba may run one thread here: NUMBA_NUM_THREADS)")
    for n, way in ways.items():
        print(f"two threads at {n} B, the way each long message took (shared / one thread): the first "
              f"{FIRST_CALLS} calls {_ways(way['first_calls'])} (page faults {way['first_call_faults']}), after "
              f"warm-up {_ways(way['warm'])}")
    _print_limits(frame, record, limit_batches)
    gain = record["zmm_gain"]
    if gain == gain:
        print(f"zmm over ymm, AES block-rounds per cycle: {gain:.3f}x (the 512-bit kernels run where it is at "
              f"least {ZMM_MIN_GAIN}x)")
    news = new_timings(args.mode)
    print(f"\nnew() alone, AES-128 {args.mode.upper()} (time / PyCryptodome's AES.new; <= 1.0 is as fast): "
          + ", ".join(f"{r.impl} {r.us:.1f} us ({r.ratio:.2f}x)" for r in news.itertuples())
          + f"; PyCryptodome {news.pycryptodome_us.iloc[0]:.1f} us")
    print(f"load average before {load_before}, after {load_average()}: a shared machine makes these numbers noisy")
    if args.out or args.profile:
        rows = frame.assign(openssl_mb_per_s=frame.bytes.map(openssl.set_index("bytes").mb_per_s)
                            if isinstance(openssl, pd.DataFrame) else float("nan"))
        meta = run_metadata(profile=args.profile or "bench", seed=0, config=sweep_parameters(args.repeats, args.mode),
                            sizes=list(SWEEP_SIZES), clock_hz_measured=clock, load_average_before=load_before,
                            **record, two_thread_ways={str(n): w for n, w in ways.items()},
                            first_calls=FIRST_CALLS, stream_calls=STREAM_CALLS,
                            stream_seconds=STREAM_SECONDS, stream_lead_seconds=STREAM_LEAD_SECONDS,
                            limit_batches=limit_batches,
                            openssl=openssl if isinstance(openssl, str) else "measured")
        rows = rows.assign(run_id=meta["run_id"])
        if args.profile:   # the pipeline's raw file (rule bench_sweep), through the one raw writer
            save_raw(rows, SWEEP_EXPERIMENT, args.profile, meta=meta)
        elif _record_beside(args.out):
            out = Path(args.out)
            write_raw(rows, out, out.with_name(out.name + ".meta.json"), {**meta, "experiment": SWEEP_EXPERIMENT})
        else:
            write_csv(rows, args.out)
    return 0


class _OneLineParser(argparse.ArgumentParser):
    """argparse whose errors are one line (``cipherlab bench: error: ...``, exit status 2), no usage block."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv=None) -> int:
    """``cipherlab bench [--size-mib N] [--repeats N] [--cipher C] [--impl I] [--out CSV]``."""
    p = _OneLineParser(prog="cipherlab bench", description=__doc__.splitlines()[0].replace("``", ""))
    p.add_argument("--size-mib", type=_positive_float, default=8.0, help="MiB of random data (default 8)")
    p.add_argument("--repeats", type=_positive_int, default=3, help="calls per figure, best reported (default 3)")
    p.add_argument("--key-bits", type=int, choices=(128, 192, 256), default=128)
    p.add_argument("--cipher", action="append", choices=cipher_names(families=True),
                   help="restrict to a cipher (repeatable; default: every registered cipher)")
    p.add_argument("--impl", action="append", choices=BENCH_IMPLS,
                   help="restrict to a cipherlab style (repeatable); PyCryptodome is always measured")
    p.add_argument("--out", help="also write the raw rows to this CSV (and <out>.meta.json)")
    p.add_argument("--profile", choices=PROFILES,
                   help="with --sizes: write the sweep as the profile's raw file data/raw/<profile>/bench_sweep.csv "
                        "and its record (what the pipeline's rule bench_sweep runs)")
    p.add_argument("--sizes", action="store_true",
                   help="the size sweep instead (16 B .. 8 MiB, AES-128, one thread, fresh and reused objects, "
                        "PyCryptodome and openssl speed beside)")
    p.add_argument("--mode", choices=BENCH_MODES, default=SWEEP_MODE,
                   help=f"mode of the size sweep (default {SWEEP_MODE})")
    p.add_argument("--machine-lock", action="store_true",
                   help="hold the machine lock exclusively while timing, as the pipeline's timing jobs do")
    args = p.parse_args(argv)
    if args.profile and not args.sizes:
        p.error("argument --profile: goes with --sizes")
    if args.profile and args.out:
        p.error("argument --profile: not allowed with --out (the profile's raw file is the output)")
    if args.out is not None:   # a bad path ('' too) is refused before the benchmark runs, not after it
        try:
            resolve_target(args.out)
        except OSError as exc:   # exit 1, as a write that fails
            p.exit(1, f"{p.prog}: error: argument --out: cannot write {args.out!r}: {exc.strerror or exc}\n")
    if args.sizes:
        if args.impl and "aesni" in args.impl and "aesni" not in available_impls():
            p.error(f"argument --impl: 'aesni' is not available here: {aesni_status()}")
        with machine_lock(exclusive=True) if args.machine_lock else contextlib.nullcontext():
            return run_sizes(args)
    size = int(args.size_mib * MiB) // 16 * 16
    if size <= 0:
        p.error(f"argument --size-mib: must be at least 16 bytes (1.6e-05 MiB), got {args.size_mib}")
    if args.impl and "aesni" in args.impl and "aesni" not in available_impls():
        p.error(f"argument --impl: 'aesni' is not available here: {aesni_status()}")
    t0 = time.perf_counter()
    with machine_lock(exclusive=True) if args.machine_lock else contextlib.nullcontext():
        frame = run_bench(size, ciphers=args.cipher, impls=args.impl, key_bytes=args.key_bits // 8,
                          repeats=args.repeats)
    print(f"cipherlab bench: {size / MiB:g} MiB random data, AES-{args.key_bits} key, best of {args.repeats}, "
          f"MB/s (10^6 B/s); threads: 1 and {max_threads()}")
    print(format_table(frame))
    print("\nencryption as a user calls it (bytes in and out; the object reused, or new() per message), "
          "beside arrays, MB/s:")
    print(user_table(frame).round(2).to_string())
    ours = frame[frame.impl != REFERENCE]
    if len(ours):
        first = ours.groupby(["cipher", "impl"]).compile_seconds.max()
        print("\nwarm-up (JIT compile or cache load + 64 KiB, excluded from the figures), slowest call per "
              "cipher x style: " + ", ".join(f"{c}/{i} {s:.2f} s" for (c, i), s in first.items()))
    record = None
    if "aes" in set(frame.cipher):
        print()
        for r in target_ratios(frame).dropna().itertuples():
            print(f"{r.target}: {r.ratio:.2f}x (target >= {r.required}x) {'met' if r.met else 'MISSED'}")
        record = bound_record("aesni" if "aesni" in available_impls() else "table")
        print(f"\nagainst the bound measured on this CPU (AES-{args.key_bits}, one thread, clock "
              f"{record['probe']['clock_hz'] / 1e6:.0f} MHz measured; fraction = bound / measured):")
        print(against_bound(frame, record, args.key_bits).round(3).to_string(index=False))
    print(f"\nwall time {time.perf_counter() - t0:.1f} s")
    if args.out:
        write_results(frame, args.out, size=size, repeats=args.repeats, key_bits=args.key_bits, record=record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
