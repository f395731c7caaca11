"""The machine lock keeps a timing job alone: shared for every job, exclusive for timing."""
import threading
import time

import pytest

from cipherlab.pipeline.machine_lock import lock_path, machine_lock


def _hold(path, exclusive, events, name, hold_s=0.0):
    with machine_lock(exclusive, path=path, announce=lambda msg: None):
        events.append((name, "in", time.monotonic()))
        time.sleep(hold_s)
        events.append((name, "out", time.monotonic()))   # said while still held: a waiter cannot come in first


def test_shared_holders_run_together(tmp_path):
    path, events = tmp_path / "m.lock", []
    with machine_lock(False, path=path, announce=lambda m: None) as waited:
        t = threading.Thread(target=_hold, args=(path, False, events, "other"))
        t.start()
        t.join(5)
        assert not t.is_alive() and waited < 1
    assert [e[:2] for e in events] == [("other", "in"), ("other", "out")]


def test_a_timing_job_waits_for_running_jobs_and_blocks_new_ones(tmp_path):
    path, events, said = tmp_path / "m.lock", [], []
    with machine_lock(False, path=path, announce=said.append):
        timing = threading.Thread(target=_hold, args=(path, True, events, "timing", 0.3))
        timing.start()
        time.sleep(0.3)
        assert events == []                                 # still waiting for the shared holder
    timing.join(5)
    # the timing job ran once the shared holder left; a job starting during it waited
    assert events[0][:2] == ("timing", "in")


def test_a_job_starting_during_timing_waits(tmp_path):
    path, events = tmp_path / "m.lock", []
    timing = threading.Thread(target=_hold, args=(path, True, events, "timing", 0.4))
    timing.start()
    time.sleep(0.1)
    _hold(path, False, events, "chapter")
    timing.join(5)
    order = [e[:2] for e in events]
    assert order.index(("timing", "out")) < order.index(("chapter", "in"))


def test_bad_argument_and_default_path(monkeypatch, tmp_path):
    with pytest.raises(ValueError, match="exclusive must be True or False"):
        with machine_lock("yes"):
            pass
    monkeypatch.setenv("CIPHERLAB_MACHINE_LOCK", str(tmp_path / "x.lock"))
    assert lock_path() == tmp_path / "x.lock"


def test_the_test_suites_timing_jobs_share_the_machine_and_say_so(tmp_path, monkeypatch):
    """``CIPHERLAB_TIMING_SHARES_MACHINE=1`` (the test suite's trees): a timing job holds the lock shared, so it
    runs beside a shared holder, and its log says that its timings are not measured alone."""
    path, events, said = tmp_path / "m.lock", [], []
    monkeypatch.setenv("CIPHERLAB_TIMING_SHARES_MACHINE", "1")
    with machine_lock(False, path=path, announce=lambda m: None):
        t = threading.Thread(target=lambda: _hold_saying(path, events, said))
        t.start()
        t.join(5)
        assert not t.is_alive()          # it did not wait for the shared holder
    assert [e[:2] for e in events] == [("timing", "in"), ("timing", "out")]
    assert any("not measured alone" in m for m in said)
    # a user's run keeps its timing jobs alone: 0, or no variable at all
    monkeypatch.setenv("CIPHERLAB_TIMING_SHARES_MACHINE", "0")
    test_a_timing_job_waits_for_running_jobs_and_blocks_new_ones(tmp_path)


def _hold_saying(path, events, said):
    with machine_lock(True, path=path, announce=said.append):
        events.append(("timing", "in", time.monotonic()))
        events.append(("timing", "out", time.monotonic()))


def test_a_bad_sharing_value_is_refused_in_one_line(monkeypatch):
    monkeypatch.setenv("CIPHERLAB_TIMING_SHARES_MACHINE", "yes")
    with pytest.raises(ValueError, match="CIPHERLAB_TIMING_SHARES_MACHINE must be 0 or 1, got 'yes'"):
        with machine_lock(True, path="/dev/null"):
            pass
