"""Grids whose arrays live on a GPU: CuPy, PyTorch, JAX or any object with
``__cuda_array_interface__`` or DLPack, solved by cuda-grid from the device
buffers (gcut/device.h), the mask returned on the device.

The rule for device arrays
--------------------------
* An array with ``__cuda_array_interface__`` (CuPy, PyTorch CUDA tensors,
  Numba) or ``__dlpack__`` on a CUDA device (JAX, PyTorch, CuPy) is read in
  place when it is C-contiguous int32 or float32.
* Anything else on the device (another dtype, a strided view) is converted
  once *on the device* by its own framework (``tensor.to(...)
  .contiguous()`` for PyTorch, ``cupy.ascontiguousarray`` for CuPy); an
  object of another framework must come as int32/float32 and contiguous,
  else ``TypeError``.
* Host arrays are never copied to the device behind the caller's back, and
  device arrays never to the host: with no device back end (no GPU, no
  plugin), or with a CPU back end named, ``UnavailableError`` /
  ``ValueError`` say so, unless the caller passes ``allow_host_copy=True``,
  which solves on the host and returns the mask on the arrays' device.

Streams
-------
``__cuda_array_interface__`` version 3 names the stream that produced an
array: the solver waits for that stream's queued work before it reads (no
synchronisation needed by the caller). DLPack arrays are exported for the
legacy default stream, which the solver also waits for. The call returns
when the mask is written, so any stream may read it then.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _gcut

HAVE_DEVICE = bool(getattr(_gcut, "HAVE_DEVICE", 0))

_KDL_CUDA, _KDL_CUDA_MANAGED = 2, 13
_TYPESTRS = {"<i4": "int32", "<f4": "float32", "|b1": "bool", "|u1": "uint8"}


class DeviceView:
    """A device array read in place: pointer, shape, dtype name, device id,
    the producer's stream (0: none / legacy), and what keeps it alive."""

    __slots__ = ("ptr", "shape", "dtype", "device", "stream", "keep", "source")

    def __init__(self, ptr: int, shape: Tuple[int, ...], dtype: str, device: int, stream: int,
                 keep: Any, source: Any) -> None:
        self.ptr, self.shape, self.dtype, self.device = ptr, shape, dtype, device
        self.stream, self.keep, self.source = stream, keep, source


def _framework(a: Any) -> str:
    mod = type(a).__module__.split(".")[0]
    return mod if mod in ("torch", "cupy", "jax", "jaxlib") else "other"


def is_device_array(a: Any) -> bool:
    """Whether ``a`` is an array in CUDA device memory."""
    if isinstance(a, np.ndarray):
        return False
    if hasattr(a, "__cuda_array_interface__"):
        try:
            a.__cuda_array_interface__
            return True
        except (AttributeError, RuntimeError, TypeError):  # e.g. a torch tensor on the CPU
            return False
    dev = getattr(a, "__dlpack_device__", None)
    if dev is not None:
        try:
            return dev()[0] in (_KDL_CUDA, _KDL_CUDA_MANAGED)
        except Exception:  # noqa: BLE001 - any failure: not a device array
            return False
    return False


def _c_contiguous(shape: Sequence[int], strides: Optional[Sequence[int]], item: int) -> bool:
    if strides is None:
        return True
    expect = item
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1 and stride != expect:
            return False
        expect *= size
    return True


def _convert(name: str, a: Any, want: str) -> Any:
    """Convert a device array to a C-contiguous `want` array on its own
    device with its own framework (one conversion), or raise TypeError."""
    fw = _framework(a)
    if fw == "torch":
        import torch  # the caller's framework: present since `a` is a tensor
        return a.to(dtype=getattr(torch, want)).contiguous()
    if fw == "cupy":
        import cupy
        return cupy.ascontiguousarray(a, dtype=want)
    if fw in ("jax", "jaxlib"):
        return a.astype(want)  # jax arrays are always contiguous
    raise TypeError(f"{name}: a device array of another dtype or layout than C-contiguous "
                    f"{want}; convert it on the device first")


