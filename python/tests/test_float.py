"""Float energies and capacities (with the float C API, gcut.HAVE_FLOAT):
the library quantises, and the cut it returns is within the reported bound
of the float optimum (brute force here). Without the float API, the
package says so with a clear error (test_grid, test_pymaxflow_compat)."""

import itertools

import numpy as np
import pytest

import gcut
from conftest import random_graph

pytestmark = pytest.mark.skipif(not gcut.HAVE_FLOAT, reason="libgcut without the float C API")


def grid_energy(mask, fg, bg, w):
    """E of a labelling (True = foreground), 4-connected, edge (v, v + (0,1)) and
    (v, v + (1,0)) weighing w[v] (the isotropic rule)."""
    e = float(np.where(mask, fg, bg).sum())
    e += float((w[:, :-1] * (mask[:, :-1] != mask[:, 1:])).sum())
    e += float((w[:-1, :] * (mask[:-1, :] != mask[1:, :])).sum())
    return e


def test_float_grid_against_brute_force(rng):
    for trial in range(15):
        shape = (2, 4)
        fg = rng.normal(0, 3, shape)
        bg = rng.normal(0, 3, shape)
        w = rng.random(shape) * 2
        p = gcut.GridProblem(shape)
        p.set_energy(fg, bg, w)
        mask = p.solve()
        q = p.result.quantization
        assert q is not None and q["bound"] >= 0 and q["scale"] > 0
        best = min(grid_energy(np.array(bits, bool).reshape(shape), fg, bg, w)
                   for bits in itertools.product((0, 1), repeat=8))
        e = grid_energy(mask, fg, bg, w)
        slack = 1e-5 * (1 + abs(best))  # float32 input rounding
        assert e - best <= q["bound"] + slack
        assert abs(p.energy - e) <= q["bound"] + slack
        assert gcut.grid_cut(fg, bg, w).tolist() == mask.tolist()


def test_float_grid_warm_stroke_with_infinity(rng):
    shape = (30, 40)
    fg, bg = rng.random(shape) * 5, rng.random(shape) * 5
    p = gcut.GridProblem(shape)
    p.set_energy(fg, bg, 0.7)
    p.solve(backend="cpu-bk")
    region = np.zeros(shape, bool)
    region[10:15, 10:15] = True
    p.set_tweights(region, cost_fg=0.0, cost_bg=np.inf)  # background forbidden there
    mask = p.solve(backend="cpu-bk")
    assert mask[region].all()
    assert p.result.stats["warm_start"] is True
    fg2, bg2 = fg.copy(), bg.copy()
    fg2[region], bg2[region] = 0.0, np.inf
    cold = gcut.GridProblem(shape)
    cold.set_energy(fg2, bg2, 0.7)
    assert cold.solve().tolist() == mask.tolist()
    with pytest.raises(TypeError, match="float energy"):
        p.set_pairwise(3)


def test_float_maxflow_against_brute_force(rng):
    from conftest import brute_force
    for trial in range(20):
        n = int(rng.integers(1, 7))
        src, dst, cap, rev, ts, tt = random_graph(rng, n, int(rng.integers(0, 10)))
        scale = rng.random() + 0.1
        g = (src, dst, cap * scale, rev * scale, ts * scale, tt * scale)
        r = gcut.maxflow(n, *g)
        q = r.quantization
        assert q is not None
        val, _ = brute_force(n, src, dst, cap, rev, ts, tt)
        assert abs(r.energy - val * scale) <= q["bound"] + 1e-5 * (1 + val * scale)


def test_graph_float_simple_example():
    g = gcut.Graph[float]()
    nodes = g.add_nodes(2)
    g.add_edge(nodes[0], nodes[1], 0.5, 1.0)
    g.add_tedge(nodes[0], 1.0, 2.5)
    g.add_tedge(nodes[1], 4.5, 2.0)
    flow = g.maxflow()
    assert isinstance(flow, float)
    assert abs(flow - 4.0) <= g.result.quantization["bound"] + 1e-6
    assert [g.get_segment(nodes[0]), g.get_segment(nodes[1])] == [1, 0]
    with pytest.raises(ValueError, match="NaN|infinite"):
        g.add_edge(0, 1, np.nan, 0)
