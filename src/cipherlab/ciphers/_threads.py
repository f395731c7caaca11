"""Threads sharing one message: the helper threads, the pieces they claim, and the learned choice
between one thread and sharing, per kernel and size class.

The kernels release the GIL (``nogil``), so pieces of one message run in parallel on a helper thread and
the caller's. :func:`_ranges` runs a message one way or the other as :func:`shares` decides from that size
class's measured times (:func:`_record`). Shared, a VAES entry point's message is posted natively to the
team's box (:func:`team_share`, :mod:`cipherlab.ciphers._team`): no thread takes the GIL from the post to
the last piece, so a helper joins within a microsecond; any other kernel's message is split in guided
pieces claimed from Python (:func:`share`, :class:`_Shared`). :func:`beside` runs two independent calls at
once. A helper stays awake for :data:`SPIN_SECONDS` after its work (a bounded spin in native code, without
the GIL), then sleeps. :func:`trace` shows which way each long message took and its time.
"""
from __future__ import annotations

import os
import resource
import threading
import time
from collections import deque
from contextlib import contextmanager
from typing import NamedTuple

from cipherlab.ciphers import _team
from cipherlab.ciphers._numba import max_threads

__all__ = ["PARALLEL_MIN_BYTES", "shares", "SHARE_GAIN", "LATE_SHARE", "EXPLORE_EVERY", "EXPLORE_MAX", "SAMPLES",
           "PIECE_MIN_BYTES", "GUIDE", "share", "team_share", "run_team", "trace", "Call", "beside", "SPIN_SECONDS",
           "spin_reads", "start"]

# Below this many bytes (or with one thread) the serial kernels run: thread
# start-up would cost more than it saves at 10 GB/s.
PARALLEL_MIN_BYTES = 1 << 16


#: How long a helper thread stays awake after its last piece (seconds), spinning in native code without
#: the GIL: a stream of messages hands the next one to a thread already running instead of waking a
#: halted vCPU (tens of microseconds to a millisecond on a VM) each time; then it sleeps. (OpenMP runtimes
#: spin 200 ms by default.) Measured on a 2-vCPU Zen 5 VM, 8 MiB messages in the sweep's interleaved
#: batches: 1.2-1.4x one thread with 0.2 ms, 1.6-1.7x with 2 ms or 10 ms; a core idle for a millisecond runs
#: the next messages slower for about a millisecond.
SPIN_SECONDS = 2e-3
#: The reads of the helpers' wait (:func:`cipherlab.ciphers._team.spin`, a serve loop's idle reads) that last
#: :data:`SPIN_SECONDS` (measured on first use, per process).
_SPIN_READS: list = [None]


def spin_reads() -> int:
    """The spin's bound in reads: :data:`SPIN_SECONDS` at the rate measured once (a hundred thousand reads)."""
    if _SPIN_READS[0] is None:
        box = _team.new_box()
        _team.spin(box, 0, 0, 1)  # compile or load from the cache, untimed
        reads = 100_000
        t0 = time.perf_counter()
        _team.spin(box, 0, 0, reads)
        _SPIN_READS[0] = max(1, int(SPIN_SECONDS * reads / max(time.perf_counter() - t0, 1e-9)))
    return _SPIN_READS[0]


#: The team's mailbox (:mod:`cipherlab.ciphers._team`): every helper spins on its words; one message at a
#: time is posted there (:data:`_BOX_LOCK`), a job from Python counts its ``WAKE`` word up.
_BOX: list = [_team.new_box()]
_BOX_LOCK: list = [threading.Lock()]
#: ``kind -> serve``: the helpers' native loop of each entry point that has posted a message.
_SERVERS: dict = {}
_SEQ = [0]
_SEQ_WRAP = (1 << _team.SEQ_BITS) - 1