def device_view(name: str, a: Any, want: Optional[str] = None) -> DeviceView:
    """Read a device array in place (after at most one conversion to `want`;
    None: int32 for integer arrays, float32 for floating ones)."""
    cai = getattr(a, "__cuda_array_interface__", None) if not isinstance(a, np.ndarray) else None
    if cai is not None:
        typestr = cai["typestr"]
        dtype = _TYPESTRS.get(typestr)
        shape = tuple(int(s) for s in cai["shape"])
        item = int(typestr[2:])
        if (want is not None and dtype != want) or dtype not in ("int32", "float32") or \
                not _c_contiguous(shape, cai.get("strides"), item):
            target = want or ("float32" if typestr[1] == "f" else "int32")
            conv = _convert(name, a, target)
            return device_view(name, conv, target)
        stream = cai.get("stream") if cai.get("version", 0) >= 3 else None
        ptr = int(cai["data"][0])
        device = _cai_device(a)
        return DeviceView(ptr, shape, dtype, device, int(stream or 0), a, a)
    dev = getattr(a, "__dlpack_device__", None)
    if dev is None:
        raise TypeError(f"{name}: not a device array")
    dtype_of = {(0, 32): "int32", (2, 32): "float32"}
    cap = a.__dlpack__(stream=1)  # ordered on the legacy default stream
    holder, ptr, dev_type, dev_id, (code, bits, lanes), shape, strides = \
        _gcut.dlpack_import(cap)
    dtype = dtype_of.get((code, bits)) if lanes == 1 else None
    if dev_type not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
        raise TypeError(f"{name}: a DLPack array on device type {dev_type}, not CUDA")
    if (want is not None and dtype != want) or dtype is None or \
            not _c_contiguous(shape, None if strides is None else
                              tuple(s * 4 for s in strides), 4):
        del holder
        target = want or ("float32" if code == 2 else "int32")
        conv = _convert(name, a, target)
        return device_view(name, conv, target)
    return DeviceView(ptr, tuple(shape), dtype, dev_id, 0, holder, a)


def _cai_device(a: Any) -> int:
    dev = getattr(a, "device", None)
    idx = getattr(dev, "index", None)  # torch
    if idx is not None:
        return int(idx)
    idx = getattr(dev, "id", None)  # cupy
    return int(idx) if idx is not None else 0


class DeviceArray:
    """A bool mask in device memory allocated by gcut (for frameworks gcut
    cannot allocate with); any framework reads it without a copy through
    ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or DLPack
    (``jax.dlpack.from_dlpack``, ``torch.from_dlpack``)."""

    def __init__(self, shape: Tuple[int, ...], device: int = 0) -> None:
        self.shape = tuple(int(s) for s in shape)
        self.device = device
        n = int(np.prod(self.shape)) if self.shape else 1
        self.ptr = _gcut.device_alloc(n)
        self._n = n

    def __del__(self) -> None:
        ptr = getattr(self, "ptr", 0)
        if ptr:
            _gcut.device_free(ptr)
            self.ptr = 0

    @property
    def __cuda_array_interface__(self) -> Dict[str, Any]:
        return {"shape": self.shape, "typestr": "|b1", "data": (self.ptr, False),
                "version": 3, "strides": None, "stream": None}

    def __dlpack__(self, stream: Any = None) -> Any:
        return _gcut.dlpack_export(self, self.ptr, self.shape, (6, 8), self.device)

    def __dlpack_device__(self) -> Tuple[int, int]:
        return (_KDL_CUDA, self.device)

    def get(self) -> np.ndarray:
        """A host copy (numpy bool array)."""
        out = np.empty(self.shape, dtype=np.bool_)
        _gcut.device_copy(out, self.ptr, self._n)
        return out


