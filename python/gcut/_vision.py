"""Vision entry points on numpy images (libgcut_vision, gcut/vision/segment.h):
one cut from seeds, and GrabCut from a rectangle or seeds."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from . import UnsupportedError, _gcut, _host_array

SEED_UNKNOWN, SEED_FG, SEED_BG = 0, 1, 2
_MODELS = {"gmm": 0, "histogram": 1}


def _image(image: Any, name: str = "image") -> Tuple[np.ndarray, int, int, int, int]:
    img = _host_array(name, image)
    if img.dtype not in (np.uint8, np.uint16):
        raise TypeError(f"image: dtype {img.dtype}; expected uint8 or uint16 samples")
    if img.ndim == 2:
        c = 1
    elif img.ndim == 3 and img.shape[2] in (1, 3, 4):
        c = img.shape[2]
    else:
        raise ValueError(f"image: shape {img.shape}; expected (H, W), (H, W, 3) or (H, W, 4)")
    h, w = img.shape[:2]
    return np.ascontiguousarray(img), w, h, c, 8 * img.dtype.itemsize


def _seeds(seeds: Any, rect: Optional[Sequence[int]], w: int, h: int) -> np.ndarray:
    if (seeds is None) == (rect is None):
        raise TypeError("give exactly one of rect=(x, y, width, height) and seeds=")
    if rect is not None:
        x, y, rw, rh = (int(v) for v in rect)
        return np.frombuffer(_gcut.seeds_from_rect(w, h, x, y, rw, rh), dtype=np.uint8)
    s = _host_array("seeds", seeds)
    if s.shape != (h, w):
        raise ValueError(f"seeds: shape {s.shape}, expected {(h, w)}")
    if s.dtype.kind not in "iub":
        raise TypeError(f"seeds: dtype {s.dtype}; expected integers 0 (unknown), 1 (fg), 2 (bg)")
    if s.size and (int(s.min()) < 0 or int(s.max()) > 2):
        raise ValueError("seeds: values must be 0 (unknown), 1 (foreground) or 2 (background)")
    return np.ascontiguousarray(s, dtype=np.uint8)


def _run(image: Any, seeds: Any, rect: Any, iterations: int, lambda_: float,
         connectivity: int, model: str, components: int, backend: str,
         with_stats: bool) -> Any:
    if not getattr(_gcut, "HAVE_VISION", 0):
        raise UnsupportedError("this build of gcut has no vision layer (libgcut_vision)")
    img, w, h, c, d = _image(image)
    s = _seeds(seeds, rect, w, h)
    if model not in _MODELS:
        raise ValueError(f"model: {model!r} is not one of {sorted(_MODELS)}")
    mask, stats = _gcut.segment(img, w, h, c, d, s, int(iterations), float(lambda_),
                                int(connectivity), _MODELS[model], int(components), backend)
    out = (np.frombuffer(mask, dtype=np.uint8) != 0).reshape(h, w)
    return (out, stats) if with_stats else out


def segment(image: Any, seeds: Any = None, *, rect: Optional[Sequence[int]] = None,
            lambda_: float = 50.0, connectivity: int = 8, model: str = "gmm",
            components: int = 5, backend: str = "auto", with_stats: bool = False) -> Any:
    """One graph cut of ``image`` (uint8/uint16, (H, W) gray or (H, W, 3|4)
    colour) from colour models learnt from ``seeds`` ((H, W): 0 unknown,
    1 foreground, 2 background; hard constraints) or a ``rect`` (x, y,
    width, height: outside is background). Returns a bool mask (True =
    foreground), and the statistics with ``with_stats=True``. GIL released."""
    return _run(image, seeds, rect, 0, lambda_, connectivity, model, components, backend,
                with_stats)


def grabcut(image: Any, rect: Optional[Sequence[int]] = None, *, seeds: Any = None,
            iterations: int = 5, lambda_: float = 35.0, connectivity: int = 8,
            model: str = "gmm", components: int = 5, backend: str = "auto",
            with_stats: bool = False) -> Any:
    """GrabCut (Rother et al. 2004) on ``image`` from a rectangle ``rect`` =
    (x, y, width, height) or ``seeds`` (as ``segment``): up to
    ``iterations`` rounds of model re-estimation and cuts (gcut_grabcut).
    ``lambda_`` defaults to GrabCut's 35 (gcut_grabcut_options_init; one
    cut from seeds, ``segment`` and ``Segmentation``: 50). Returns a bool
    mask, True = foreground. GIL released."""
    if not 1 <= int(iterations) <= 1000:
        raise ValueError(f"iterations: {iterations} is not in 1..1000")
    return _run(image, seeds, rect, iterations, lambda_, connectivity, model, components,
                backend, with_stats)


_LABELS = {"unknown": SEED_UNKNOWN, "fg": SEED_FG, "bg": SEED_BG,
           SEED_UNKNOWN: SEED_UNKNOWN, SEED_FG: SEED_FG, SEED_BG: SEED_BG}


class Segmentation:
    """Interactive segmentation of one image (gcut_seg_session): the colour
    models are learnt once from the first seeds (or ``rect``); strokes then
    change only the t-links of their pixels and ``solve()`` re-solves warm,
    with exactly the answer of a cold solve. ``grabcut(n)`` re-learns the
    models from the current labelling and cuts again. The session copies
    the image and the seeds. GIL released while solving.

    >>> s = gcut.Segmentation(image, rect=(20, 10, 60, 60))
    >>> mask = s.grabcut(5)
    >>> s.add_stroke("bg", stroke_mask)   # the user paints background
    >>> mask = s.solve()                   # warm
    """

    def __init__(self, image: Any, seeds: Any = None, *, rect: Optional[Sequence[int]] = None,
                 lambda_: float = 50.0, connectivity: int = 8, model: str = "gmm",
                 components: int = 5, backend: str = "auto") -> None:
        if not getattr(_gcut, "HAVE_VISION", 0):
            raise UnsupportedError("this build of gcut has no vision layer (libgcut_vision)")
        img, w, h, c, d = _image(image)
        if model not in _MODELS:
            raise ValueError(f"model: {model!r} is not one of {sorted(_MODELS)}")
        s = _seeds(seeds, rect, w, h)
        self.shape = (h, w)
        self.stats: Optional[Dict[str, Any]] = None
        self._s = _gcut.Session(img, w, h, c, d, s, float(lambda_), int(connectivity),
                                _MODELS[model], int(components), backend)

    def add_stroke(self, label: Any, where: Any) -> None:
        """Make the pixels of ``where`` (a bool mask of the image's shape, a
        tuple of index arrays, or flat pixel ids) seeds of ``label`` ("fg",
        "bg" or "unknown" to erase; or 1, 2, 0). The models are kept."""
        if label not in _LABELS:
            raise ValueError(f"label: {label!r} is not 'fg', 'bg' or 'unknown'")
        if isinstance(where, np.ndarray) and where.dtype == np.bool_:
            if where.shape != self.shape:
                raise ValueError(f"where: mask of shape {where.shape}, expected {self.shape}")
            ids = np.flatnonzero(where)
        elif isinstance(where, tuple):
            ids = np.ravel_multi_index(tuple(np.asarray(i) for i in where), self.shape)
        else:
            ids = np.asarray(where).ravel()
        from . import _as_int32
        self._s.add_stroke(_LABELS[label], _as_int32("where", ids, ids=True).ravel())

    def set_seeds(self, seeds: Any) -> None:
        """Replace every seed ((H, W): 0 unknown, 1 fg, 2 bg); the models are kept."""
        self._s.set_seeds(_seeds(seeds, None, self.shape[1], self.shape[0]))

    def _mask(self, out: Any) -> np.ndarray:
        mask, self.stats = out
        return (np.frombuffer(mask, dtype=np.uint8) != 0).reshape(self.shape)

    def solve(self) -> np.ndarray:
        """Cut with the current models and seeds (warm after strokes); bool mask."""
        return self._mask(self._s.solve(0))

    def grabcut(self, iterations: int = 5) -> np.ndarray:
        """Up to ``iterations`` GrabCut iterations from the current labelling."""
        if not 1 <= int(iterations) <= 1000:
            raise ValueError(f"iterations: {iterations} is not in 1..1000")
        return self._mask(self._s.solve(int(iterations)))


_PAIRWISE = {"potts": 0, "linear": 1, "quadratic": 2}


def _mrf(unary: Any, pairwise: Any, lambda_: int, trunc: Optional[int], weights: Any,
         labels: Any, connectivity: Optional[int], max_cycles: int, backend: str,
         with_stats: bool, swap: bool) -> Any:
    if not getattr(_gcut, "HAVE_VISION", 0):
        raise UnsupportedError("this build of gcut has no vision layer (libgcut_vision)")
    from . import _as_int32
    u = _as_int32("unary", unary, floats="exact")
    if u.ndim not in (3, 4):
        raise ValueError(f"unary: expected shape (H, W, L) or (D, H, W, L), got {u.shape}")
    shape, nl = u.shape[:-1], u.shape[-1]
    d, h, w = (1,) + shape if len(shape) == 2 else shape
    conn = connectivity if connectivity is not None else (4 if len(shape) == 2 else 6)
    table = None
    if isinstance(pairwise, str):
        if pairwise not in _PAIRWISE:
            raise ValueError(f"pairwise: {pairwise!r} is not one of {sorted(_PAIRWISE)} "
                             "or an (L, L) table")
        kind = _PAIRWISE[pairwise]
    else:
        kind = 3
        table = _as_int32("pairwise", pairwise, floats="exact")
        if table.shape != (nl, nl):
            raise ValueError(f"pairwise: a table of shape {(nl, nl)} expected, got {table.shape}")
    wl = None
    if weights is not None:
        wa = _as_int32("weights", weights, floats="exact")
        if wa.shape == shape:
            wl = [wa] * (conn // 2)
        elif wa.shape == (conn // 2,) + shape:
            wl = [np.ascontiguousarray(wa[j]) for j in range(conn // 2)]
        else:
            raise ValueError(f"weights: expected shape {shape} or {(conn // 2,) + shape}, "
                             f"got {wa.shape}")
    if labels is None:
        start = np.zeros(shape, dtype=np.int32)
    else:
        start = _as_int32("labels", labels, ids=True)
        if start.shape != shape:
            raise ValueError(f"labels: expected shape {shape}, got {start.shape}")
    out, stats = _gcut.mrf(u, w, h, d, int(conn), nl, kind, int(lambda_),
                           int(trunc if trunc is not None else nl), table, wl, start,
                           int(bool(swap)), int(max_cycles), backend)
    result = np.frombuffer(out, dtype=np.int32).reshape(shape)
    return (result, stats) if with_stats else result


def alpha_expansion(unary: Any, pairwise: Any = "potts", lambda_: int = 1,
                    trunc: Optional[int] = None, *, weights: Any = None, labels: Any = None,
                    connectivity: Optional[int] = None, max_cycles: int = 20,
                    backend: str = "auto", with_stats: bool = False) -> Any:
    """Multi-label energy minimisation by alpha-expansion (gcut/vision/mrf.h).

    ``unary``: int costs of shape (H, W, L) or (D, H, W, L), each in
    [0, 2^28]; ``pairwise``: "potts" (lambda [a != b]), "linear"
    (lambda min(|a - b|, trunc)), "quadratic" (lambda min((a - b)^2, trunc):
    not a metric past trunc 2, use ``alpha_beta_swap``) or an (L, L) int
    table V(a, b) (a metric for expansion); ``weights`` (optional, per pair:
    an array of the grid's shape, or one per even direction) multiply V;
    ``labels``: the start labelling (default all 0). Returns the labelling
    (int32, the grid's shape), and the statistics (energies are exact
    int64) with ``with_stats=True``. GIL released."""
    return _mrf(unary, pairwise, lambda_, trunc, weights, labels, connectivity, max_cycles,
                backend, with_stats, False)


def alpha_beta_swap(unary: Any, pairwise: Any = "potts", lambda_: int = 1,
                    trunc: Optional[int] = None, *, weights: Any = None, labels: Any = None,
                    connectivity: Optional[int] = None, max_cycles: int = 20,
                    backend: str = "auto", with_stats: bool = False) -> Any:
    """Alpha-beta swap moves, as ``alpha_expansion``; V must be a semi-metric."""
    return _mrf(unary, pairwise, lambda_, trunc, weights, labels, connectivity, max_cycles,
                backend, with_stats, True)


_STEREO_COSTS = {"bt": 0, "ad": 1, "census": 2}
_STEREO_SMOOTH = {"potts": 0, "linear": 1}


def stereo(left: Any, right: Any, ndisp: int = 16, *, cost: Optional[str] = None,
           smooth: Optional[str] = None, lambda_: Optional[int] = None,
           trunc: Optional[int] = None, tl_trunc: Optional[int] = None, swap: bool = False,
           lr_check: Optional[bool] = None, max_cycles: int = 20, backend: str = "auto",
           with_stats: bool = False) -> Any:
    """Disparity map of a rectified pair (gcut_stereo_match, docs/stereo.md):
    disparity d at left pixel (x, y) matches right pixel (x - d, y).

    ``left``, ``right``: images of one shape (uint8 or uint16; gray or
    colour), read in place; ``ndisp`` disparities 0 .. ndisp-1; ``cost``
    "census", "bt" or "ad"; ``smooth`` "linear" (lambda min(|a-b|, tl_trunc))
    or "potts"; ``lr_check``: also solve the right view and fill the
    occluded pixels from the background side. Every setting left at None
    takes the library's default (gcut_stereo_options_init: census, linear,
    lambda 10, trunc 20, tl_trunc 2, lr_check True). Returns a float32 array of
    whole-pixel disparities (no sub-pixel refinement), and the statistics
    with ``with_stats=True``. GIL released."""
    if not getattr(_gcut, "HAVE_VISION", 0):
        raise UnsupportedError("this build of gcut has no vision layer (libgcut_vision)")
    lft, w, h, c, d = _image(left, "left")
    rgt = _image(right, "right")
    if rgt[0].shape != lft.shape or rgt[0].dtype != lft.dtype:
        raise ValueError(f"right: shape {rgt[0].shape} {rgt[0].dtype}, expected the left "
                         f"image's {lft.shape} {lft.dtype}")
    if (cost is not None and cost not in _STEREO_COSTS) or \
            (smooth is not None and smooth not in _STEREO_SMOOTH):
        raise ValueError(f"cost must be one of {sorted(_STEREO_COSTS)} and smooth one of "
                         f"{sorted(_STEREO_SMOOTH)}")
    def dflt(v: Any) -> int:  # -1: the library's default
        return -1 if v is None else int(v)
    disp, stats = _gcut.stereo(lft, rgt[0], w, h, c, d, int(ndisp),
                               -1 if cost is None else _STEREO_COSTS[cost],
                               -1 if smooth is None else _STEREO_SMOOTH[smooth], dflt(lambda_),
                               dflt(trunc), dflt(tl_trunc), int(bool(swap)),
                               -1 if lr_check is None else int(bool(lr_check)), int(max_cycles),
                               backend)
    out = np.frombuffer(disp, dtype=np.int32).reshape(h, w).astype(np.float32)
    return (out, stats) if with_stats else out