class _Helper:
    """A thread that runs the work handed to it: a message posted natively to the team's box (it runs
    the posting entry point's ``serve`` loop, without the GIL, until no message comes for
    :func:`spin_reads` reads) and the Python jobs handed to it (:meth:`give`), in order. Between them it
    spins on the box, then sleeps on a condition until woken (:meth:`wake`, :meth:`give`). Jobs queue
    (two user threads may hand it one each at once); a shared message's job that its caller finished
    meanwhile returns at once."""

    def __init__(self, index: int):
        self.jobs: deque = deque()
        self.cond = threading.Condition()
        self.asleep = False
        self.wanted = False
        self.spins = 0     # work seen while spinning (awake), for the trace's reader and tests
        self.sleeps = 0    # times the spin ran out and the thread slept
        self.reads = spin_reads()  # measured here: a job handed to the new thread does not wait for it
        self.thread = threading.Thread(target=self._run, name=f"cipherlab-aesni-{index}", daemon=True)
        self.thread.start()

    def give(self, job) -> None:
        with self.cond:
            self.jobs.append(job)
            _BOX[0][_team.WAKE] += 1
            self.cond.notify()

    def wake(self) -> None:
        """Wake the thread if it sleeps (a message is about to be posted natively)."""
        if self.asleep:
            with self.cond:
                self.wanted = True
                self.cond.notify()

    def _run(self) -> None:
        box, cond, reads, jobs = _BOX[0], self.cond, self.reads, self.jobs
        seen, woken = int(box[_team.POST]), int(box[_team.WAKE])
        while True:
            found = _team.spin(box, seen, woken, reads)
            while found == 1:  # a message posted: serve it and the next ones until none comes for a while
                self.spins += 1
                serve = _SERVERS.get(int(box[_team.KIND]))
                seen = serve(box, seen, woken, reads) if serve is not None else int(box[_team.POST])
                found = 1 if box[_team.POST] != seen else 2 if box[_team.WAKE] != woken else 0
            if found == 0:
                self.sleeps += 1
                with cond:
                    self.asleep = True
                    while not jobs and not self.wanted:
                        cond.wait()
                    self.asleep = self.wanted = False
            else:
                self.spins += 1
            woken = int(box[_team.WAKE])
            while jobs:
                jobs.popleft().work()  # popped: the message's arrays are not kept alive while waiting


_HELPERS: list = []


def _helpers(count: int) -> list:
    """``count`` helper threads (made on first use, kept for the process)."""
    while len(_HELPERS) < count:
        _HELPERS.append(_Helper(len(_HELPERS)))
    return _HELPERS[:count]


def start(threads: int) -> None:
    """Make the helper threads that ``threads`` threads sharing a message need, now (their wait compiled or
    loaded from the cache, its bound measured): a timing keeps this one-time set-up out, as a compile."""
    _helpers(max(0, min(threads, max_threads()) - 1))


def _forget_helpers_in_child() -> None:
    """A forked child inherits the helpers' objects but not their threads (work handed to them would
    never run): the child starts without them and makes its own on first use, with a box and lock of its
    own, and measures its own times (its cores may be shared differently)."""
    _HELPERS.clear()
    _SPEED.clear()
    _BOX[0] = _team.new_box()
    _BOX_LOCK[0] = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_helpers_in_child)


def team_share(team: tuple, args: tuple, n_blocks: int, threads: int, helpers: "list | None" = None) -> "float | None":
    """Run one message through a VAES entry point's team ``(kind, entry, serve)``
    (:meth:`cipherlab.ciphers._vaes_kernels.Entries.team`) on ``threads`` threads: posted natively to the box,
    its pieces claimed by this thread and the helpers that see it; ``args`` are the entry point's arguments
    for the whole message. Returns, once every block is written (a helper preempted inside a piece is waited
    for, an interrupt raised only after), the fraction of the blocks the helpers did; None (nothing done)
    when another thread's message holds the box, or for a message of more than
    :data:`cipherlab.ciphers._team.MAX_UNITS` units (16 GiB): the caller runs it alone. ``helpers``: the helper
    threads (:func:`_helpers`) where the caller has them at hand."""
    lock = _BOX_LOCK[0]
    if n_blocks > _team.MAX_UNITS * _team.UNIT or not lock.acquire(blocking=False):
        return None
    try:
        kind, entry, serve = team
        box = _BOX[0]
        if helpers is None:
            helpers = _helpers(min(threads, max_threads()) - 1)
        if kind not in _SERVERS:
            _SERVERS[kind] = serve
        for helper in helpers:
            if helper.asleep:
                helper.wake()
        seq = _SEQ[0] = _SEQ[0] % _SEQ_WRAP + 1
        done = entry(*args, box, seq, len(helpers), helpers[0].reads if helpers else 1)
        interrupted = None
        while not done:
            try:
                time.sleep(2e-5)
            except BaseException as exc:  # noqa: BLE001 - the helpers still write the arrays: wait, then raise
                interrupted = exc
            done = _team.wait_done(box, n_blocks, 1000)
        if interrupted is not None:
            raise interrupted
        return box.item(_team.HELPED) / max(n_blocks, 1)
    finally:
        lock.release()


