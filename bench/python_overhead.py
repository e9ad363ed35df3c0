#!/usr/bin/env python3
"""Per-call overhead of the Python package against the C API.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py build/bin [SIZE] [REPEAT]

A SIZE x SIZE (default 1000: 1 MP) 4-connected segmentation grid is solved
(cold, back end "auto") through:

* C: gcut-grid-files (bench/grid_files.c), gcut_grid_new + set_terminals +
  set_caps x 4 + gcut_grid_solve from raw int32 files, the same calls the
  package makes;
* python (same calls): GridProblem + set_unary + set_pairwise with the four
  directed capacity arrays + solve(), the mask included;
* python grid_cut: grid_cut(fg, bg, w) with one isotropic weight array (the
  package builds the opposite directions' arrays: one more pass);

and the medians are compared, of wall time and of process CPU time (the
honest figure on a shared machine: another job's load inflates wall time,
not CPU time). The fixed cost per call is measured on a 2x2
grid (python grid_cut and GridProblem.solve() against C) and a 2-node graph
(gcut.maxflow). Every path must give the same flow.
"""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import gcut


def median_time(fn, repeat, clock=time.perf_counter):
    """Median in ms of ``repeat`` calls, by ``clock`` (wall, or process CPU time)."""
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return float(np.median(times)) * 1e3


def both(fn, repeat):
    """(wall ms, CPU ms) medians: the C driver's pair."""
    return median_time(fn, repeat), median_time(fn, repeat, time.process_time)


def energy(size, seed=1):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:size, 0:size]
    img = np.where((x - size / 2) ** 2 + (y - size / 2) ** 2 < (size / 3) ** 2, 180, 60)
    img = np.clip(img + rng.normal(0, 40, img.shape), 0, 255)
    fg = np.abs(img - 180).astype(np.int32)
    bg = np.abs(img - 60).astype(np.int32)
    gx = np.abs(np.diff(img, axis=1, append=img[:, -1:]))
    gy = np.abs(np.diff(img, axis=0, append=img[-1:, :]))
    w = (60 * np.exp(-np.maximum(gx, gy) / 30.0)).astype(np.int32)
    return fg, bg, w


def run_c(bindir, size, fg, bg, caps, repeat, tmp):
    paths = [os.path.join(tmp, n) for n in ("fg", "bg", "caps")]
    for p, a in zip(paths, (fg, bg, caps)):
        np.ascontiguousarray(a, dtype=np.int32).tofile(p)
    out = subprocess.run([os.path.join(bindir, "gcut-grid-files"), str(size), str(size),
                          *paths, str(repeat)], check=True, capture_output=True,
                         text=True).stdout
    return dict((k, float(v)) for k, v in (line.split(": ") for line in out.splitlines()))


def main():
    bindir = sys.argv[1] if len(sys.argv) > 1 else "build/bin"
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    fg, bg, w = energy(size)
    p = gcut.GridProblem(fg.shape)
    p.set_pairwise(w)
    caps = np.stack([p.caps(d) for d in range(4)])

    with tempfile.TemporaryDirectory() as tmp:
        c = run_c(bindir, size, fg, bg, caps, repeat, tmp)
        tiny = energy(2, seed=2)
        tiny_caps = np.stack([np.full((2, 2), 5, np.int32)] * 4)
        c_tiny = run_c(bindir, 2, tiny[0], tiny[1], tiny_caps, 1000, tmp)

    flows = {}

    def same_calls():
        q = gcut.GridProblem(fg.shape)
        q.set_unary(fg, bg)
        q.set_pairwise(caps)
        q.solve()
        flows["same"] = q.flow

    def via_grid_cut():
        q = gcut.GridProblem(fg.shape)
        q.set_unary(fg, bg)
        q.set_pairwise(w)
        q.solve()
        flows["grid_cut"] = q.flow

    t_same, cpu_same = both(same_calls, repeat)
    t_gc, cpu_gc = both(via_grid_cut, repeat)
    mask = gcut.grid_cut(fg, bg, w)
    assert flows["same"] == flows["grid_cut"] == int(c["flow"]), (flows, c)
    assert int(mask.sum()) == int(c["fg"])

    # the binding's own cost of one solve: wall time minus the library's total_ms
    q = gcut.GridProblem(fg.shape)
    q.set_unary(fg, bg)
    q.set_pairwise(caps)
    q.set_warm_start(False)
    bind = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        q.solve()
        bind.append((time.perf_counter() - t0) * 1e3 - q.result.stats["total_ms"])
    t_bind = float(np.median(bind))

    tf, tb = tiny[0], tiny[1]
    t_tiny_gc = median_time(lambda: gcut.grid_cut(tf, tb, 5), 3000) * 1e3
    tq = gcut.GridProblem((2, 2))
    tq.set_unary(tf, tb)
    tq.set_pairwise(tiny_caps)
    tq.set_warm_start(False)
    t_tiny_solve = median_time(tq.solve, 3000) * 1e3
    t_tiny_mf = median_time(lambda: gcut.maxflow(2, [0], [1], [3], None, [5, 0], [0, 5]),
                            3000) * 1e3

    print(f"grid: {size}x{size} 4-connected, back end {q.result.backend}, "
          f"flow {flows['same']}, {repeat} cold solves (medians)")
    print("                                       wall ms         CPU ms")
    print(f"C API (gcut-grid-files):             {c['median_ms']:9.2f}       {c['cpu_ms']:9.2f}"
          f"   (library solve {c['solve_ms']:.2f} ms)")
    for name, t, cpu in (("python, same calls (GridProblem):   ", t_same, cpu_same),
                         ("python grid_cut (isotropic weights):", t_gc, cpu_gc)):
        print(f"{name} {t:9.2f} {100 * (t / c['median_ms'] - 1):+5.1f}% "
              f"{cpu:9.2f} {100 * (cpu / c['cpu_ms'] - 1):+5.1f}%")
    print(f"binding cost of solve() (wall - library total_ms): {t_bind:.3f} ms")
    print(f"2x2 grid: C {c_tiny['median_ms'] * 1e3:.1f} us, python GridProblem.solve() "
          f"{t_tiny_solve:.1f} us, python grid_cut {t_tiny_gc:.1f} us; "
          f"2-node gcut.maxflow {t_tiny_mf:.1f} us")


if __name__ == "__main__":
    main()
