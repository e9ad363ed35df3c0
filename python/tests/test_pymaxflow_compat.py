"""PyMaxflow-style programs (written for this project after PyMaxflow's
tutorial) ported by `import gcut as maxflow`, against answers computed
independently: brute force, or gcut.maxflow on edges listed by plain loops."""

import numpy as np
import pytest

import gcut
import gcut as maxflow
from conftest import brute_force


def test_simple_example_flow_8():
    # PyMaxflow's "simple example": two nodes, flow 8, node 0 on the sink side
    g = maxflow.Graph[int](2, 2)
    nodes = g.add_nodes(2)
    g.add_edge(nodes[0], nodes[1], 1, 2)
    g.add_tedge(nodes[0], 2, 5)
    g.add_tedge(nodes[1], 9, 4)
    flow = g.maxflow()
    assert flow == 8
    assert [g.get_segment(nodes[0]), g.get_segment(nodes[1])] == [1, 0]
    val, canon = brute_force(2, [0], [1], [1], [2], [2, 9], [5, 4])
    assert val == 8 and canon.tolist() == [1, 0]


def grid_edges_by_loops(shape, weights, structure, symmetric):
    """The edges PyMaxflow's add_grid_edges defines, listed node by node."""
    h, w = shape
    cy, cx = structure.shape[0] // 2, structure.shape[1] // 2
    out = []
    for y in range(h):
        for x in range(w):
            for sy in range(structure.shape[0]):
                for sx in range(structure.shape[1]):
                    s = int(structure[sy, sx])
                    dy, dx = sy - cy, sx - cx
                    if s == 0 or (dy, dx) == (0, 0):
                        continue
                    y2, x2 = y + dy, x + dx
                    if 0 <= y2 < h and 0 <= x2 < w:
                        c = int(weights[y, x]) * s
                        out.append((y * w + x, y2 * w + x2, c, c if symmetric else 0))
    return out


def solve_edges(n, edges, tsrc, tsink):
    e = np.array(edges, dtype=np.int64).reshape(-1, 4)
    return gcut.maxflow(n, e[:, 0], e[:, 1], e[:, 2], e[:, 3], tsrc, tsink)


