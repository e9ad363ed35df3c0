"""gcut.match: maximum bipartite matching with the König certificate."""

import itertools

import numpy as np
import pytest

import gcut


def brute_max_matching(n_rows, n_cols, edges):
    edges = sorted(set(edges))
    for k in range(min(n_rows, n_cols), 0, -1):
        for sub in itertools.combinations(edges, k):
            if len({r for r, _ in sub}) == k and len({c for _, c in sub}) == k:
                return k
    return 0


@pytest.mark.parametrize("backend", ["auto", "cpu-match-pr", "cpu-match-hk"])
def test_random_against_brute_force(rng, backend):
    for trial in range(25):
        nr, nc = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        m = int(rng.integers(0, 10))
        rows = rng.integers(0, nr, m)
        cols = rng.integers(0, nc, m)
        res = gcut.match(rows, cols, nr, nc, backend=backend)
        assert res.cardinality == brute_max_matching(nr, nc, list(zip(rows, cols)))
        assert res.row_mates.shape == (nr,) and res.col_mates.shape == (nc,)
        pairs = [(r, c) for r, c in enumerate(res.row_mates) if c >= 0]
        assert len(pairs) == res.cardinality
        for r, c in pairs:
            assert res.col_mates[c] == r
            assert any(rows[e] == r and cols[e] == c for e in range(m))
        # the König cover: as many vertices as matched pairs, touching every edge
        assert int(res.cover_rows.sum() + res.cover_cols.sum()) == res.cardinality
        for r, c in zip(rows, cols):
            assert res.cover_rows[r] or res.cover_cols[c]


def test_sizes_default_and_errors():
    res = gcut.match([0, 1, 2], [2, 1, 0])
    assert res.cardinality == 3 and res.row_mates.tolist() == [2, 1, 0]
    with pytest.raises(gcut.InvalidError, match="out of range|edge"):
        gcut.match([0, 5], [0, 0], 2, 2)
    with pytest.raises(ValueError, match="entries"):
        gcut.match([0, 1], [0], 2, 2)
    with pytest.raises(TypeError):
        gcut.match([0.5], [0], 1, 1)
    with pytest.raises(gcut.NotFoundError):
        gcut.match([0], [0], 1, 1, backend="nope")


def test_scipy_sparse():
    sp = pytest.importorskip("scipy.sparse")
    a = sp.csr_matrix(np.array([[1, 1, 0], [1, 0, 0], [0, 0, 0]]))
    res = gcut.match(a)
    assert res.cardinality == 2 and res.row_mates.shape == (3,) and res.col_mates.shape == (3,)
