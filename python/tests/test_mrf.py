"""gcut.alpha_expansion and gcut.alpha_beta_swap on numpy costs, against
energies computed here and brute force on tiny grids."""

import itertools

import numpy as np
import pytest

import gcut

if not getattr(gcut._gcut, "HAVE_VISION", 0):
    pytest.skip("built without libgcut_vision", allow_module_level=True)


def energy(labels, unary, V, weights=None):
    """E(f) = sum D_v(f_v) + sum over 4-neighbour pairs w V(f_v, f_u), pairs from
    v towards +x and +y with weight w[v] (default 1)."""
    h, w = labels.shape
    wt = np.ones((h, w), np.int64) if weights is None else weights
    e = int(np.take_along_axis(unary, labels[..., None], axis=2).sum())
    e += int((wt[:, :-1] * V[labels[:, :-1], labels[:, 1:]]).sum())
    e += int((wt[:-1, :] * V[labels[:-1, :], labels[1:, :]]).sum())
    return e


def brute(unary, V, weights=None):
    h, w, nl = unary.shape
    return min(energy(np.array(f).reshape(h, w), unary, V, weights)
               for f in itertools.product(range(nl), repeat=h * w))


@pytest.mark.parametrize("kind", ["potts", "linear", "table"])
def test_expansion_within_its_bound(rng, kind):
    nl = 3
    lam = 4
    idx = np.arange(nl)
    if kind == "potts":
        V = lam * (idx[:, None] != idx[None, :])
        pairwise, factor = "potts", 2
    elif kind == "linear":
        V = lam * np.minimum(np.abs(idx[:, None] - idx[None, :]), 2)
        pairwise, factor = "linear", 2 * 2
    else:
        V = lam * np.minimum(np.abs(idx[:, None] - idx[None, :]), 1) * 3
        pairwise, factor = V, 2
    for trial in range(6):
        unary = rng.integers(0, 12, (2, 3, nl))
        weights = rng.integers(1, 3, (2, 3))
        labels, st = gcut.alpha_expansion(unary, pairwise, lam if kind != "table" else 1,
                                          trunc=2 if kind == "linear" else None,
                                          weights=weights, with_stats=True)
        assert labels.shape == (2, 3) and labels.dtype == np.int32
        e = energy(labels, unary, V, weights)
        assert e == st["energy"] and st["energy"] <= st["initial_energy"]
        assert e <= factor * brute(unary, V, weights)


def test_swap_quadratic_and_local_optimum(rng):
    nl = 4
    idx = np.arange(nl)
    V = 2 * np.minimum((idx[:, None] - idx[None, :]) ** 2, 4)
    unary = rng.integers(0, 20, (5, 6, nl))
    labels, st = gcut.alpha_beta_swap(unary, "quadratic", 2, trunc=4, with_stats=True)
    e = energy(labels, unary, V)
    assert e == st["energy"]
    # no single-node change lowers E (a swap optimum is also one for single moves)
    for y, x, l in itertools.product(range(5), range(6), range(nl)):
        f = labels.copy()
        f[y, x] = l
        assert energy(f, unary, V) >= e
    with pytest.raises(gcut.InvalidError, match="metric"):
        gcut.alpha_expansion(unary, "quadratic", 2, trunc=4)


def test_start_labels_and_errors(rng):
    unary = rng.integers(0, 10, (4, 4, 3))
    start = np.full((4, 4), 2)
    labels, st = gcut.alpha_expansion(unary, labels=start, with_stats=True, max_cycles=1)
    idx = np.arange(3)
    assert st["initial_energy"] == energy(start.astype(np.int64), unary,
                                          (idx[:, None] != idx[None, :]).astype(np.int64))
    with pytest.raises(ValueError, match="unary"):
        gcut.alpha_expansion(np.zeros((4, 4)))
    with pytest.raises(ValueError, match="table"):
        gcut.alpha_expansion(unary, np.zeros((2, 2), int))
    with pytest.raises(gcut.InvalidError):
        gcut.alpha_expansion(unary, labels=np.full((4, 4), 7))
    with pytest.raises(gcut.InvalidError):
        gcut.alpha_expansion(unary - 20)
    with pytest.raises(TypeError, match="fractional"):
        gcut.alpha_expansion(unary + 0.5)


def stereo_pair(rng, h=40, w=64, d_bg=2, d_fg=6):
    """A random-texture pair: a background at disparity d_bg and a square at d_fg."""
    right = rng.integers(0, 256, (h, w + 16)).astype(np.uint8)
    truth = np.full((h, w), d_bg)
    truth[12:28, 24:44] = d_fg
    xs = np.arange(w)[None, :] - truth + 8  # left (x, y) matches right (x - d, y)
    left = np.take_along_axis(right, xs, axis=1)
    return np.ascontiguousarray(left), np.ascontiguousarray(right[:, 8:8 + w]), truth


def test_stereo_recovers_a_synthetic_pair(rng):
    left, right, truth = stereo_pair(rng)
    disp, st = gcut.stereo(left, right, ndisp=10, with_stats=True)
    assert disp.dtype == np.float32 and disp.shape == truth.shape
    inner = (slice(None), slice(10, None))  # left border columns have no match
    assert (disp[inner] == truth[inner]).mean() > 0.95
    assert st["energy"] <= st["initial_energy"]
    rgb = np.repeat(left[..., None], 3, axis=2), np.repeat(right[..., None], 3, axis=2)
    disp3 = gcut.stereo(*rgb, ndisp=10)
    assert (disp3[inner] == truth[inner]).mean() > 0.95
    swap = gcut.stereo(left, right, ndisp=10, swap=True, smooth="potts", cost="ad")
    assert (swap[inner] == truth[inner]).mean() > 0.9
    lr = gcut.stereo(left, right, ndisp=10, lr_check=True)
    assert (lr[inner] == truth[inner]).mean() > 0.9
    # the defaults are the library's (gcut_stereo_options_init): census,
    # lambda 10, the left-right check
    assert np.array_equal(disp, gcut.stereo(left, right, ndisp=10, cost="census", lambda_=10,
                                            smooth="linear", lr_check=True))
    one = gcut.stereo(left, right, ndisp=10, lr_check=False)
    assert (one[inner] == truth[inner]).mean() > 0.95
    with pytest.raises(ValueError, match="right"):
        gcut.stereo(left, right[:, :-1])
    with pytest.raises(ValueError, match="cost"):
        gcut.stereo(left, right, cost="ssd")
    with pytest.raises(gcut.InvalidError):
        gcut.stereo(left, right, ndisp=1)
