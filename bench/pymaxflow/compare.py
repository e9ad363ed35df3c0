#!/usr/bin/env python3
"""The PyMaxflow tutorial grid problems at 1, 4 and 16 MP: gcut's
PyMaxflow-compatible Graph[int], gcut.grid_cut, and BK v3 (Debian's
libmaxflow: the code PyMaxflow wraps) through bench/pymaxflow/bk_grid.cpp.

    bench/pymaxflow/run.sh [SIZES_MP] [REPEAT]      # builds bk_grid, then runs this

Problems (PyMaxflow's documentation, "tutorial"):
* restore: binary image restoration - a noisy two-tone image, add_grid_edges
  with weight 50 (4-connected), add_grid_tedges(img, 255 - img);
* contrast8: an 8-connected structure with per-pixel contrast-sensitive
  weights (the "structure" example of the tutorial), terminal links from
  the grey level.
Every path must give the same flow and the same mask (sink side = True, as
get_grid_segments). Times are medians of REPEAT runs (ms), whole calls
(graph building included) and the max-flow alone where the tool separates
them. Prints a markdown table.
"""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import gcut


def problem(kind, mp, seed=5):
    side = int(round((mp * 1e6) ** 0.5))
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:side, 0:side]
    shape = ((x // (side // 8)) + (y // (side // 6))) % 2 == 0  # a checkerboard of blobs
    r = np.hypot(x - side / 2, y - side / 2) < side / 3
    clean = np.where(shape ^ r, 220, 40)
    img = np.clip(clean + rng.normal(0, 60, clean.shape), 0, 255).astype(np.int32)
    if kind == "restore":
        return img, 255 - img, [np.full(img.shape, 50, np.int32)] * 2, 4
    gx = np.abs(np.diff(img, axis=1, append=img[:, -1:]))
    gy = np.abs(np.diff(img, axis=0, append=img[-1:, :]))
    w = (40 * np.exp(-np.maximum(gx, gy) / 25.0)).astype(np.int32) + 1
    return img, 255 - img, [w, w, (w * 7) // 10, (w * 7) // 10], 8


STRUCT8 = [np.array([[0, 0, 0], [0, 0, 1], [0, 0, 0]]),   # +x
           np.array([[0, 0, 0], [0, 0, 0], [0, 1, 0]]),   # +y
           np.array([[0, 0, 0], [0, 0, 0], [0, 0, 1]]),   # +x+y
           np.array([[0, 0, 1], [0, 0, 0], [0, 0, 0]])]   # +x-y


def via_graph(tsrc, tsink, weights, conn):
    g = gcut.Graph[int]()
    ids = g.add_grid_nodes(tsrc.shape)
    for j, w in enumerate(weights[: conn // 2]):
        g.add_grid_edges(ids, weights=w, structure=STRUCT8[j], symmetric=True)
    g.add_grid_tedges(ids, tsrc, tsink)
    t0 = time.perf_counter()
    flow = g.maxflow()
    t_solve = time.perf_counter() - t0
    return flow, g.get_grid_segments(ids), t_solve


def via_grid_cut(tsrc, tsink, weights, conn):
    # cost_fg = sink capacity, cost_bg = source capacity; mask True = source
    pw = np.stack(weights[: conn // 2])
    p = gcut.GridProblem(tsrc.shape, conn)
    p.set_unary(tsink, tsrc)
    p.set_pairwise(pw)
    fg = p.solve()
    st = p.result.stats  # the engine's whole time: its start (IBFS), augmentation, the cut
    return p.flow, ~fg, (st["init_ms"] + st["solve_ms"] + st["cut_ms"]) / 1e3


def median(xs):
    return float(np.median(xs)) * 1e3


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    bk = os.environ.get("BK_GRID", os.path.join(here, "..", "..", "build-bench", "bk_grid"))
    sizes = [float(s) for s in (sys.argv[1] if len(sys.argv) > 1 else "1,4,16").split(",")]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print("| problem | MP | BK v3 build+solve (solve) ms | gcut Graph[int] (maxflow) ms | "
          "gcut grid_cut (solve) ms | BK / Graph[int] | BK / grid_cut |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind in ("restore", "contrast8"):
        for mp in sizes:
            tsrc, tsink, weights, conn = problem(kind, mp)
            h, w = tsrc.shape
            with tempfile.TemporaryDirectory() as tmp:
                paths = [os.path.join(tmp, n) for n in ("ts", "tt", "w", "mask")]
                tsrc.astype(np.int32).tofile(paths[0])
                tsink.astype(np.int32).tofile(paths[1])
                np.stack(weights[: conn // 2]).astype(np.int32).tofile(paths[2])
                out = subprocess.run([bk, str(h), str(w), str(conn), *paths, str(repeat)],
                                     check=True, capture_output=True, text=True).stdout
                rep = dict(line.split(": ") for line in out.splitlines())
                bk_mask = np.fromfile(paths[3], dtype=np.uint8).reshape(h, w).astype(bool)
            bk_total = float(rep["build_ms"]) + float(rep["solve_ms"])
            t_graph, s_graph, t_grid, s_grid = [], [], [], []
            for _ in range(repeat):
                t0 = time.perf_counter()
                f1, m1, s1 = via_graph(tsrc, tsink, weights, conn)
                t_graph.append(time.perf_counter() - t0)
                s_graph.append(s1)
                t0 = time.perf_counter()
                f2, m2, s2 = via_grid_cut(tsrc, tsink, weights, conn)
                t_grid.append(time.perf_counter() - t0)
                s_grid.append(s2)
            flow = int(rep["flow"])
            if not (f1 == f2 == flow and np.array_equal(m1, bk_mask) and
                    np.array_equal(m2, bk_mask)):
                sys.exit(f"{kind} {mp} MP: flows {f1} {f2} {flow} or masks differ")
            tg, tc = median(t_graph), median(t_grid)
            print(f"| {kind} ({conn}-conn) | {mp:g} | {bk_total:.0f} ({float(rep['solve_ms']):.0f})"
                  f" | {tg:.0f} ({median(s_graph):.0f}) | {tc:.0f} ({median(s_grid):.0f}) | "
                  f"{bk_total / tg:.2f}x | {bk_total / tc:.2f}x |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
