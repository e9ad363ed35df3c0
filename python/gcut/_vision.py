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