def _empty_mask(like: Any, shape: Tuple[int, ...], device: int) -> Tuple[Any, int]:
    """A bool array of `shape` on `like`'s device, of `like`'s framework where
    gcut can allocate with it; (array, pointer)."""
    fw = _framework(like)
    if fw == "torch":
        import torch
        out = torch.empty(shape, dtype=torch.bool, device=like.device)
        return out, int(out.data_ptr())
    if fw == "cupy":
        import cupy
        with cupy.cuda.Device(device):
            out = cupy.empty(shape, dtype=cupy.bool_)
        return out, int(out.data.ptr)
    out = DeviceArray(shape, device)
    if fw in ("jax", "jaxlib"):
        import jax.dlpack
        return jax.dlpack.from_dlpack(out), out.ptr
    return out, out.ptr


_local = threading.local()


def _solver(backend: str) -> Any:
    """This thread's device solver for `backend` (kept: the device arrays of
    the last shape are reused)."""
    cache = getattr(_local, "solvers", None)
    if cache is None:
        cache = _local.solvers = {}
    s = cache.get(backend)
    if s is None:
        s = cache[backend] = _gcut.DeviceSolver(None if backend == "auto" else backend)
    return s


def device_available() -> Tuple[bool, str]:
    """(True, "ok") when grids in device memory can be solved here, else
    (False, why)."""
    if not HAVE_DEVICE:
        return False, "this build of gcut has no device grids (gcut/device.h)"
    ok, why = _gcut.device_available()
    return bool(ok), why


class DeviceResult:
    """What a device solve reports (the mask itself stays on the device)."""

    __slots__ = ("flow", "backend", "stats", "quantization")

    def __init__(self, r: Any, q: Optional[Dict[str, Any]]) -> None:
        self.flow: int = r.flow
        self.backend: str = r.backend
        self.stats: Dict[str, Any] = r.stats
        self.quantization = q

    @property
    def energy(self) -> float:
        return self.quantization["energy"] if self.quantization else float(self.flow)

    def __repr__(self) -> str:
        return f"<gcut.DeviceResult flow={self.flow} backend={self.backend!r}>"


last_result: Dict[int, DeviceResult] = {}


def _host_copy(a: Any) -> np.ndarray:
    fw = _framework(a)
    if fw == "torch":
        return a.detach().cpu().numpy()
    if fw == "cupy":
        return a.get()
    if fw in ("jax", "jaxlib"):
        return np.asarray(a)
    v = device_view("array", a)  # another framework: copied by the plugin
    out = np.empty(v.shape, dtype=v.dtype)
    if not HAVE_DEVICE:
        from . import UnavailableError
        raise UnavailableError("no device copy in this build of gcut")
    _gcut.device_copy(out, v.ptr, out.nbytes)
    return out


def _to_device_like(mask: np.ndarray, like: Any) -> Any:
    fw = _framework(like)
    if fw == "torch":
        import torch
        return torch.from_numpy(mask).to(like.device)
    if fw == "cupy":
        import cupy
        return cupy.asarray(mask)
    if fw in ("jax", "jaxlib"):
        import jax
        return jax.device_put(mask, list(like.devices())[0])
    return mask