def noisy_square(rng, size=48):
    img = np.zeros((size, size), dtype=np.int64)
    img[size // 4: 3 * size // 4, size // 4: 3 * size // 4] = 255
    flip = rng.random(img.shape) < 0.1
    noisy = np.where(flip, 255 - img, img)
    return img, noisy


def test_binary_image_restoration(rng):
    # PyMaxflow tutorial: binary restoration with a uniform smoothness (4 x 100 > 255:
    # an isolated flipped pixel costs more to keep than to flip back)
    truth, img = noisy_square(rng)
    g = maxflow.Graph[int]()
    nodeids = g.add_grid_nodes(img.shape)
    g.add_grid_edges(nodeids, 100)
    g.add_grid_tedges(nodeids, img, 255 - img)
    flow = g.maxflow()
    sgm = g.get_grid_segments(nodeids)
    img2 = np.int_(np.logical_not(sgm))
    assert sgm.dtype == np.bool_ and sgm.shape == img.shape
    # the noise is gone: the square comes back almost everywhere
    assert np.mean(img2 == (truth > 0)) > 0.97
    assert np.mean((img > 0) == (truth > 0)) < 0.93
    # the same energy listed by loops and solved as a general graph
    st = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    edges = grid_edges_by_loops(img.shape, np.full(img.shape, 100), st, False)
    r = solve_edges(img.size, edges, img.ravel(), (255 - img).ravel())
    assert flow == r.flow
    assert sgm.ravel().tolist() == (r.cut == 1).tolist()
    # and through the numpy-first API (source side = "foreground" = bright)
    mask = gcut.grid_cut(255 - img, img, 100)
    assert mask.tolist() == np.logical_not(sgm).tolist()


@pytest.mark.parametrize("symmetric", [False, True])
def test_structure_and_per_pixel_weights(rng, symmetric):
    # 8-neighbourhood given as a structure, weights per pixel
    shape = (9, 11)
    img = rng.integers(0, 100, shape)
    weights = rng.integers(0, 20, shape)
    structure = np.array([[1, 1, 1], [1, 0, 1], [1, 2, 1]])
    g = maxflow.Graph[int]()
    ids = g.add_grid_nodes(shape)
    g.add_grid_edges(ids, weights=weights, structure=structure, symmetric=symmetric)
    g.add_grid_tedges(ids, img, 100 - img)
    flow = g.maxflow()
    edges = grid_edges_by_loops(shape, weights, structure, symmetric)
    assert g.get_edge_num() == len(edges)
    r = solve_edges(img.size, edges, img.ravel(), (100 - img).ravel())
    assert flow == r.flow
    assert g.get_grid_segments(ids).ravel().tolist() == (r.cut == 1).tolist()


def test_default_structure_symmetric_same_graph_for_uniform_weights(rng):
    img = rng.integers(0, 100, (7, 8))
    flows = []
    for symmetric in (False, True):
        g = maxflow.Graph[int]()
        ids = g.add_grid_nodes(img.shape)
        g.add_grid_edges(ids, 7, symmetric=symmetric)
        g.add_grid_tedges(ids, img, 100 - img)
        flows.append((g.maxflow(), g.get_grid_segments(ids).tolist()))
    assert flows[0] == flows[1]


def test_tedges_accumulate_and_resolve(rng):
    for trial in range(20):
        n = int(rng.integers(1, 8))
        g = maxflow.Graph[int]()
        g.add_nodes(n)
        edges, ts, tt = [], np.zeros(n, int), np.zeros(n, int)
        for _ in range(int(rng.integers(0, 12))):
            u, v, c, r = (int(x) for x in (rng.integers(n), rng.integers(n),
                                           rng.integers(10), rng.integers(10)))
            g.add_edge(u, v, c, r)
            edges.append((u, v, c, r))
        for _ in range(int(rng.integers(0, 10))):
            v, s, t = int(rng.integers(n)), int(rng.integers(10)), int(rng.integers(10))
            g.add_tedge(v, s, t)  # adds, as PyMaxflow's
            ts[v] += s
            tt[v] += t
        e = np.array(edges, dtype=np.int64).reshape(-1, 4).T
        val, canon = brute_force(n, *e, ts, tt)
        assert g.maxflow() == val
        assert [g.get_segment(i) for i in range(n)] == canon.tolist()
        # a change after a solve, then a re-solve (reuse_trees accepted)
        v = int(rng.integers(n))
        g.add_tedge(v, 5, 0)
        ts[v] += 5
        val, canon = brute_force(n, *e, ts, tt)
        assert g.maxflow(reuse_trees=True) == val
        assert g.get_grid_segments(np.arange(n)).tolist() == (canon == 1).tolist()
        g.mark_node(0)
        g.mark_grid_nodes(np.arange(n))


def test_vectorised_add_edges(rng):
    g = maxflow.Graph[int]()
    ids = g.add_nodes(4)
    g.add_edges(ids[:3], ids[1:], [3, 4, 5], 0)
    g.add_grid_tedges(ids, [10, 0, 0, 0], [0, 0, 0, 10])
    assert g.maxflow() == 3
    assert g.get_node_num() == 4 and g.get_edge_num() == 3


def test_errors():
    if not gcut.HAVE_FLOAT:
        with pytest.raises(gcut.UnsupportedError, match="float") as ei:
            maxflow.Graph[float]()
        assert str(ei.value).startswith("gcut.Graph[float] needs")
    assert issubclass(gcut.UnsupportedError, NotImplementedError)
    g = maxflow.Graph[int]()
    ids = g.add_grid_nodes((2, 2))
    with pytest.raises(TypeError, match="fractional"):
        g.add_grid_edges(ids, 0.5)
    g.add_grid_edges(ids, 2.0)  # whole floats convert exactly
    with pytest.raises(IndexError):
        g.add_edge(0, 9, 1, 1)
    with pytest.raises(IndexError):
        g.add_tedge(-1, 1, 1)
    with pytest.raises(ValueError, match="negative"):
        g.add_edge(0, 1, -1, 1)
    with pytest.raises(RuntimeError, match="maxflow"):
        g.get_segment(0)
    g.add_tedge(0, 2**31 - 10, 0)
    with pytest.raises(gcut.OverflowError):
        g.add_tedge(0, 100, 0)
    with pytest.raises(gcut.OverflowError):
        g.add_grid_tedges(ids, 100, 0)
    g.add_grid_tedges(ids, 0, [[1, 1], [1, 1]])
    g.add_tedge(3, 5, 0)
    # nothing was added by the failed calls: 0 is on the source side
    g.maxflow()
    assert g.get_segment(0) == 0
    assert g.result.flow == g.maxflow()
    with pytest.raises(TypeError, match="node ids"):
        g.get_grid_segments(np.array([0.0]))


def periodic_edges_by_hand(shape, weights, structure, symmetric, periodic):
    """(src, dst, cap, rev) of add_grid_edges with periodic axes, by loops."""
    ids = np.arange(int(np.prod(shape))).reshape(shape)
    centre = np.array(structure.shape) // 2
    edges = []
    for p in np.ndindex(*shape):
        for q in zip(*np.nonzero(structure)):
            off = np.array(q) - centre
            if not off.any():
                continue
            nb = np.array(p) + off
            ok = True
            for k, size in enumerate(shape):
                if periodic[k]:
                    nb[k] %= size
                elif not 0 <= nb[k] < size:
                    ok = False
            if not ok or tuple(nb) == p:
                continue
            c = int(weights[p] * structure[q])
            edges.append((ids[p], ids[tuple(nb)], c, c if symmetric else 0))
    return [np.array(x, dtype=np.int32) for x in zip(*edges)]


@pytest.mark.parametrize("shape,periodic", [((5, 6), (True, True)), ((5, 6), (False, True)),
                                            ((4, 3, 5), (True, False, True)), ((1, 7), True),
                                            ((2, 2), True)])
@pytest.mark.parametrize("symmetric", [False, True])
def test_periodic_neighbourhoods(rng, shape, periodic, symmetric):
    """PyMaxflow's periodic=: the torus edges, against explicit edges."""
    per = (periodic,) * len(shape) if isinstance(periodic, bool) else periodic
    structure = rng.integers(0, 3, (3,) * len(shape)).astype(np.int32)
    weights = rng.integers(1, 9, shape).astype(np.int32)
    tsrc = rng.integers(0, 30, shape).astype(np.int32)
    tsink = rng.integers(0, 30, shape).astype(np.int32)
    g = maxflow.Graph[int]()
    ids = g.add_grid_nodes(shape)
    g.add_grid_edges(ids, weights=weights, structure=structure, symmetric=symmetric,
                     periodic=periodic)
    g.add_grid_tedges(ids, tsrc, tsink)
    flow = g.maxflow()
    src, dst, cap, rev = periodic_edges_by_hand(shape, weights, structure, symmetric, per)
    n = int(np.prod(shape))
    r = gcut.maxflow(n, src, dst, cap, rev, tsrc.ravel(), tsink.ravel())
    assert flow == r.flow
    assert np.array_equal(g.get_grid_segments(ids).ravel(), r.cut == 1)
    assert g.get_edge_num() == len(src)


def test_periodic_argument_checked():
    g = maxflow.Graph[int]()
    ids = g.add_grid_nodes((3, 3))
    with pytest.raises(ValueError, match="periodic"):
        g.add_grid_edges(ids, periodic=(True, False, True))


def _grid_graph(shape, weights, structure, symmetric, tsrc, tsink, general):
    g = maxflow.Graph[int]()
    ids = g.add_grid_nodes(shape)
    if general:  # a zero edge: no longer one pure grid, solved as a general graph
        g.add_edge(0, 1, 0, 0)
    g.add_grid_edges(ids, weights=weights, structure=structure, symmetric=symmetric)
    g.add_grid_tedges(ids, tsrc, tsink)
    return g, ids


@pytest.mark.parametrize("shape,structure", [
    ((30, 40), None),
    ((30, 40), np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]])),
    ((30, 40), np.array([[0, 0, 0], [0, 0, 1], [0, 3, 2]])),
    ((8, 9, 10), None),
    ((6, 7, 8), np.ones((3, 3, 3), np.int32))])
