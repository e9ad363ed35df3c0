"""Multi-view stereo on numpy images (gcut/vision/mvs.h, docs/multiview.md):
multi-baseline stereo of rectified views on a line, and a plane sweep over
calibrated cameras. Both are experimental in the C library (their options
may still change), and so are these entry points."""

from __future__ import annotations

import os
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import UnsupportedError, _gcut
from ._vision import _STEREO_COSTS, _STEREO_SMOOTH, _image

_COMBINE = {"mean": 0, "best": 1, "side": 2}
_SWEEP_SMOOTH = {"potts": 0, "linear": 1, "tl": 1}


class Camera(NamedTuple):
    """A pinhole camera: pixel (u, v, 1) ~ K (R X + t) (gcut_camera)."""
    name: str
    K: np.ndarray  #: 3x3 intrinsics
    R: np.ndarray  #: 3x3 rotation, world to camera
    t: np.ndarray  #: translation (3,)


def _need_vision() -> None:
    if not getattr(_gcut, "HAVE_VISION", 0) or not hasattr(_gcut, "mbs"):
        raise UnsupportedError("this build of gcut has no vision layer (libgcut_vision)")


def _images(name: str, images: Sequence[Any]) -> List[Tuple[np.ndarray, int, int, int, int]]:
    out = []
    for i, im in enumerate(images):
        try:
            out.append(_image(im))
        except (TypeError, ValueError) as e:
            raise type(e)(f"{name}[{i}]: {e}") from None
    return out


def multi_baseline(reference: Any, views: Sequence[Any], baselines: Sequence[float],
                   ndisp: int = 16, *, cost: str = "bt", smooth: str = "linear",
                   lambda_: int = 5, trunc: int = 20, tl_trunc: int = 2, combine: str = "side",
                   keep: int = 0, swap: bool = False, max_cycles: int = 20,
                   backend: str = "auto", with_stats: bool = False) -> Any:
    """Disparity map of ``reference`` from several rectified ``views`` on a
    line (gcut_mbs_match): the reference pixel (x, y) at disparity d is seen
    in ``views[i]`` at (x - baselines[i] * d, y); baselines are signed,
    non-zero, possibly fractional. ``combine``: "side" (default: all views,
    the left ones or the right ones, whichever matches best: occlusions hide
    a point on one side only), "best" (the ``keep`` best views) or "mean".
    Images: one shape, uint8/uint16, gray or colour. Returns float32
    whole-pixel disparities (H, W); with one view and baseline 1 the result
    is ``gcut.stereo(reference, view)``'s. GIL released."""
    _need_vision()
    if combine not in _COMBINE:
        raise ValueError(f"combine: {combine!r} is not one of {sorted(_COMBINE)}")
    if cost not in _STEREO_COSTS or smooth not in _STEREO_SMOOTH:
        raise ValueError(f"cost must be one of {sorted(_STEREO_COSTS)} and smooth one of "
                         f"{sorted(_STEREO_SMOOTH)}")
    imgs = _images("images", [reference, *views])
    if len(baselines) != len(views):
        raise ValueError(f"baselines: {len(baselines)} for {len(views)} views")
    h, w = imgs[0][2], imgs[0][1]
    labels, stats = _gcut.mbs([tuple(im) for im in imgs], [float(b) for b in baselines],
                              int(ndisp), _STEREO_COSTS[cost], _STEREO_SMOOTH[smooth],
                              int(lambda_), int(trunc), int(tl_trunc), _COMBINE[combine],
                              int(keep), int(bool(swap)), int(max_cycles), backend)
    out = np.frombuffer(labels, dtype=np.int32).reshape(h, w).astype(np.float32)
    return (out, stats) if with_stats else out


def read_cameras(path: Union[str, "os.PathLike[str]"]) -> List[Camera]:
    """Cameras of a Middlebury multi-view ``*_par.txt`` file (gcut_cameras_load)."""
    _need_vision()
    out = []
    for name, nums in _gcut.read_cameras(os.fspath(path)):
        a = np.array(nums, dtype=np.float64)
        out.append(Camera(name, a[:9].reshape(3, 3), a[9:18].reshape(3, 3), a[18:21].copy()))
    return out