def grid_cut_device(cost_fg: Any, cost_bg: Any, pairwise: Any, connectivity: int,
                    backend: str, time_limit: float, progress: Dict[str, Any],
                    allow_host_copy: bool, host_solve: Any, scale: float = 0.0,
                    params: Optional[str] = None) -> Tuple[Any, Optional[DeviceResult]]:
    """grid_cut on device arrays: (mask on the device, report). `host_solve`
    is grid_cut's host path, for allow_host_copy."""
    cpu_named = backend not in ("auto", "cuda-grid")
    ok, why = device_available()
    if cpu_named or not ok:
        if not allow_host_copy:
            if cpu_named:
                raise ValueError(f"backend {backend!r} takes host arrays and these are on the "
                                 "GPU: pass backend='auto' or 'cuda-grid' to solve them where "
                                 "they are, or allow_host_copy=True to copy them to the host")
            from . import UnavailableError
            raise UnavailableError(f"the arrays are on the GPU but no device back end can "
                                   f"solve them here ({why}); pass allow_host_copy=True to "
                                   "solve on the host (two copies over PCIe)")
        args = [_host_copy(a) if is_device_array(a) else a for a in (cost_fg, cost_bg, pairwise)]
        mask = host_solve(*args, connectivity=connectivity,
                          backend="auto" if backend == "cuda-grid" else backend,
                          time_limit=time_limit or None)
        return _to_device_like(mask, cost_fg), None

    # the arrays' dtype decides (a float array is a float energy, quantised
    # with the bound reported, even when its values are whole: checking that
    # would need a pass over the device array); a scalar follows the arrays
    views = {name: device_view(name, a) for name, a in
             (("cost_fg", cost_fg), ("cost_bg", cost_bg), ("pairwise", pairwise))
             if is_device_array(a)}
    is_float = any(v.dtype == "float32" for v in views.values())
    want = "float32" if is_float else "int32"
    for name, a in (("cost_fg", cost_fg), ("cost_bg", cost_bg), ("pairwise", pairwise)):
        if name in views and views[name].dtype != want:  # int arrays in a float energy
            views[name] = device_view(name, a, want)
    if "cost_fg" not in views or "cost_bg" not in views:
        raise TypeError("cost_fg and cost_bg: both on the GPU or both on the host (gcut "
                        "copies nothing to the device behind your back)")
    fg, bg = views["cost_fg"], views["cost_bg"]
    shape = fg.shape
    if bg.shape != shape:
        raise ValueError(f"cost_bg: expected shape {shape}, got {bg.shape}")
    if len(shape) not in (2, 3):
        raise ValueError(f"cost_fg: expected (H, W) or (D, H, W), got shape {shape}")
    if fg.device != bg.device:
        raise ValueError(f"cost_fg is on device {fg.device}, cost_bg on device {bg.device}")
    d, h, w = (1,) + shape if len(shape) == 2 else shape
    conns = (4, 8) if len(shape) == 2 else (6, 18, 26)
    if connectivity not in conns:
        raise ValueError(f"connectivity: {connectivity} is not one of {conns} for a "
                         f"{len(shape)}-D grid")
    npair = connectivity // 2
    n = w * h * d
    keep: List[Any] = [fg, bg]
    pair_const = 0.0
    pairs: Optional[Tuple[Optional[int], ...]] = None
    if "pairwise" in views:
        pv = views["pairwise"]
        keep.append(pv)
        if pv.device != fg.device:
            raise ValueError(f"pairwise is on device {pv.device}, cost_fg on {fg.device}")
        if pv.shape == shape:
            pairs = (pv.ptr,) * npair
        elif pv.shape == (npair,) + shape:
            pairs = tuple(pv.ptr + 4 * n * j for j in range(npair))
        else:
            raise ValueError(f"pairwise: expected a scalar or shape {shape} or "
                             f"{(npair,) + shape} on the device, got {pv.shape}")
    elif np.ndim(pairwise) == 0:
        pair_const = float(pairwise)
        if not is_float and pair_const != int(pair_const):
            raise TypeError("pairwise: a fractional weight with integer costs; give float "
                            "arrays for a float energy")
        if not pair_const >= 0:
            raise ValueError(f"pairwise: {pair_const} is negative or NaN")
    else:
        raise TypeError("pairwise: a host array with costs on the GPU; give a scalar or a "
                        "device array (gcut copies nothing to the device behind your back)")
    stream = fg.stream or bg.stream
    out, out_ptr = _empty_mask(fg.source, shape, fg.device)
    solver = _solver(backend)
    r, q = solver.solve((w, h, d), connectivity, 1 if is_float else 0, fg.ptr, bg.ptr, pairs,
                        pair_const, float(scale), out_ptr, 1, stream, time_limit,
                        progress["progress"], progress["signals"], progress["interval_ms"],
                        params)
    del keep
    res = DeviceResult(r, q)
    last_result[threading.get_ident()] = res
    return out, res

