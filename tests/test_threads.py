"""Threads sharing a message (cipherlab.ciphers._threads): the pieces, the learned choice of one thread or
sharing, the helper threads' bounded wait, the trace. Logic only, on synthetic kernels and timings."""
from __future__ import annotations

import time

import numpy as np
import pytest

from cipherlab.ciphers import _threads as T


def test_shared_pieces_cover_every_block_once_and_a_helpers_error_reaches_the_caller(monkeypatch):
    """The guided pieces of a shared message cover each block exactly once, on two threads, in whole
    groups but the last; an exception in any piece is raised on the caller's thread."""
    monkeypatch.setattr(T, "_way", lambda speed: True)
    n_blocks = 100_003
    seen = np.zeros(n_blocks, np.int64)
    pieces = []

    def kernel(start, stop):
        seen[start:stop] += 1
        pieces.append((start, stop))

    T._ranges(kernel, 16 * n_blocks, 2, lambda a, b: (a, b), group=8)
    assert (seen == 1).all()
    assert all(a % 8 == 0 for a, _ in pieces) and len(pieces) > 2

    def failing(start, stop):
        if start:
            raise RuntimeError("piece failed")

    with pytest.raises(RuntimeError, match="piece failed"):
        T._ranges(failing, 16 * n_blocks, 2, lambda a, b: (a, b))