def _camera_numbers(i: int, c: Any) -> Tuple[float, ...]:
    if isinstance(c, dict):
        k, r, t = c["K"], c["R"], c["t"]
    else:
        k, r, t = c.K, c.R, c.t
    a = [np.asarray(k, dtype=np.float64), np.asarray(r, dtype=np.float64),
         np.asarray(t, dtype=np.float64)]
    if a[0].shape != (3, 3) or a[1].shape != (3, 3) or a[2].size != 3:
        raise ValueError(f"cameras[{i}]: K and R must be 3x3 and t have 3 entries")
    if not all(np.all(np.isfinite(x)) for x in a):
        raise ValueError(f"cameras[{i}]: non-finite numbers")
    return tuple(float(v) for v in np.concatenate([x.ravel() for x in a]))


def plane_sweep(images: Sequence[Any], cameras: Sequence[Any], znear: float, zfar: float,
                ndepth: int = 96, *, radius: int = 2, ncc_trunc: int = 60, keep: int = 0,
                mask_threshold: int = -1, smooth: str = "linear", lambda_: int = 12,
                tl_trunc: int = 3, max_cycles: int = 20, backend: str = "auto",
                with_stats: bool = False) -> Any:
    """Depth map of ``images[0]`` by a plane sweep over ``ndepth`` planes
    uniform in inverse depth between ``znear`` and ``zfar`` (gcut_sweep_depth):
    NCC photo-consistency of a (2 radius + 1)^2 window against every other
    view, the best ``keep`` views (0: half), contrast-sensitive smoothness,
    alpha-expansion. ``cameras``: one per image (``gcut.Camera``, or dicts
    with K, R, t; ``read_cameras`` reads Middlebury files). Pixels whose
    channels are all <= ``mask_threshold`` are masked (label -1, depth 0).
    Returns (labels int32 (H, W), depth float64 (H, W)). GIL released."""
    _need_vision()
    if smooth not in _SWEEP_SMOOTH:
        raise ValueError(f"smooth: {smooth!r} is not one of {sorted(_SWEEP_SMOOTH)}")
    if len(cameras) != len(images):
        raise ValueError(f"cameras: {len(cameras)} for {len(images)} images")
    if not (0 < float(znear) < float(zfar)):
        raise ValueError(f"depth range: expected 0 < znear < zfar, got {znear}, {zfar}")
    imgs = _images("images", images)
    cams = [_camera_numbers(i, c) for i, c in enumerate(cameras)]
    h, w = imgs[0][2], imgs[0][1]
    labels, depth, stats = _gcut.sweep([tuple(im) for im in imgs], cams, int(ndepth),
                                       float(znear), float(zfar), int(radius), int(ncc_trunc),
                                       int(keep), int(mask_threshold), _SWEEP_SMOOTH[smooth],
                                       int(lambda_), int(tl_trunc), int(max_cycles), backend)
    lab = np.frombuffer(labels, dtype=np.int32).reshape(h, w).copy()
    dep = np.frombuffer(depth, dtype=np.float64).reshape(h, w).copy()
    return (lab, dep, stats) if with_stats else (lab, dep)


def load_image(path: Union[str, "os.PathLike[str]"]) -> np.ndarray:
    """Read an image file with gcut's decoders (PNG, JPEG, PNM, PFM as the
    library was built: gcut_image_load): uint8 or uint16, (H, W) gray or
    (H, W, C) colour."""
    _need_vision()
    data, w, h, c, d = _gcut.load_image(os.fspath(path))
    a = np.frombuffer(data, dtype=np.uint8 if d == 8 else np.uint16)
    return a.reshape((h, w) if c == 1 else (h, w, c))


def save_image(path: Union[str, "os.PathLike[str]"], image: Any) -> None:
    """Write an image (uint8/uint16, (H, W) or (H, W, 3|4); a bool mask is
    written as 0/255); the format follows the extension (gcut_image_save)."""
    _need_vision()
    a = np.asarray(image)
    if a.dtype == np.bool_:
        a = a.astype(np.uint8) * 255
    img, w, h, c, d = _image(a)
    _gcut.save_image(os.fspath(path), img, w, h, c, d)
