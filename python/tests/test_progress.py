"""Progress callbacks and cancelling (gcut_solve_options.progress, since 0.3).
Skipped when the library never calls the callback (a libgcut that declares
it but does not poll yet)."""

import numpy as np
import pytest

import gcut


def big_grid(seed=5, shape=(700, 700)):
    rng = np.random.default_rng(seed)
    p = gcut.GridProblem(shape)
    p.set_unary(rng.integers(0, 100, shape), rng.integers(0, 100, shape))
    p.set_pairwise(rng.integers(20, 60, shape))
    p.set_warm_start(False)
    return p


def calls_made():
    p = big_grid()
    seen = []
    p.solve(backend="cpu-bk", progress=lambda d: seen.append(d) and False)
    return p, seen


def test_progress_called_and_cancel():
    p, seen = calls_made()
    if not seen:
        pytest.skip("this libgcut does not call progress callbacks")
    flow = p.flow
    d = seen[0]
    assert set(d) >= {"operation", "phase", "fraction", "elapsed_ms", "remaining"}
    assert d["operation"] and d["phase"]
    # a true return value cancels: gcut.InterruptedError, the grid stays usable
    with pytest.raises(gcut.InterruptedError, match="progress"):
        p.solve(backend="cpu-bk", progress=lambda d: True)
    p.solve(backend="cpu-bk")
    assert p.flow == flow


def test_exception_in_callback_is_raised():
    p, seen = calls_made()
    if not seen:
        pytest.skip("this libgcut does not call progress callbacks")

    class Stop(Exception):
        pass

    def cb(d):
        raise Stop("from the callback")

    with pytest.raises(Stop, match="from the callback"):
        p.solve(backend="cpu-bk", progress=cb)
    with pytest.raises(Stop):
        rng = np.random.default_rng(0)
        n, m = 200000, 800000
        gcut.maxflow(n, rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(0, 9, m),
                     None, rng.integers(0, 9, n), rng.integers(0, 9, n), progress=cb)


def test_progress_argument_checked():
    with pytest.raises(TypeError, match="progress"):
        gcut.grid_cut(np.zeros((2, 2), int), np.zeros((2, 2), int), 1, progress=3)


def test_signal_handler_interrupts_a_solve_in_the_main_thread():
    # Ctrl-C (SIGINT) reaches a long solve through the same poll; SIGUSR1 with
    # a handler that raises stands in for it, so a late signal cannot stop pytest.
    import os
    import signal
    import threading
    import time

    p, seen = calls_made()
    if not seen:
        pytest.skip("this libgcut does not call progress callbacks")

    class Interrupted(Exception):
        pass

    def handler(signum, frame):
        raise Interrupted()

    q = big_grid(7, (1200, 1200))
    t0 = time.perf_counter()
    q.solve(backend="cpu-bk")
    full = time.perf_counter() - t0
    if full < 0.4:
        pytest.skip(f"a solve of {full:.2f} s is too short to tell")
    old = signal.signal(signal.SIGUSR1, handler)
    try:
        timer = threading.Timer(0.05, lambda: os.kill(os.getpid(), signal.SIGUSR1))
        timer.start()
        t0 = time.perf_counter()
        with pytest.raises(Interrupted):
            try:
                q._grid.solve("cpu-bk", 0.0, 0, None, True, 20.0)  # signals, 20 ms polls
            finally:
                elapsed = time.perf_counter() - t0
            time.sleep(5)  # the solve ended before the signal: it lands here
        timer.join()
    finally:
        signal.signal(signal.SIGUSR1, old)
    assert elapsed < 0.5 * full, (elapsed, full)  # stopped inside the solve
    q.solve(backend="cpu-bk")  # usable again
    assert q.flow > 0
