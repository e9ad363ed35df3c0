"""Vision entry points on numpy images (libgcut_vision, gcut/vision/segment.h):
one cut from seeds, and GrabCut from a rectangle or seeds."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from . import UnsupportedError, _gcut

SEED_UNKNOWN, SEED_FG, SEED_BG = 0, 1, 2
_MODELS = {"gmm": 0, "histogram": 1}


def _image(image: Any) -> Tuple[np.ndarray, int, int, int, int]:
    img = np.asarray(image)
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
    s = np.asarray(seeds)
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
            iterations: int = 5, lambda_: float = 50.0, connectivity: int = 8,
            model: str = "gmm", components: int = 5, backend: str = "auto",
            with_stats: bool = False) -> Any:
    """GrabCut (Rother et al. 2004) on ``image`` from a rectangle ``rect`` =
    (x, y, width, height) or ``seeds`` (as ``segment``): up to
    ``iterations`` rounds of model re-estimation and cuts (gcut_grabcut).
    Returns a bool mask, True = foreground. GIL released."""
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
