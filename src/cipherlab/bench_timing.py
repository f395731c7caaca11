"""How the size sweep (``cipherlab bench --sizes``, :func:`cipherlab.bench.run_sweep`) times its cases: the
cases of one message (cipherlab and PyCryptodome, fresh and reused objects, arrays and bytes; at the two-thread
sizes the two-thread object, the "2 streams" rows and the plain copy's ceiling), the first calls of a size class
timed one by one, and the batched, interleaved timing that keeps the fastest batch. Timing only: the rows and
tables are made in :mod:`cipherlab.bench` and :mod:`cipherlab.bench_tables`."""
from __future__ import annotations

import time

import numpy as np

from cipherlab.ciphers.modes import new, pycryptodome_aes

__all__ = ["BATCH_SECONDS", "FIRST_CALLS", "STREAM_CALLS", "STREAM_SECONDS", "STREAM_LEAD_SECONDS", "batch_time", "sweep_cases", "first_calls", "time_cases"]

#: Seconds each batch of calls should last: long enough for perf_counter, short enough to fit in one
#: time slice of a shared machine (the fastest batch is kept).
BATCH_SECONDS = 5e-4


def batch_time(fn, calls: int) -> float:
    t0 = time.perf_counter_ns()
    for _ in range(calls):
        fn()
    return (time.perf_counter_ns() - t0) / 1e9 / calls


def _copy(inp: np.ndarray, out: np.ndarray, start: int, stop: int) -> None:
    np.copyto(out[16 * start:16 * stop], inp[16 * start:16 * stop])  # numpy releases the GIL for a copy


#: A two-thread case is timed as a user streaming messages sees it: this many calls of the size class run
#: first (the learned choice of one thread or sharing made, the helper thread and the second vCPU awake;
#: as a JIT compile is kept out of a timing), and each batch holds at least :data:`STREAM_CALLS` messages
#: and lasts at least :data:`STREAM_SECONDS` (every case at those sizes alike): a user streaming messages keeps
#: the second core at work, while a core left idle between two short batches (the other cases' turns) runs
#: the next batch's first millisecond slower (measured on a Zen 5 VM: 110-200 us an 8 MiB message, then
#: 97-105).
#: The first calls are timed one by one and reported apart (``object`` ``first calls``).
FIRST_CALLS = 8
STREAM_CALLS = 8
STREAM_SECONDS = 5e-3
#: At the two-thread sizes each timed batch (of every case alike) follows untimed calls of its case lasting
#: this long: the stream is flowing when its timing starts, the helper thread awake and the second core at
#: speed, as in a user's stream after its first messages (those are the ``first calls`` row). A core that has
#: not run AES for a while runs it slower for its first 2-3 ms (measured on a 2-vCPU Zen 5 VM, 8 MiB messages
#: shared by two threads after 20 ms of one-thread messages: 125-140 us, then 100-106 us from about the 25th;
#: from the third when the helper's core had just run AES itself; with 1 ms ahead of each batch the sweep's
#: factor read 1.64-1.72, with 5 ms 1.77-1.84).
STREAM_LEAD_SECONDS = 5e-3


