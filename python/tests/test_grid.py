"""gcut.grid_cut and gcut.GridProblem: numpy grids against general graphs built
independently here, brute force on tiny grids, warm re-solves, dtype rules."""

import numpy as np
import pytest

import gcut
from conftest import brute_force, grid_arrays

# positive offsets (numpy axis order) of the even directions of gcut/grid.h
EVEN_2D = {4: [(0, 1), (1, 0)], 8: [(0, 1), (1, 0), (1, 1), (-1, 1)]}
EVEN_3D = {6: [(0, 0, 1), (0, 1, 0), (1, 0, 0)]}


def as_graph(cost_fg, cost_bg, pair_per_dir, offsets, directed=False):
    """Edges of the grid energy, built independently: for every offset o and
    node p with p + o inside, an edge p -> p + o (weights[o][p] both ways, or
    for directed capacities only one way)."""
    shape = cost_fg.shape
    ids = np.arange(cost_fg.size).reshape(shape)
    src, dst, cap, rev = [], [], [], []
    for w, off in zip(pair_per_dir, offsets):
        sl_a = tuple(slice(max(0, -o), s - max(0, o)) for o, s in zip(off, shape))
        sl_b = tuple(slice(max(0, o), s - max(0, -o)) for o, s in zip(off, shape))
        src.append(ids[sl_a].ravel())
        dst.append(ids[sl_b].ravel())
        cap.append(w[sl_a].ravel())
        rev.append(np.zeros_like(w[sl_a].ravel()) if directed else w[sl_a].ravel())
    cat = lambda parts: np.concatenate(parts).astype(np.int32)  # noqa: E731
    return (cost_fg.size, cat(src), cat(dst), cat(cap), cat(rev),
            cost_bg.ravel().astype(np.int32), cost_fg.ravel().astype(np.int32))


