"""Shared helpers of the gcut pytest suite (run by `make test` through CTest:
python_pytest, with PYTHONPATH pointing at build/python)."""

import itertools

import numpy as np
import pytest


def brute_force(n, src, dst, cap, rev, tsrc, tsink):
    """Minimum cut by enumeration (n <= 12): (value, canonical cut).

    The canonical cut's sink side is the smallest one among the minimum cuts
    (the nodes that reach the sink in the residual graph of any maximum
    flow): the intersection of the sink sides of all minimum cuts."""
    best, sides = None, []
    for bits in itertools.product((0, 1), repeat=n):
        x = np.array(bits, dtype=np.uint8)
        val = int(np.sum(np.where(x == 0, tsink, 0)) + np.sum(np.where(x == 1, tsrc, 0)))
        for u, v, c, r in zip(src, dst, cap, rev):
            if x[u] == 0 and x[v] == 1:
                val += int(c)
            elif x[u] == 1 and x[v] == 0:
                val += int(r)
        if best is None or val < best:
            best, sides = val, [x]
        elif val == best:
            sides.append(x)
    canon = np.ones(n, dtype=np.uint8)
    for x in sides:
        canon &= x
    return best, canon


def random_graph(rng, n, m, cmax=20):
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    cap = rng.integers(0, cmax, m).astype(np.int32)
    rev = rng.integers(0, cmax, m).astype(np.int32)
    tsrc = (rng.integers(0, cmax, n) * (rng.random(n) < 0.5)).astype(np.int32)
    tsink = (rng.integers(0, cmax, n) * (rng.random(n) < 0.5)).astype(np.int32)
    return src, dst, cap, rev, tsrc, tsink


@pytest.fixture
def rng():
    return np.random.default_rng(20261125)


def grid_arrays(rng, shape, conn):
    """A random energy on a grid of `shape` and its raw arrays, for the
    slab tests: (problem solved by cpu-ref, its mask, source caps, sink
    caps, [caps of each direction])."""
    import gcut
    p = gcut.GridProblem(shape, conn)
    p.set_energy(rng.integers(0, 60, size=shape), rng.integers(0, 60, size=shape),
                 rng.integers(0, 30, size=shape))
    whole = p.solve(backend="cpu-ref")
    return (p, whole, p.caps(gcut._gcut.SOURCE_LINK), p.caps(gcut._gcut.SINK_LINK),
            [p.caps(d) for d in range(conn)])