def sweep_cases(mode: str, impl: str, key: bytes, iv: bytes, data: np.ndarray, raw: bytes, two_threads: bool) -> list:
    """``(library, object, threads, data, callable)`` for one message: cipherlab and PyCryptodome, each
    with a fresh object per message (what a user does) and with one object reused, cipherlab on a uint8
    array and on ``bytes`` (bytes in, bytes out, as a user calls it; PyCryptodome returns bytes always);
    with ``two_threads``, a reused cipherlab object on two threads too, two user threads each streaming
    its own messages through its own object on one thread (``data`` ``streams``: the hardware's scaling
    for independent work; a call is one message on each thread, its time per message), and beside them
    the ceiling of two threads on this machine: a plain copy of the same bytes (``library`` ``copy``) on
    one thread and shared by two, as the cipher's pieces are."""
    kw = dict(iv=None if mode == "ecb" else iv, impl=impl, padding=False)
    ours = new(key, "aes", mode, threads=1, **kw)
    # a reused PyCryptodome CTR object streams on (its counter moves): still one message per call
    theirs = pycryptodome_aes(key, mode, kw["iv"])
    fresh = lambda: pycryptodome_aes(key, mode, kw["iv"]).encrypt(raw)  # noqa: E731
    cases = [("cipherlab", "fresh", 1, "array", lambda: new(key, "aes", mode, threads=1, **kw).encrypt(data)),
             ("cipherlab", "reused", 1, "array", lambda: ours.encrypt(data)),
             ("cipherlab", "fresh", 1, "bytes", lambda: new(key, "aes", mode, threads=1, **kw).encrypt(raw)),
             ("cipherlab", "reused", 1, "bytes", lambda: ours.encrypt(raw)),
             ("pycryptodome", "fresh", 1, "bytes", fresh),
             ("pycryptodome", "reused", 1, "bytes", lambda: theirs.encrypt(raw))]
    if two_threads:
        from cipherlab.ciphers._threads import beside, share
        both = new(key, "aes", mode, threads=2, **kw)
        both.encrypt(data[:16])  # its first message: entry points and team compiled or loaded, outside the timing
        other = new(key, "aes", mode, threads=1, **kw)
        out = np.empty_like(data)
        cases += [("cipherlab", "reused", 2, "array", lambda: both.encrypt(data)),
                  ("cipherlab", "reused", 2, "bytes", lambda: both.encrypt(raw)),
                  ("cipherlab", "reused", 2, "streams",
                   lambda: beside(lambda: ours.encrypt(data), lambda: other.encrypt(data))),
                  ("copy", "reused", 1, "array", lambda: np.copyto(out, data)),
                  ("copy", "reused", 2, "array", lambda: share(_copy, data.shape[0], 2, lambda a, b: (data, out, a, b)))]
    return cases


def first_calls(fn, count: int) -> "tuple[float, list]":
    """The mean time of ``fn``'s first ``count`` calls, each timed alone, and their trace (the way each
    long message took: :func:`cipherlab.ciphers._threads.trace`)."""
    from cipherlab.ciphers._threads import trace
    with trace() as calls:
        times = []
        for _ in range(count):
            t0 = time.perf_counter_ns()
            fn()
            times.append((time.perf_counter_ns() - t0) / 1e9)
    return sum(times) / count, calls


def time_cases(cases: list, repeats: int, least=None, per_call=None, seconds=None, lead=None) -> list:
    """``(seconds per call, calls per batch)`` of each case: a warm-up call (JIT compile or cache load),
    calls per batch doubled until a batch lasts ``seconds[i]`` (default :data:`BATCH_SECONDS`) and holds
    ``least[i]`` calls at least (a stream), then ``repeats`` batches of each, interleaved across the cases,
    the fastest kept; each case's time divided by ``per_call[i]`` (messages per call). With ``lead[i]``
    (seconds, default 0), each timed batch of case ``i`` follows untimed calls of it lasting about that long:
    a stream already flowing when the timing starts (its start is timed apart: :func:`first_calls`)."""
    least = least or [1] * len(cases)
    per_call = per_call or [1] * len(cases)
    seconds = seconds or [BATCH_SECONDS] * len(cases)
    lead = lead or [0.0] * len(cases)
    calls, leads = [], []
    for fn, low, span, ahead in zip(cases, least, seconds, lead):
        fn()
        c = 1
        while c < 1 << 16 and (one := batch_time(fn, c)) * c < span:
            c *= 2
        calls.append(max(c, low))
        leads.append(int(ahead / max(one, 1e-9)) + 1 if ahead > 0 else 0)
    best = [float("inf")] * len(cases)
    for _ in range(repeats):
        for i, fn in enumerate(cases):
            if leads[i]:
                batch_time(fn, leads[i])
            best[i] = min(best[i], batch_time(fn, calls[i]))
    return [(b / k, c) for b, c, k in zip(best, calls, per_call)]
