"""Fork safety of the threaded kernels: cipherlab selects Numba's ``workqueue`` threading layer
(``cipherlab.ciphers._numba``), so ``fork()`` and a fork-based ``multiprocessing.Pool`` work after a
threaded kernel ran, and parallel kernels may be called from several Python threads at once.

Each scenario runs in a fresh interpreter with a timeout: under GNU OpenMP the forked child is
killed ("fork() called from a process already using GNU OpenMP") and the pool hangs; under an
unguarded workqueue, concurrent calls abort the process.  Neither may take the suite down.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""\
    import multiprocessing as mp, os, sys, threading, warnings
    import numba
    import cipherlab
    from cipherlab.ciphers import _numba
    DATA = bytes(range(256)) * 4096           # 1 MiB: the parallel kernels run
    KEY, IV = bytes(16), bytes(16)

    def enc(data=DATA, threads=None):
        return cipherlab.new(KEY, mode="ctr", iv=IV, impl="table", threads=threads).encrypt(data)

    def work(i):
        return enc(DATA[: 4096 * (i + 2)])

    expected = enc(threads=_numba.max_threads())
    print("layer", numba.threading_layer(), flush=True)
    assert numba.threading_layer() == "workqueue", numba.threading_layer()

    pid = os.fork()
    if pid == 0:
        os._exit(0 if enc() == expected else 3)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, f"forked child: {status}"
    print("fork ok", flush=True)

    with mp.get_context("fork").Pool(2) as pool:
        got = pool.map(work, range(6))
    assert got == [work(i) for i in range(6)]
    print("pool ok", flush=True)

    errors = []
    def hammer():
        try:
            for _ in range(10):
                assert enc() == expected
        except BaseException as exc:
            errors.append(exc)
    threads = [threading.Thread(target=hammer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    print("threads ok", flush=True)
""")


def _run(env_extra=None):
    env = dict(os.environ)
    env.pop("NUMBA_THREADING_LAYER", None)
    env.update(env_extra or {})
    env.setdefault("NUMBA_NUM_THREADS", "2")
    return subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_fork_pool_and_threads_after_a_threaded_kernel():
    try:
        proc = _run()
    except subprocess.TimeoutExpired:
        pytest.fail("fork/Pool/threads scenario hung (the threading layer is not fork-safe)")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    for step in ("layer workqueue", "fork ok", "pool ok", "threads ok"):
        assert step in proc.stdout, out[-3000:]


def test_the_layer_is_set_once_in_numba_module():
    import numba

    from cipherlab.ciphers import _numba
    assert _numba.THREADING_LAYER == "workqueue"
    if not os.environ.get("NUMBA_THREADING_LAYER"):
        assert numba.config.THREADING_LAYER == "workqueue"


def test_a_user_choice_of_layer_is_respected():
    """NUMBA_THREADING_LAYER set by the user wins (they then own the fork-safety question)."""
    code = "import numba, cipherlab; print(numba.config.THREADING_LAYER)"
    env = dict(os.environ, NUMBA_THREADING_LAYER="omp")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert proc.stdout.strip() == "omp", proc.stderr


# Every style, forked after it ran its threaded path: the hardware style keeps a thread pool per
# process (``_aesni._helpers``), which a forked child inherits without their threads; the child
# must make its own instead of waiting forever on the inherited one.
STYLES_SCRIPT = textwrap.dedent("""\
    import multiprocessing as mp, os, signal, sys
    import cipherlab
    from cipherlab.ciphers.modes import available_impls
    DATA = bytes(range(256)) * 4096           # 1 MiB: the threaded ranges run
    KEY, IV = bytes(16), bytes(16)

    def enc(impl, mode="ctr"):
        return cipherlab.new(KEY, mode=mode, iv=None if mode == "ecb" else IV, impl=impl).encrypt(DATA)

    def work(args):
        return enc(*args)

    styles = [s for s in ("reference", "table", "aesni") if s in available_impls()] + ["auto"]
    for impl in styles:
        for mode in ("ctr", "ecb"):
            expected = enc(impl, mode)
            pid = os.fork()
            if pid == 0:
                signal.alarm(60)               # a hung child dies instead of hanging the test
                os._exit(0 if enc(impl, mode) == expected else 3)
            _, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
            assert code == 0, f"forked child after impl={impl} {mode}: exit {code}"
        with mp.get_context("fork").Pool(2) as pool:
            got = pool.map_async(work, [(impl, "ctr"), (impl, "ecb")]).get(timeout=60)
        assert got == [enc(impl, "ctr"), enc(impl, "ecb")], impl
        print("ok", impl, flush=True)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_fork_and_fork_pool_after_each_style():
    env = dict(os.environ, NUMBA_NUM_THREADS="2")
    env.pop("NUMBA_THREADING_LAYER", None)
    try:
        proc = subprocess.run([sys.executable, "-c", STYLES_SCRIPT], capture_output=True, text=True, timeout=400,
                              env=env)
    except subprocess.TimeoutExpired:
        pytest.fail("a forked child or a fork-context Pool hung after a threaded kernel ran")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "ok auto" in proc.stdout and "ok table" in proc.stdout, out[-3000:]


# A child forked while another thread is inside a parallel kernel inherits the serialising lock
# held (by a thread that does not exist in the child): it must get a fresh lock, not deadlock.
LOCK_SCRIPT = textwrap.dedent("""\
    import os, signal, threading
    import cipherlab
    from cipherlab.ciphers import _numba
    DATA = bytes(range(256)) * 4096
    enc = lambda: cipherlab.new(bytes(16), mode="ctr", iv=bytes(16), impl="table").encrypt(DATA)
    expected = enc()
    held, release = threading.Event(), threading.Event()
    def hold():
        with _numba._PARALLEL_LOCK:
            held.set()
            release.wait()
    t = threading.Thread(target=hold)
    t.start()
    held.wait()
    pid = os.fork()
    if pid == 0:
        signal.alarm(60)
        os._exit(0 if enc() == expected else 3)
    release.set()
    t.join()
    _, status = os.waitpid(pid, 0)
    print("child", os.waitstatus_to_exitcode(status), flush=True)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_a_child_forked_while_the_parallel_lock_is_held_does_not_deadlock():
    env = dict(os.environ, NUMBA_NUM_THREADS="2")
    env.pop("NUMBA_THREADING_LAYER", None)
    proc = subprocess.run([sys.executable, "-c", LOCK_SCRIPT], capture_output=True, text=True, timeout=200, env=env)
    assert "child 0" in proc.stdout, (proc.stdout + proc.stderr)[-3000:]