@pytest.mark.parametrize("symmetric", [False, True])
def test_grid_path_matches_general(rng, shape, structure, symmetric):
    """One grid of grid edges is solved by the grid engines (no adjacency
    lists): the same flow and segments as the general graph, warm re-solves
    after terminal changes, and a later add_edge falls back correctly."""
    weights = rng.integers(0, 30, shape)
    tsrc = rng.integers(0, 100, shape)
    tsink = rng.integers(0, 100, shape)
    g, ids = _grid_graph(shape, weights, structure, symmetric, tsrc, tsink, False)
    h, hids = _grid_graph(shape, weights, structure, symmetric, tsrc, tsink, True)
    assert g._grid is not None and h._grid is None
    assert g.get_edge_num() == h.get_edge_num() - 1
    assert g.maxflow() == h.maxflow()
    assert np.array_equal(g.get_grid_segments(ids), h.get_grid_segments(hids))
    # a stroke: terminal changes, then warm
    sel = rng.random(shape) < 0.05
    for gr, ii in ((g, ids), (h, hids)):
        gr.add_grid_tedges(ii, np.where(sel, 1000, 0), 0)
    assert g.maxflow(reuse_trees=True) == h.maxflow()
    assert g.result.stats["warm_start"]
    assert np.array_equal(g.get_grid_segments(ids), h.get_grid_segments(hids))
    # an ordinary edge: back to a general graph, same answers
    g.add_edge(int(ids.flat[0]), int(ids.flat[-1]), 7, 3)
    h.add_edge(int(hids.flat[0]), int(hids.flat[-1]), 7, 3)
    assert g._grid is None
    assert g.maxflow() == h.maxflow()
    assert np.array_equal(g.get_grid_segments(ids), h.get_grid_segments(hids))


def test_grid_path_overflow_changes_nothing():
    g = maxflow.Graph[int]()
    ids = g.add_grid_nodes((4, 5))
    g.add_grid_edges(ids, 2**30, symmetric=True)
    with pytest.raises(gcut.OverflowError):
        g.add_grid_edges(ids, 2**30, symmetric=True)
    g.add_grid_tedges(ids, 5, 0)
    assert g.maxflow() == 0
    assert g.get_edge_num() == 4 * 4 + 3 * 5