def test_threads_share_a_size_class_only_where_sharing_was_measured_faster(monkeypatch):
    """A size class's first long messages alternate, one thread first, until each way has SAMPLES timings (each
    switch of way warms it up with one message left out, so the ways run in pairs); then the faster measured way
    runs (sharing only SHARE_GAIN times faster), every EXPLORE_EVERY-th call the other. Either way covers each
    block exactly once."""
    monkeypatch.setattr(T, "_SPEED", {})
    n = 1 << 20
    pieces = []

    def kernel(start, stop):
        pieces.append((start, stop))

    ways = []
    for _ in range(4 * T.SAMPLES - 1):
        ways.append(T.shares(kernel, n))
        T._ranges(kernel, n, 2, lambda a, b: (a, b))
        seen = np.zeros(n // 16, np.int64)
        for a, b in pieces:
            seen[a:b] += 1
        assert (seen == 1).all() and (len(pieces) > 1) == ways[-1]
        pieces.clear()
    assert ways == [False] + [True, True, False, False] * (T.SAMPLES - 1) + [True, True]
    key = T._size_class(kernel, n)
    one, shared, wait, _, _, _, _ = T._SPEED[key]
    assert len(one) == len(shared) == T.SAMPLES and wait == T.EXPLORE_EVERY and min(one) > 0 and min(shared) > 0
    # synthetic figures: which way each call takes
    T._SPEED[key] = [[1.0, 9.0, 1.0], [1.0 / T.SHARE_GAIN] * T.SAMPLES, 5, 16, True, None, True]  # medians: one disturbed call ignored
    assert T.shares(kernel, n) and not T.shares(kernel, 2 * n)  # another size class starts on one thread
    speed = [[1.0] * T.SAMPLES, [1.01 / T.SHARE_GAIN] * T.SAMPLES, 5, 16, None]  # not faster enough
    T._SPEED[key] = speed[:4] + [T._choice(speed), None, False]
    assert not T.shares(kernel, n)
    T._SPEED[key][2] = 0  # the wait is over: the other way runs once
    assert T.shares(kernel, n)


def _way(n, shared, seconds, late=False):
    """One message of size class ``n`` run ``shared`` (or not) as the learned choice would count it: a switch of
    way first warms it up (a message left out, 99 s), then the counted one."""
    speed = T._SPEED.get(T._size_class(len, n))
    if speed is not None and speed[6] is not None and speed[6] != shared:
        T._record(len, n, shared, 99.0)
    T._record(len, n, shared, seconds, late=late)


def _two_ways(n, one, shared):
    for _ in range(T.SAMPLES):  # the alternation: each way SAMPLES counted messages
        _way(n, False, one)
        _way(n, True, shared)


def test_a_call_of_the_other_way_that_confirms_the_choice_doubles_the_wait_for_the_next(monkeypatch):
    """One thread chosen: each chosen call counts the wait down; the shared call at its end (after its warm-up,
    left out), slower again, doubles the wait (up to EXPLORE_MAX); one that turns out faster changes the choice
    and resets the wait."""
    monkeypatch.setattr(T, "_SPEED", {})
    n = 1 << 20
    _two_ways(n, 1.0, 2.0)  # one thread: 1 s per message, shared: 2 s
    key = T._size_class(len, n)
    for wait in (T.EXPLORE_EVERY, 2 * T.EXPLORE_EVERY, 4 * T.EXPLORE_EVERY):
        assert T._SPEED[key][2:4] == [wait, wait]
        while T._SPEED[key][2] > 0:
            assert not T.shares(len, n)
            _way(n, False, 1.0)
        assert T.shares(len, n)
        T._record(len, n, True, 9.0)            # the switch's warm-up: left out, shared again
        assert T.shares(len, n) and T._SPEED[key][2] == 0 and list(T._SPEED[key][1]) == [2.0 / n] * T.SAMPLES
        T._record(len, n, True, 2.0)
        assert not T.shares(len, n)
        T._record(len, n, False, 9.0)           # back to one thread: its warm-up left out too
        assert list(T._SPEED[key][0]) == [1.0 / n] * T.SAMPLES and not T.shares(len, n)
    _way(n, False, 1.0)     # the warmed-up way's counted message
    T._SPEED[key][3] = T.EXPLORE_MAX
    T._SPEED[key][2] = 0
    _way(n, True, 2.0)
    assert T._SPEED[key][2:4] == [T.EXPLORE_MAX, T.EXPLORE_MAX]
    for _ in range(2):  # sharing got faster (the other core freed): the second such call turns the median
        T._SPEED[key][2] = 0
        _way(n, False, 1.0)
        T._SPEED[key][2] = 0
        _way(n, True, 0.5)
    assert T.shares(len, n) and T._SPEED[key][2:4] == [T.EXPLORE_EVERY, T.EXPLORE_EVERY]


def test_a_shared_message_whose_helpers_joined_late_is_shared_again_and_the_second_counts(monkeypatch):
    """A shared message the helpers joined late (asleep on a halted vCPU: their share under LATE_SHARE of their fair
    part) is the wake-up's time, not sharing's; it is left out and the next message shares again, its helpers
    awake. A second late one counts (their core is taken: sharing is slow there)."""
    monkeypatch.setattr(T, "_SPEED", {})
    n = 1 << 20
    _two_ways(n, 1.0, 2.0)
    key = T._size_class(len, n)
    assert T._SPEED[key][6] is True and list(T._SPEED[key][1]) == [2.0 / n] * T.SAMPLES
    T._record(len, n, True, 9.0, late=True)    # helpers woken too late: left out, share again
    assert T.shares(len, n) and T._SPEED[key][5] is True and list(T._SPEED[key][1]) == [2.0 / n] * T.SAMPLES
    T._record(len, n, True, 0.5)               # awake: counted
    assert list(T._SPEED[key][1])[-1] == 0.5 / n and T._SPEED[key][5] is None
    T._record(len, n, True, 7.0, late=True)    # late, left out once ...
    T._record(len, n, True, 8.0, late=True)    # ... and the second late one counts
    assert list(T._SPEED[key][1])[-1] == 8.0 / n
    T._record(len, n, False, 1.0)              # a switch: left out once
    T._record(len, n, False, 3.0, late=True)   # one thread is never late
    assert list(T._SPEED[key][0])[-1] == 3.0 / n


def test_a_late_helper_is_read_from_the_share_it_did(monkeypatch):
    """_ranges takes a natively shared message as late when the helpers did under LATE_SHARE of their fair part;
    a message run alone because the box was busy is not recorded at all."""
    seen = []
    monkeypatch.setattr(T, "_count", lambda key, speed, n, shared, seconds, late: seen.append((shared, late)))
    monkeypatch.setattr(T, "_way", lambda speed: True)
    monkeypatch.setattr(T, "max_threads", lambda: 2)
    n = 1 << 20
    for helped, late in ((0.05, True), (0.24, True), (0.26, False), (0.5, False)):
        monkeypatch.setattr(T, "team_share", lambda team, args, nb, threads, helpers, h=helped: h)
        T._ranges(lambda a, b: None, n, 2, lambda a, b: (a, b), team=("kind", None, None))
        assert seen[-1] == (True, late), helped
    monkeypatch.setattr(T, "team_share", lambda team, args, nb, threads, helpers: None)   # the box was busy: run alone
    n_seen = len(seen)
    T._ranges(lambda a, b: None, n, 2, lambda a, b: (a, b), team=("kind", None, None))
    assert len(seen) == n_seen      # run alone while another thread's message held the box: measures neither way


def test_a_timed_call_keeps_the_last_samples_of_its_way(monkeypatch):
    monkeypatch.setattr(T, "_SPEED", {})
    for seconds in (1.0, 3.0, 2.0, 5.0):
        T._record(len, 100, False, seconds)
    T._record(len, 100, True, 0.5)   # a switch of way: its first message warms it up, left out
    T._record(len, 100, True, 0.5)
    one, shared, *_ = T._SPEED[T._size_class(len, 100)]
    assert list(one) == pytest.approx([0.03, 0.02, 0.05][-T.SAMPLES:]) and list(shared) == [0.005]


def test_the_helpers_spin_is_bounded_by_a_measured_count_of_reads():
    """The helpers' wait (``_team.spin``, tested in ``test_team``) is bounded by a count of reads measured once
    per process; the wait returns 0 (nothing posted) when they have passed, and every helper uses that count."""
    reads = T.spin_reads()
    assert isinstance(reads, int) and reads >= 1 and reads == T.spin_reads()
    assert T._team.spin(T._team.new_box(), 0, 0, reads) == 0
    assert all(helper.reads == reads for helper in T._helpers(1))


def test_a_helper_runs_jobs_given_awake_or_asleep_and_a_trace_counts_each_way(monkeypatch):
    """Jobs handed to a helper run whether it was still spinning or had gone to sleep; every block is
    covered once; a trace records each long message's way and time."""
    monkeypatch.setattr(T, "_SPEED", {})
    n_blocks = 50_000
    seen = np.zeros(n_blocks, np.int64)

    def kernel(start, stop):
        seen[start:stop] += 1

    with T.trace() as calls:
        for pause in (0.0, 0.05, 0.0, 0.05, 0.0, 0.05, 0.0):  # 50 ms: past the spin, the helper sleeps
            time.sleep(pause)
            T.share(kernel, 16 * n_blocks, 2, lambda a, b: (a, b), group=8)
        for _ in range(2 * T.SAMPLES):
            T._ranges(kernel, 16 * n_blocks, 2, lambda a, b: (a, b), group=8)
    assert (seen == 7 + 2 * T.SAMPLES).all()
    # the first messages alternate, each switch of way warmed up by one message left out: the ways run in pairs
    assert [c.shared for c in calls] == ([False] + [True, True, False, False] * T.SAMPLES)[:2 * T.SAMPLES]
    assert all(c.n_bytes == 16 * n_blocks and c.seconds > 0 and c.kernel == "kernel" for c in calls)
    helper = T._helpers(1)[0]
    assert helper.sleeps >= 1 and helper.thread.is_alive()


def test_jobs_handed_to_a_helper_at_once_all_run_and_beside_raises_the_helpers_error():
    """Jobs handed to the helper before it takes them queue (none is lost: a call beside another user
    thread's shared message still runs); ``beside`` runs both calls and raises the helper's error here."""
    helper = T._helpers(1)[0]
    ran = []
    calls = [T._Call(lambda i=i: ran.append(i)) for i in range(5)]
    for call in calls:
        helper.give(call)
    for call in calls:
        assert call.done.wait(10)
    assert sorted(ran) == list(range(5))
    here = []
    T.beside(lambda: here.append("here"), lambda: here.append("there"))
    assert sorted(here) == ["here", "there"]

    def fail():
        raise KeyError("there")

    with pytest.raises(KeyError, match="there"):
        T.beside(lambda: None, fail)


def test_run_team_runs_a_short_message_in_one_call_and_a_long_one_the_way_chosen(monkeypatch):
    """The one-call path from ``encrypt``: under PARALLEL_MIN_BYTES (or on one thread) the kernel runs once with
    the message's arguments; a long message goes to the team natively when sharing is chosen, else to the
    kernel on this thread, and either way is recorded for its size class."""
    monkeypatch.setattr(T, "_SPEED", {})
    monkeypatch.setattr(T, "max_threads", lambda: 2)
    calls, posted = [], []

    def kernel(*args):
        calls.append(args)

    team = ("kind", None, None)
    T.run_team(kernel, team, (1, 2), T.PARALLEL_MIN_BYTES - 16, 2)
    T.run_team(kernel, team, (3, 4), 1 << 20, 1)
    assert calls == [(1, 2), (3, 4)] and not T._SPEED
    monkeypatch.setattr(T, "team_share", lambda team, args, nb, threads, helpers: posted.append((args, nb)) or 0.5)
    monkeypatch.setattr(T, "_way", lambda speed: True)
    T.run_team(kernel, team, (5, 6), 1 << 20, 2)
    assert posted == [((5, 6), (1 << 20) // 16)] and len(calls) == 2
    monkeypatch.setattr(T, "_way", lambda speed: False)
    T.run_team(kernel, team, (7, 8), 1 << 20, 2)
    assert calls[-1] == (7, 8) and len(posted) == 1
    assert T._SPEED[T._size_class(kernel, 1 << 20)][6] is False   # the last message's way, recorded