#: The least a thread claims at a time (bytes) where threads share a message: a claim costs a kernel call
#: (about a microsecond), this much work about 6 us at 20 GB/s.
PIECE_MIN_BYTES = 1 << 17
#: Guided scheduling's divisor: a claim takes the larger of the least piece and what is left over this
#: times the thread count.
GUIDE = 2


class _Shared:
    """One message's blocks shared by the threads that run it: each claims a piece at a time, the next
    ``max(least, left // (2 * threads))`` blocks (guided scheduling: large pieces first, small at the end),
    so a thread that starts late (a worker must be woken: tens of microseconds on an idle vCPU) takes
    fewer, and no thread waits for one that has not started."""
    __slots__ = ("kernel", "args_for", "n_blocks", "threads", "least", "group", "next", "left", "lock", "done",
                 "error")

    def __init__(self, kernel, args_for, n_blocks: int, threads: int, group: int):
        self.kernel, self.args_for, self.n_blocks, self.threads, self.group = kernel, args_for, n_blocks, threads, group
        self.least = max(group, (PIECE_MIN_BYTES // 16) // group * group)
        self.next = 0
        self.left = n_blocks  # blocks not yet done
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.error = None

    def work(self) -> None:
        """Claim and run pieces until none is left (on any thread; the caller's included)."""
        lock, n = self.lock, self.n_blocks
        try:
            while True:
                with lock:
                    start = self.next
                    if start >= n:
                        return
                    size = max(self.least, (n - start) // (GUIDE * self.threads))
                    size += -size % self.group
                    stop = self.next = min(n, start + size)
                self.kernel(*self.args_for(start, stop))
                with lock:
                    self.left -= stop - start
                    if not self.left:
                        self.done.set()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, raised there
            self.error = exc
            self.done.set()


#: A size class's choice between one thread and the threads sharing: sharing is chosen where its measured
#: time per byte is at least this many times shorter than one thread's (so two threads are never slower).
SHARE_GAIN = 1.1
#: Each way's figure is the median of its last this-many timed messages (one disturbed call, a first call's
#: page faults say, does not decide); until both ways have that many, the calls alternate, one thread first.
SAMPLES = 3
#: Once both figures stand, the way not chosen runs again after this many calls of the size class, so that
#: both follow the machine's load (a second core taken by another process makes sharing slower than one
#: thread; freed, faster again). Each time that call confirms the choice the wait doubles, up to
#: :data:`EXPLORE_MAX` (on a loaded machine a shared call can wait a whole time slice for a preempted
#: helper: rarely tried, it costs little); a call that changes the choice brings the wait back to this.
EXPLORE_EVERY = 16
EXPLORE_MAX = 1024
#: A message run the other way than the size class's previous one is a warm-up of that way, left out of its
#: figure, and the next message runs the same way and counts: after one-thread messages the helper threads are
#: asleep (a halted vCPU takes tens of microseconds to a millisecond to wake) and the helpers' half of the data
#: sits in the caller's core's caches; after shared ones the caller's caches miss the helpers' half. One such
#: message measures the switch, not the way (measured on a 2-vCPU VM at 1 MiB: a shared message explored among
#: one-thread ones took 22-110 us, shared messages in a stream 17.5 us, one thread 23 us). Likewise a natively
#: shared message whose helpers did less than :data:`LATE_SHARE` of their fair part (``1 / threads``) had them
#: join late: left out once, the next message shares again (a second late one counts: their core is taken).
LATE_SHARE = 0.5
#: ``(kernel, size class) -> [one thread's s/B, shared s/B, calls until the other way runs, that wait,
#: the choice, the way the next message repeats (None: as chosen), the way the last message ran]`` (size class:
#: the message length's bit length, a factor of two; each figure a deque of the last :data:`SAMPLES` timings;
#: the choice made again at each counted call of the other way), timed from the messages themselves: no extra
#: work is run.
_SPEED: dict = {}


def _size_class(kernel, n_bytes: int) -> tuple:
    return kernel, int(n_bytes).bit_length()


def _median(figures) -> float:
    return sorted(figures)[len(figures) // 2]


def _choice(speed) -> "bool | None":
    """The faster way of a size class's figures (True: shared), None while a way has fewer than SAMPLES."""
    one, shared = speed[0], speed[1]
    if len(one) < SAMPLES or len(shared) < SAMPLES:
        return None
    return _median(one) >= SHARE_GAIN * _median(shared)


def shares(kernel, n_bytes: int) -> bool:
    """Whether ``kernel`` runs a message of ``n_bytes`` on more than one thread: the first messages of its
    size class alternate, one thread first, until each way has :data:`SAMPLES` timings; from then on the
    faster of the two measured figures decides (sharing only where it is :data:`SHARE_GAIN` times faster),
    except a call now and then (:data:`EXPLORE_EVERY`) that runs the other way to keep its figure current. The
    first message after a switch of way warms that way up and the next one runs it again (:func:`_record`)."""
    return _way(_SPEED.get(_size_class(kernel, n_bytes)))


def _way(speed) -> bool:
    """:func:`shares` on a size class's figures (None: none yet)."""
    if speed is None:
        return False
    if speed[5] is not None:    # the last message warmed this way up (a switch, or late helpers): again
        return speed[5]
    choice = speed[4]
    if choice is None:
        return len(speed[1]) < len(speed[0])
    return choice if speed[2] > 0 else not choice


def _explores_next(speed) -> bool:
    """Whether the size class's next call (its figures ``speed``) is the one that runs sharing again while one
    thread is chosen (see :func:`shares`): the helpers are woken one call ahead, so that call is timed as a
    stream of shared calls runs, not with a helper thread's and an idle vCPU's wake-up in it."""
    return speed is not None and speed[4] is False and speed[2] == 1


def _record(kernel, n_bytes: int, shared: bool, seconds: float, late: bool = False) -> None:
    """Add one timed message to its size class's figures (see :func:`shares`): the first message after a switch
    of way, or a shared one whose helpers joined ``late`` (:data:`LATE_SHARE`), is left out once and the next
    message runs the same way and counts."""
    key = _size_class(kernel, n_bytes)
    _count(key, _SPEED.get(key), n_bytes, shared, seconds, late)


def _count(key: tuple, speed, n_bytes: int, shared: bool, seconds: float, late: bool) -> None:
    """:func:`_record` on size class ``key`` and its figures ``speed`` (None: its first message)."""
    if speed is None:
        speed = _SPEED[key] = [deque(maxlen=SAMPLES), deque(maxlen=SAMPLES), EXPLORE_EVERY, EXPLORE_EVERY, None,
                               None, None]
    switched = speed[6] is not None and speed[6] != shared
    speed[6] = shared
    if (switched or (shared and late)) and speed[5] is None:
        speed[5] = shared   # shares() repeats this way for the next message, which counts
        return
    speed[5] = None
    speed[shared].append(seconds / max(n_bytes, 1))
    before = speed[4]
    if before is None:  # still alternating
        speed[4] = _choice(speed)
    elif speed[2] > 0 or shared == before:  # the chosen way
        speed[2] -= 1
    else:  # the other way's call: choose again
        speed[4] = _choice(speed)
        speed[3] = min(EXPLORE_MAX, 2 * speed[3]) if speed[4] == before else EXPLORE_EVERY
        speed[2] = speed[3]


#: Where :func:`trace` collects each long message's record while it is on (None: off, the usual case).
_TRACE: list = [None]


class Call(NamedTuple):
    """One long message as :func:`_ranges` ran it (see :func:`trace`)."""
    kernel: str
    n_bytes: int
    shared: bool     # run by the threads sharing it (False: one thread)
    seconds: float
    faults: int      # minor page faults the process took during it (fresh output pages: > 0)
    helped: float = float("nan")  # shared natively: the fraction of its blocks the helper threads did


@contextmanager
def trace():
    """Collect a :class:`Call` for each message :func:`_ranges` times (one thread or shared) while the
    block runs: which way each call took, its time and the page faults taken meanwhile (a fresh output
    array faults its pages in; a reused one takes none). A debugging aid, off in the hot path otherwise::

        with trace() as calls:
            c.encrypt(data)
        calls[0].shared
    """
    calls: list = []
    previous, _TRACE[0] = _TRACE[0], calls
    try:
        yield calls
    finally:
        _TRACE[0] = previous


def _faults() -> int:
    return resource.getrusage(_RUSAGE).ru_minflt


_RUSAGE = resource.RUSAGE_SELF  # the helper threads' faults too


def run_team(kernel, team: tuple, args: tuple, n_bytes: int, threads: int) -> None:
    """Run a VAES entry point ``kernel`` over a whole message, ``args`` its arguments for all of it, on ``threads``
    threads: posted natively to its ``team`` (:func:`team_share`) or on this thread, as :func:`_ranges` does, but
    with no closure to make or call: the path a long message takes from
    :meth:`cipherlab.ciphers.modes.Cipher.encrypt` and ``decrypt`` (the Python between a call and its kernel is
    what two threads lose against one on every message)."""
    if threads == 1 or n_bytes < PARALLEL_MIN_BYTES:
        kernel(*args)
        return
    _timed(kernel, n_bytes, threads, args, None, 0, team)


def _ranges(kernel, n_bytes: int, threads: int, args_for, group: int = 4, team: "tuple | None" = None) -> None:
    """Run ``kernel(*args_for(start, stop))`` over the message's blocks on ``threads`` threads, this one
    included: a VAES entry point's ``team`` natively (:func:`team_share`), any other kernel through
    :class:`_Shared`; the kernels release the GIL (``nogil``), so the pieces run in parallel.
    Each piece but the last is a whole number of the kernel's groups of ``group`` blocks in flight.
    ``threads == 1`` and small inputs run serially here; a longer message runs on one thread or shared as
    :func:`shares` decides from this size class's measured times, and is timed for it (two clock reads).
    The output is the same bytes either way: every block's result depends on its index only.
    """
    args = args_for(0, (n_bytes + 15) // 16)
    if threads == 1 or n_bytes < PARALLEL_MIN_BYTES:
        kernel(*args)
        return
    _timed(kernel, n_bytes, threads, args, args_for, group, team)


def _timed(kernel, n_bytes: int, threads: int, args: tuple, args_for, group: int, team: "tuple | None") -> None:
    """One long message (``args``: the kernel's arguments for all of it) on one thread or shared, as
    :func:`shares` decides, timed and recorded for that choice (:func:`_record`) and for :func:`trace`."""
    key = _size_class(kernel, n_bytes)
    speed = _SPEED.get(key)
    both = _way(speed)
    helpers = _helpers(min(threads, max_threads()) - 1)  # made (once) outside the timing
    if not both and _explores_next(speed):
        for helper in helpers:  # awake when the next call tries sharing, as in a stream of shared calls
            helper.wake()
    calls = _TRACE[0]
    if calls is not None:
        faults = _faults()
    helped = float("nan")
    t0 = time.perf_counter()
    if both and team is not None:
        helped = team_share(team, args, (n_bytes + 15) // 16, threads, helpers)
        if helped is None:  # another user thread's message holds the box: this one runs alone
            kernel(*args)
            both = False
    elif both:
        share(kernel, n_bytes, threads, args_for, group)
    else:
        kernel(*args)
    seconds = time.perf_counter() - t0
    if helped is not None:  # a message run alone because another thread's held the box measures neither way
        _count(key, speed, n_bytes, both, seconds, helped < LATE_SHARE / (len(helpers) + 1))   # NaN: never late
    if calls is not None:
        calls.append(Call(getattr(kernel, "__name__", repr(kernel)), n_bytes, both, seconds, _faults() - faults,
                          helped))


def share(kernel, n_bytes: int, threads: int, args_for, group: int = 4) -> None:
    """Run ``kernel(*args_for(start, stop))`` over the message's blocks on ``threads`` threads sharing
    its pieces (:class:`_Shared`), whatever its length. :func:`_ranges` decides when to; the sweep's
    plain-copy ceiling calls it."""
    job = _Shared(kernel, args_for, (n_bytes + 15) // 16, threads, group)
    for helper in _helpers(min(threads, max_threads()) - 1):
        helper.give(job)
    job.work()
    if job.left and job.error is None:
        job.done.wait()
    if job.error is not None:
        raise job.error


class _Call:
    """A call handed to a helper thread (:func:`beside`), its error kept for the caller."""
    __slots__ = ("fn", "done", "error")

    def __init__(self, fn):
        self.fn, self.done, self.error = fn, threading.Event(), None

    def work(self) -> None:
        try:
            self.fn()
        except BaseException as exc:  # noqa: BLE001 - raised on the caller's thread
            self.error = exc
        finally:
            self.done.set()


def beside(here, there) -> None:
    """Run ``there()`` on a helper thread while ``here()`` runs on this one (two independent streams of
    work: the sweep's two user threads); returns when both are done, raising the helper's error here."""
    call = _Call(there)
    _helpers(1)[0].give(call)
    try:
        here()
    finally:
        call.done.wait()
    if call.error is not None:
        raise call.error
