"""Threads: solves release the GIL, so several Python threads solve at once.

Robust on a loaded 2-core machine: no speed is asserted. While a worker
thread is inside its solve, the main thread keeps running Python code;
with the GIL held during the solve it could not run in that time at all."""

import threading
import time

import numpy as np

import gcut


def make_problem(seed, shape=(500, 500)):
    rng = np.random.default_rng(seed)
    fg = rng.integers(0, 100, shape).astype(np.int32)
    bg = rng.integers(0, 100, shape).astype(np.int32)
    p = gcut.GridProblem(shape)
    p.set_unary(fg, bg)
    p.set_pairwise(rng.integers(20, 60, shape))
    return p


def test_main_thread_runs_during_a_solve():
    # One worker solves a big grid; the main thread ticks meanwhile. With the
    # GIL held during the solve, no tick could fall in the middle half of the
    # worker's solve (with one worker, nothing else can hold the GIL then).
    p = make_problem(11, (800, 800))
    p.set_warm_start(False)
    interval = []
    done = threading.Event()

    def worker():
        a = time.perf_counter()
        p.solve()
        interval.extend((a, time.perf_counter()))
        done.set()

    t = threading.Thread(target=worker)
    ticks = []
    t.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.0002)
    t.join()
    a, b = interval
    middle = [x for x in ticks if a + 0.25 * (b - a) < x < a + 0.75 * (b - a)]
    assert middle, (len(ticks), b - a)


def test_solves_overlap_and_give_the_serial_answers():
    problems = [make_problem(s) for s in range(4)]
    expected = [p.solve().copy() for p in problems]
    flows = [p.flow for p in problems]
    for p in problems:
        p.set_warm_start(False)  # the threaded solves are cold, as long as the serial ones
    intervals = [None] * 4
    masks = [None] * 4
    errors = []
    start = threading.Barrier(4)

    def worker(i):
        try:
            start.wait()
            a = time.perf_counter()
            masks[i] = problems[i].solve()
            intervals[i] = (a, time.perf_counter())
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i, p in enumerate(problems):
        assert masks[i].tolist() == expected[i].tolist()
        assert p.flow == flows[i]
        assert p.result.stats["warm_start"] is False
    overlaps = sum(1 for i in range(4) for j in range(i + 1, 4)
                   if intervals[i][0] < intervals[j][1] and intervals[j][0] < intervals[i][1])
    assert overlaps >= 1


def test_one_object_from_two_threads_is_refused_not_raced():
    p = make_problem(7, (700, 700))
    started = threading.Event()
    refused = []

    def solver():
        started.set()
        p.solve()

    t = threading.Thread(target=solver)
    t.start()
    started.wait()
    deadline = time.perf_counter() + 5
    while t.is_alive() and time.perf_counter() < deadline:
        try:
            p.set_pairwise(3)
        except RuntimeError as e:
            refused.append(str(e))
            break
        time.sleep(0.0002)
    t.join()
    # changes may land before the solve begins; once it runs they are refused
    assert refused and "another thread" in refused[0]
    p.set_pairwise(3)  # usable again afterwards
    p.solve()


def test_one_network_solved_from_four_threads_at_once():
    # a Network never changes once built: the library solves one unchanged
    # graph from several threads at once, each with its own result
    rng = np.random.default_rng(3)
    n, m = 20000, 80000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    cap, rev = rng.integers(0, 50, m), rng.integers(0, 50, m)
    ts, tt = rng.integers(0, 50, n), rng.integers(0, 50, n)
    net = gcut.Network(n, src, dst, cap, rev, ts, tt)
    ref = net.solve(backend="cpu-hipr")
    results, errors = [None] * 4, []

    def worker(i):
        try:
            results[i] = net.solve(backend=("cpu-bk", "cpu-hipr")[i % 2], want_flows=True)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for r in results:
        assert r.flow == ref.flow and r.cut.tobytes() == ref.cut.tobytes()
        net.check_flow(r.flow, r.flows, r.cut)