@pytest.mark.parametrize("conn", [4, 8])
def test_2d_isotropic_against_graph(rng, conn):
    for trial in range(5):
        shape = (int(rng.integers(1, 20)), int(rng.integers(1, 20)))
        fg = rng.integers(0, 30, shape)
        bg = rng.integers(0, 30, shape)
        w = rng.integers(0, 12, shape)
        mask = gcut.grid_cut(fg, bg, w, connectivity=conn)
        assert mask.dtype == np.bool_ and mask.shape == shape
        r = gcut.maxflow(*as_graph(fg, bg, [w] * (conn // 2), EVEN_2D[conn]))
        assert mask.ravel().tolist() == (r.cut == 0).tolist()


def test_2d_per_direction_forms(rng):
    shape = (13, 17)
    fg, bg = rng.integers(0, 30, shape), rng.integers(0, 30, shape)
    pair = rng.integers(0, 12, (4,) + shape)
    p = gcut.GridProblem(shape, 8)
    p.set_unary(fg, bg)
    p.set_pairwise(pair)  # (connectivity // 2, H, W): one symmetric weight per even direction
    mask = p.solve()
    r = gcut.maxflow(*as_graph(fg, bg, list(pair), EVEN_2D[8]))
    assert mask.ravel().tolist() == (r.cut == 0).tolist()
    assert p.flow == r.flow
    # (connectivity, H, W): directed arc capacities caps[d][v]
    caps = rng.integers(0, 12, (4,) + shape)
    q = gcut.GridProblem(shape, 4)
    q.set_unary(fg, bg)
    q.set_pairwise(caps)
    offs = [(0, 1), (0, -1), (1, 0), (-1, 0)]  # directions 0..3: +x, -x, +y, -y
    r = gcut.maxflow(*as_graph(fg, bg, list(caps), offs, directed=True))
    assert q.solve().ravel().tolist() == (r.cut == 0).tolist()
    assert q.flow == r.flow
    for d in range(4):
        assert q.caps(d).tolist() == caps[d].tolist()


def test_3d(rng):
    shape = (5, 6, 7)
    fg, bg = rng.integers(0, 30, shape), rng.integers(0, 30, shape)
    w = rng.integers(0, 10, shape)
    mask = gcut.grid_cut(fg, bg, w, connectivity=6)
    assert mask.shape == shape
    r = gcut.maxflow(*as_graph(fg, bg, [w] * 3, EVEN_3D[6]))
    assert mask.ravel().tolist() == (r.cut == 0).tolist()
    for conn in (18, 26):
        m = gcut.grid_cut(fg, bg, w, connectivity=conn)
        assert m.shape == shape


def test_tiny_against_brute_force(rng):
    for trial in range(20):
        shape = (2, 3)
        fg, bg = rng.integers(0, 10, shape), rng.integers(0, 10, shape)
        w = rng.integers(0, 6, shape)
        g = as_graph(fg, bg, [w, w], EVEN_2D[4])
        val, canon = brute_force(*g)
        p = gcut.GridProblem(shape)
        p.set_unary(fg, bg)
        p.set_pairwise(w)
        mask = p.solve()
        assert p.flow == val
        assert mask.ravel().tolist() == (canon == 0).tolist()


def test_scalar_pairwise_and_obvious_answer():
    fg = np.zeros((8, 8), np.int32)
    fg[:, 4:] = 50
    bg = 50 - fg
    mask = gcut.grid_cut(fg, bg, 3)
    assert mask[:, :4].all() and not mask[:, 4:].any()


def test_warm_resolve_matches_cold(rng):
    shape = (40, 50)
    fg, bg = rng.integers(0, 40, shape), rng.integers(0, 40, shape)
    w = rng.integers(0, 15, shape)
    p = gcut.GridProblem(shape)
    p.set_unary(fg, bg)
    p.set_pairwise(w)
    p.solve(backend="cpu-bk")
    assert p.result.stats["warm_start"] is False
    for step in range(4):
        region = np.zeros(shape, bool)
        y, x = rng.integers(0, 35), rng.integers(0, 45)
        region[y:y + 5, x:x + 5] = True
        p.set_tweights(region, 0, 1000)  # a foreground stroke
        fg[region], bg[region] = 0, 1000
        warm = p.solve(backend="cpu-bk")
        assert p.result.stats["warm_start"] is True
        assert warm[region].all()
        cold = gcut.GridProblem(shape)
        cold.set_unary(fg, bg)
        cold.set_pairwise(w)
        assert cold.solve(backend="cpu-bk").tolist() == warm.tolist()
        assert cold.flow == p.flow
    # index forms of the region: flat ids and index tuples
    p.set_tweights(np.array([0, 1]), [1000, 1000], 0)
    p.set_tweights((np.array([2]), np.array([3])), 1000, 0)
    m = p.solve()
    assert not m.ravel()[0] and not m.ravel()[1] and not m[2, 3]
    p.set_warm_start(False)
    p.solve()
    assert p.result.stats["warm_start"] is False


@pytest.mark.skipif(gcut.HAVE_FLOAT, reason="the float C API solves fractional energies")
def test_float_rules():
    fg = np.array([[0.0, 9.0], [9.0, 9.0]])
    bg = np.array([[9.0, 0.0], [0.0, 0.0]])
    assert gcut.grid_cut(fg, bg, 1.0).tolist() == [[True, False], [False, False]]
    with pytest.raises(TypeError, match="float C API"):
        gcut.grid_cut(fg + 0.5, bg, 1)
    with pytest.raises(TypeError, match="NaN"):
        gcut.grid_cut(fg * np.nan, bg, 1)
    with pytest.raises(TypeError, match="float C API"):
        gcut.grid_cut(fg, bg, 0.25)


def test_errors_change_nothing(rng):
    shape = (6, 7)
    fg, bg = rng.integers(0, 30, shape), rng.integers(0, 30, shape)
    p = gcut.GridProblem(shape)
    p.set_unary(fg, bg)
    p.set_pairwise(2)
    before = p.solve().copy()
    flow = p.flow
    bad = np.ones(shape, np.int32)
    bad[3, 4] = -1
    with pytest.raises(gcut.InvalidError, match="negative"):
        p.set_pairwise(bad)
    with pytest.raises(gcut.InvalidError):
        p.set_unary(bad, bg)
    with pytest.raises(ValueError, match="expected shape"):
        p.set_unary(fg[:3], bg)
    with pytest.raises(ValueError, match="pairwise"):
        p.set_pairwise(np.ones((3,) + shape))
    with pytest.raises(IndexError):
        p.set_tweights(np.array([0, 42]), 1, 1)
    with pytest.raises(ValueError, match="negative"):
        p.set_tweights(np.array([0, 1]), -1, 1)
    with pytest.raises(ValueError, match="2 selected nodes"):
        p.set_tweights(np.array([0, 1]), [1, 2, 3], 1)
    assert p.solve().tolist() == before.tolist() and p.flow == flow
    with pytest.raises(ValueError, match="connectivity"):
        gcut.GridProblem((4, 4), 6)
    with pytest.raises(ValueError, match="shape"):
        gcut.GridProblem((4,))
    with pytest.raises(gcut.InvalidError):
        gcut.GridProblem((0, 4))
    with pytest.raises(gcut.NotFoundError):
        p.solve(backend="no-such-engine")
    assert p.solve().tolist() == before.tolist()


def test_time_limit_raises_timeout_and_leaves_the_grid_usable(rng):
    shape = (400, 400)
    fg, bg = rng.integers(0, 100, shape), rng.integers(0, 100, shape)
    p = gcut.GridProblem(shape)
    p.set_unary(fg, bg)
    p.set_pairwise(40)
    with pytest.raises(gcut.TimeoutError, match="time limit"):
        p.solve(backend="cpu-bk", time_limit=1e-9)
    with pytest.raises(TimeoutError):  # the built-in catches it too
        p.solve(backend="cpu-bk", time_limit=1e-9)
    mask = p.solve(backend="cpu-bk")
    assert p.result.stats["warm_start"] is False  # cold after a failed solve (grid.h)
    q = gcut.GridProblem(shape)
    q.set_unary(fg, bg)
    q.set_pairwise(40)
    assert q.solve().tolist() == mask.tolist() and q.flow == p.flow


@pytest.mark.parametrize("conn,shape", [(4, (37, 29)), (8, (31, 23)), (6, (9, 11, 13)),
                                        (26, (7, 8, 9))])
def test_regions_match_the_whole_grid(rng, conn, shape):
    """regions=N: the grid as N slabs (the region-partitioned max-flow),
    the same mask and flow as the whole grid, on CPU threads."""
    fg = rng.integers(0, 60, size=shape)
    bg = rng.integers(0, 60, size=shape)
    p = gcut.GridProblem(shape, conn)
    p.set_energy(fg, bg, 17)
    whole = p.solve(backend="cpu-bk")
    flow = p.flow
    for regions in (1, 2, 3, 5):
        mask = p.solve(regions=regions, threads=2)
        assert p.flow == flow
        assert np.array_equal(mask, whole)
        assert p.result.backend == "cpu-region-pr"
        mask = p.solve(regions=regions, threads=2, discharge="ard")
        assert p.flow == flow
        assert np.array_equal(mask, whole)
        assert p.result.backend == "cpu-region-ard"
    with pytest.raises(ValueError):
        p.solve(regions=2, discharge="bk")
    with pytest.raises(ValueError):
        p.solve(discharge="ard")
    with pytest.raises(gcut.Error):
        p.solve(regions=2, discharge="jacobi")  # a discharge of GPU regions


def test_regions_on_devices_and_errors(rng):
    p = gcut.GridProblem((6, 7, 8), 6)
    p.set_energy(rng.integers(0, 9, size=(6, 7, 8)), rng.integers(0, 9, size=(6, 7, 8)), 3)
    whole = p.solve(backend="cpu-bk")
    for bad in ([], [-1], ["x"]):
        with pytest.raises((ValueError, TypeError)):
            p.solve(devices=bad)
    with pytest.raises(ValueError):
        p.solve(devices=[0], backend="cpu-bk")
    with pytest.raises(ValueError):
        p.solve(regions=-1)
    with pytest.raises(gcut.Error):
        p.solve(regions=3, devices=[0, 0])  # a device listed twice
    if "cuda-grid" in [b.name for b in gcut.backends() if b.available]:
        mask = p.solve(devices=[0])  # spread by cuda-grid (one GPU here: one part)
        assert p.result.backend == "cuda-grid"
        assert np.array_equal(mask, whole)
        mask = p.solve(devices=[0], regions=2)  # the partitioned solve
        assert p.result.backend == "cuda-grid-region-pr"
        assert np.array_equal(mask, whole)
        mask = p.solve(devices=[0], regions=3, discharge="jacobi")
        assert p.result.backend == "cuda-grid-region-jacobi"
        assert np.array_equal(mask, whole)
    else:
        with pytest.raises(gcut.UnavailableError):
            p.solve(devices=[0])
    assert np.array_equal(p.solve(), whole)  # still usable


@pytest.mark.parametrize("conn,shape", [(4, (37, 29)), (8, (31, 23)), (6, (9, 11, 13)),
                                        (18, (8, 7, 6)), (26, (7, 8, 9))])
def test_solve_slabs_matches_the_whole_grid(rng, conn, shape):
    """gcut.solve_slabs: the grid as slabs of arrays of their own gives the
    whole grid's flow and mask, for several cuts of the first axis."""
    p, whole, src, snk, caps = grid_arrays(rng, shape, conn)
    n0 = shape[0]
    for cuts in ([n0], [1, n0 - 1], [2, 3, n0 - 5], [1] * n0):
        slabs, at = [], 0
        for k in cuts:
            sl = slice(at, at + k)
            slabs.append((src[sl].copy(), snk[sl].copy(), [c[sl].copy() for c in caps]))
            at += k
        flow, masks, stats = gcut.solve_slabs(slabs, conn)
        assert flow == p.flow
        assert np.array_equal(np.concatenate(masks, axis=0), whole)
        assert stats["sweeps"] >= 1


def test_solve_slabs_errors():
    z = np.zeros((2, 3, 4), dtype=np.int32)
    with pytest.raises(ValueError):
        gcut.solve_slabs([], 6)
    with pytest.raises(ValueError):
        gcut.solve_slabs([(z, z, [z] * 6)], 5)
    with pytest.raises(ValueError):  # planes of different shapes
        gcut.solve_slabs([(z, z, None), (np.zeros((2, 3, 5), np.int32), None, None)], 6)
    with pytest.raises(ValueError):  # a wrong number of capacity arrays
        gcut.solve_slabs([(z, z, [z] * 4)], 6)
    with pytest.raises(TypeError):  # fractional capacities
        gcut.solve_slabs([(z + 0.5, z, None)], 6)
    bad = z.copy()
    bad[1, 2, 3] = -1
    with pytest.raises(gcut.InvalidError, match="node 23 is -1"):
        gcut.solve_slabs([(z, bad, None)], 6)
    with pytest.raises(gcut.InvalidError, match="cuda-grid"):
        gcut.solve_slabs([(z, z, None)], 6, backend="cpu-bk", devices=[0])
    flow, masks, _ = gcut.solve_slabs([(z + 3, z + 1, None), (z + 2, z + 5, None)], 6)
    assert flow == 24 * 1 + 24 * 2 and masks[0].all() and not masks[1].any()
