"""Grids from numpy arrays: gcut.grid_cut and gcut.GridProblem (gcut/grid.h)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _gcut
from . import HAVE_FLOAT, InvalidError, Result, _as_float32, _as_int32, _progress, _time_limit

_CONNECTIVITIES = {2: (4, 8), 3: (6, 18, 26)}


def _shifted(w: np.ndarray, off: Sequence[int]) -> np.ndarray:
    """out[u] = w[u - off] where u - off lies inside the array, else 0."""
    out = np.zeros(w.shape, dtype=np.int32)
    dst, src = [], []
    for k, size in zip(off, w.shape):
        if k > 0:
            dst.append(slice(k, size))
            src.append(slice(0, size - k))
        elif k < 0:
            dst.append(slice(0, size + k))
            src.append(slice(-k, size))
        else:
            dst.append(slice(None))
            src.append(slice(None))
    out[tuple(dst)] = w[tuple(src)]
    return out


def _fractional(a: Any) -> bool:
    arr = np.asarray(a)
    return arr.dtype.kind == "f" and not (np.all(np.isfinite(arr)) and
                                          np.array_equal(arr, np.floor(arr)))


def _per_node(name: str, a: Any, k: int) -> np.ndarray:
    arr = _as_int32(name, a, floats="exact")
    if arr.ndim == 0:
        return np.full(k, arr, dtype=np.int32)
    arr = np.ascontiguousarray(arr.ravel())
    if arr.shape[0] != k:
        raise ValueError(f"{name}: {arr.shape[0]} values for {k} selected nodes")
    return arr


class GridProblem:
    """A 2-D image or 3-D volume cut, kept for warm re-solves.

    ``shape`` is the numpy shape, (H, W) or (D, H, W); node (z, y, x) is
    ``flat index x + W * (y + H * z)``, numpy's C order. Foreground is the
    source side: a pixel labelled foreground pays ``cost_fg``, background
    ``cost_bg``, and each neighbour pair with different labels pays its
    pairwise weight. ``solve()`` returns a boolean mask, True = foreground.

    After ``set_unary`` / ``set_tweights`` (a user's stroke) the next
    ``solve()`` starts from the previous flow where the library can (warm
    re-solve, cpu-bk); the answer is exactly that of a cold solve.
    ``result.stats["warm_start"]`` says whether it was warm.
    """

    def __init__(self, shape: Sequence[int], connectivity: int = 4,
                 backend: str = "auto") -> None:
        shape = tuple(int(s) for s in shape)
        if len(shape) not in _CONNECTIVITIES:
            raise ValueError(f"shape: expected (H, W) or (D, H, W), got {shape}")
        if connectivity not in _CONNECTIVITIES[len(shape)]:
            raise ValueError(f"connectivity: {connectivity} is not one of "
                             f"{_CONNECTIVITIES[len(shape)]} for a {len(shape)}-D grid")
        self.shape = shape
        self.connectivity = int(connectivity)
        self.backend = backend
        self.result: Optional[Result] = None
        self._device: Optional[tuple] = None  # GPU arrays given to set_energy
        # float energy (set_energy with floats): the unary costs as float32,
        # kept for set_unary / set_tweights, and the quantisation report
        self._fg32: Optional[np.ndarray] = None
        self._bg32: Optional[np.ndarray] = None
        self.quantization: Optional[Dict[str, Any]] = None
        d, h, w = (1,) + shape if len(shape) == 2 else shape
        self._grid = _gcut.Grid(w, h, d, self.connectivity)
        # numpy offsets (axis order of shape) of every direction
        self._offsets: List[Tuple[int, ...]] = []
        for k in range(self.connectivity):
            dx, dy, dz = _gcut.grid_direction(self.connectivity, k)
            self._offsets.append((dy, dx) if len(shape) == 2 else (dz, dy, dx))

    def _host_only(self) -> None:
        if self._device is not None:
            raise TypeError("this problem holds GPU arrays: give the whole energy again with "
                            "set_energy (on the GPU or the host)")

    @property
    def num_nodes(self) -> int:
        return int(np.prod(self.shape))

    def _field(self, name: str, a: Any) -> np.ndarray:
        arr = _as_int32(name, a, floats="exact")
        if arr.shape != self.shape:
            if arr.ndim == 0:
                arr = np.full(self.shape, arr, dtype=np.int32)
            else:
                raise ValueError(f"{name}: expected shape {self.shape}, got {arr.shape}")
        return arr

    def set_unary(self, cost_fg: Any, cost_bg: Any) -> None:
        """Set the labelling costs of every node (arrays of ``shape``, >= 0):
        the source link gets ``cost_bg``, the sink link ``cost_fg``."""
        self._host_only()
        if self._fg32 is not None:  # a float energy: same scale, n-links kept (warm)
            fg, bg = self._field32("cost_fg", cost_fg), self._field32("cost_bg", cost_bg)
            self.quantization = self._grid.set_unary_f32(fg, bg)
            self._fg32, self._bg32 = fg.copy(), bg.copy()
            return
        if HAVE_FLOAT and (_fractional(cost_fg) or _fractional(cost_bg)):
            raise TypeError("set_unary: float costs need a float energy: call "
                            "set_energy(cost_fg, cost_bg, pairwise) first")
        fg = self._field("cost_fg", cost_fg)
        bg = self._field("cost_bg", cost_bg)
        self._grid.set_terminals(bg, fg)

    def set_pairwise(self, pairwise: Any) -> None:
        """Set the n-links. ``pairwise`` is one of:

        * a scalar: every neighbour pair weighs it;
        * an array of ``shape``: the edge between node v and its neighbour in
          each positive direction (+x, +y, +z, and for 8/18/26-connectivity
          the diagonals of gcut/grid.h's table with an even index) weighs
          ``pairwise[v]`` in both directions (PyMaxflow's add_grid_edges
          rule);
        * an array ``(connectivity // 2, *shape)``: ``pairwise[j][v]`` is the
          weight of the edge between v and its neighbour in direction 2j;
        * an array ``(connectivity, *shape)``: ``pairwise[d][v]`` is the
          capacity of the arc from v to its neighbour in direction d
          (directed; gcut/grid.h's caps[d][v]).
        """
        self._host_only()
        if self._fg32 is not None:
            raise TypeError("set_pairwise: this grid holds a float energy; set it again "
                            "whole with set_energy(cost_fg, cost_bg, pairwise)")
        c = self.connectivity
        arr = _as_int32("pairwise", pairwise, floats="exact")
        if arr.ndim == 0:
            arr = np.full(self.shape, arr, dtype=np.int32)
        # checked before any array changes, so that a bad input changes nothing
        if arr.size and int(arr.min()) < 0:
            bad = np.unravel_index(int(np.argmin(arr)), arr.shape)
            raise InvalidError(f"set_pairwise: negative weight {int(arr[bad])} at {bad}")
        if arr.shape == (c,) + self.shape:
            for d in range(c):
                self._grid.set_caps(d, np.ascontiguousarray(arr[d]))
            return
        if arr.shape == self.shape:
            per_dir = [arr] * (c // 2)
        elif arr.shape == (c // 2,) + self.shape:
            per_dir = [np.ascontiguousarray(arr[j]) for j in range(c // 2)]
        else:
            raise ValueError(f"pairwise: expected a scalar or shape {self.shape}, "
                             f"{(c // 2,) + self.shape} or {(c,) + self.shape}, got {arr.shape}")
        for j, w in enumerate(per_dir):
            self._grid.set_caps(2 * j, w)
            self._grid.set_caps(2 * j + 1, _shifted(w, self._offsets[2 * j]))

    def _field32(self, name: str, a: Any) -> np.ndarray:
        arr = _as_float32(name, a)
        if arr.ndim == 0:
            return np.full(self.shape, arr, dtype=np.float32)
        if arr.shape != self.shape:
            raise ValueError(f"{name}: expected shape {self.shape}, got {arr.shape}")
        return arr

    def set_energy(self, cost_fg: Any, cost_bg: Any, pairwise: Any = 0,
                   scale: float = 0.0) -> None:
        """Set the whole energy: unary costs and pairwise weights (the forms of
        ``set_pairwise`` but the directed one).

        Integer values >= 0 (or whole floats) are set exactly, as
        ``set_unary`` + ``set_pairwise``. Anything else - fractional or
        negative costs, +inf for a forbidden label - needs the float C API
        (``gcut.HAVE_FLOAT``): the library quantises at ``scale`` (0: chosen)
        and ``self.quantization`` reports the scale and the bound on the
        energy lost to rounding (gcut/graph.h, gcut_quantization)."""
        from . import _cuda
        if any(_cuda.is_device_array(a) for a in (cost_fg, cost_bg, pairwise)):
            # GPU arrays: kept as they are and solved on the device at solve()
            # (cold each time: docs/python.md, "GPU arrays")
            self._device = (cost_fg, cost_bg, pairwise, float(scale))
            self._fg32 = self._bg32 = None
            self.quantization = None
            return
        self._device = None
        exact = True
        for a in (cost_fg, cost_bg, pairwise):
            arr = np.asarray(a)
            if arr.dtype.kind == "f" and (not np.all(np.isfinite(arr)) or
                                           not np.array_equal(arr, np.floor(arr))):
                exact = False
            elif arr.dtype.kind in "iuf" and arr.size and float(arr.min()) < 0:
                exact = False
        if exact or not HAVE_FLOAT:
            # without the float API the integer setters give the errors (TypeError
            # for fractional values, InvalidError naming a negative one)
            self._fg32 = self._bg32 = None
            self.quantization = None
            self.set_unary(cost_fg, cost_bg)
            self.set_pairwise(pairwise)
            return
        c = self.connectivity
        fg, bg = self._field32("cost_fg", cost_fg), self._field32("cost_bg", cost_bg)
        w = _as_float32("pairwise", pairwise)
        if w.ndim == 0:
            w = np.full(self.shape, w, dtype=np.float32)
        if w.shape == self.shape:
            pairs = [w] * (c // 2)  # the edge from v in each even direction weighs w[v]
        elif w.shape == (c // 2,) + self.shape:
            pairs = [np.ascontiguousarray(w[j]) for j in range(c // 2)]
        else:
            raise ValueError(f"pairwise: expected a scalar or shape {self.shape} or "
                             f"{(c // 2,) + self.shape} for a float energy, got {w.shape}")
        self.quantization = self._grid.set_energy_f32(fg, bg, pairs, float(scale))
        self._fg32, self._bg32 = fg.copy(), bg.copy()

    def set_terminals(self, source: Any, sink: Any) -> None:
        """Set the raw terminal capacities (arrays of ``shape``; None keeps one)."""
        self._host_only()
        s = None if source is None else self._field("source", source)
        t = None if sink is None else self._field("sink", sink)
        self._grid.set_terminals(s, t)

    def set_tweights(self, where: Any, cost_fg: Any, cost_bg: Any) -> None:
        """Replace the costs of the nodes selected by ``where`` (a boolean mask
        of ``shape``, a tuple of index arrays, or flat node ids); the costs
        are scalars or arrays with one entry per selected node."""
        self._host_only()
        if isinstance(where, np.ndarray) and where.dtype == np.bool_:
            if where.shape != self.shape:
                raise ValueError(f"where: mask of shape {where.shape}, expected {self.shape}")
            ids = np.flatnonzero(where)
        elif isinstance(where, tuple):
            ids = np.ravel_multi_index(tuple(np.asarray(i) for i in where), self.shape)
        else:
            ids = np.asarray(where).ravel()
        ids = _as_int32("where", ids, ids=True).ravel()
        if self._fg32 is not None:  # a float energy: change the kept costs, same scale
            k = ids.shape[0]
            if ids.size and (int(ids.min()) < 0 or int(ids.max()) >= self.num_nodes):
                raise IndexError(f"set_tweights: node id out of range [0, {self.num_nodes})")
            fg, bg = self._fg32.copy().ravel(), self._bg32.copy().ravel()
            fg[ids] = np.broadcast_to(_as_float32("cost_fg", cost_fg).ravel()
                                      if np.ndim(cost_fg) else _as_float32("cost_fg", cost_fg), k)
            bg[ids] = np.broadcast_to(_as_float32("cost_bg", cost_bg).ravel()
                                      if np.ndim(cost_bg) else _as_float32("cost_bg", cost_bg), k)
            self.set_unary(fg.reshape(self.shape), bg.reshape(self.shape))
            return
        fg = _per_node("cost_fg", cost_fg, ids.shape[0])
        bg = _per_node("cost_bg", cost_bg, ids.shape[0])
        self._grid.set_tweights_at(ids, bg, fg)

    def set_warm_start(self, enable: bool) -> None:
        """Turn warm re-solves on (the default) or off."""
        self._grid.set_warm_start(bool(enable))

    def caps(self, what: int) -> np.ndarray:
        """A copy of the capacity array of direction ``what`` (or
        gcut._gcut.SOURCE_LINK / SINK_LINK), shaped like the grid."""
        return np.frombuffer(self._grid.get_caps(int(what)), dtype=np.int32).reshape(self.shape)

    def solve(self, backend: Optional[str] = None, time_limit: Optional[float] = None,
              threads: int = 0, progress: Any = None, regions: int = 0,
              devices: Optional[Sequence[int]] = None,
              discharge: Optional[str] = None) -> np.ndarray:
        """Solve (GIL released) and return the mask: True = foreground
        (source side). The full result is kept in ``self.result``.
        ``progress``: see docs/python.md, "Progress and cancelling".

        ``devices=[0, 1, ...]`` alone spreads the grid over those GPUs of
        the machine: cuda-grid's engine on a slab of tiles per GPU, the
        arrays split between them (docs/grid.md, "Several GPUs"; GPUs that
        can reach each other's memory, NVLink). ``regions=N`` cuts the grid
        into N slabs of planes solved by the region-partitioned max-flow
        (docs/distributed.md): the same mask and flow, on ``threads`` CPU
        threads, or with ``devices`` on those GPUs (cuda-grid regions, NCCL
        between GPUs). ``discharge="ard"`` discharges CPU regions by ARD
        (fewer sweeps where flow crosses regions) instead of push-relabel
        (``"pr"``, the default: on GPUs, cuda-grid's tiled kernels);
        ``"jacobi"`` the GPU regions by the simple synchronous push-relabel.
        Experimental."""
        params = None
        if devices is not None:
            devs = [int(d) for d in devices]
            if not devs or any(d < 0 for d in devs):
                raise ValueError("devices: a non-empty list of GPU numbers >= 0")
            if backend not in (None, "auto", "cuda-grid"):
                raise ValueError("devices= keeps the slabs on GPUs: backend must be cuda-grid")
            backend = "cuda-grid"
            params = "devices=" + ":".join(str(d) for d in devs)
        if regions < 0:
            raise ValueError(f"regions must be >= 0 (got {regions})")
        if discharge is not None:
            if discharge not in ("pr", "ard", "jacobi"):
                raise ValueError(f"discharge: 'pr', 'ard' or 'jacobi' (got {discharge!r})")
            if not regions:
                raise ValueError("discharge= is a setting of the partitioned solve: give regions=")
            params = (params + "," if params else "") + "discharge=" + discharge
        if regions and self._device is not None:
            raise ValueError("regions: the slabs are cut from a grid in host memory")
        if self._device is not None:
            from . import _cuda
            fg, bg, pw, scale = self._device
            mask, rep = _cuda.grid_cut_device(fg, bg, pw, self.connectivity,
                                              backend or self.backend, _time_limit(time_limit),
                                              _progress(progress), False, None, scale=scale)
            self.result = rep  # a gcut.DeviceResult: flow, backend, stats, quantization
            self.quantization = rep.quantization
            return mask
        raw = self._grid.solve(backend or self.backend, _time_limit(time_limit), int(threads),
                               regions=int(regions), params=params, **_progress(progress))
        q = self._grid.quantization(raw.flow) if self._fg32 is not None else None
        r = Result(raw, q)
        self.result = r
        return (r.cut == 0).reshape(self.shape)

    @property
    def flow(self) -> int:
        """The flow (= minimum energy, in quantised units for a float energy)
        of the last solve."""
        if self.result is None:
            raise RuntimeError("GridProblem: not solved yet")
        return self.result.flow

    @property
    def energy(self) -> float:
        """The energy of the last solve's cut in the caller's units: the flow
        for integer energies; for float ones the quantised energy, within
        ``quantization["bound"]`` of the cut's float energy and of the optimum."""
        if self.result is None:
            raise RuntimeError("GridProblem: not solved yet")
        return self.result.energy


def grid_cut(cost_fg: Any, cost_bg: Any, pairwise: Any, connectivity: int = 4,
             backend: str = "auto", time_limit: Optional[float] = None,
             progress: Any = None, allow_host_copy: bool = False) -> Any:
    """Binary segmentation of a 2-D or 3-D grid; returns a bool mask, True =
    foreground.

    ``cost_fg`` / ``cost_bg``: arrays of the image's shape (>= 0), the cost
    of labelling each node foreground / background; ``pairwise``: see
    ``GridProblem.set_pairwise``. Integer arrays >= 0, or float arrays of
    whole numbers, are solved exactly; other floats (fractional, negative,
    +inf) go to the float C API when the library has it (``gcut.HAVE_FLOAT``;
    quantised, bound reported: use ``GridProblem.set_energy`` to read it),
    else raise TypeError.

    GPU arrays (PyTorch, CuPy, JAX, anything with ``__cuda_array_interface__``
    or DLPack) are solved where they are by cuda-grid, and the mask comes
    back as a bool array of the same framework on the same device, with no
    copy through the host (docs/python.md, "GPU arrays"); the report of the
    solve is ``gcut.last_device_result()``. ``allow_host_copy=True`` lets a
    machine with no device back end solve them on the host instead.
    """
    from . import _cuda
    if any(_cuda.is_device_array(a) for a in (cost_fg, cost_bg, pairwise)):
        mask, _ = _cuda.grid_cut_device(cost_fg, cost_bg, pairwise, connectivity, backend,
                                        _time_limit(time_limit), _progress(progress),
                                        allow_host_copy, grid_cut)
        return mask
    fg = np.asarray(cost_fg)
    p = GridProblem(fg.shape, connectivity, backend)
    p.set_energy(fg, cost_bg, pairwise)
    return p.solve(time_limit=time_limit, progress=progress)


def solve_slabs(slabs: Sequence[Any], connectivity: int = 6, backend: Optional[str] = None,
                devices: Optional[Sequence[int]] = None,
                time_limit: Optional[float] = None) -> Tuple[int, List[np.ndarray], Dict[str, Any]]:
    """Maximum flow and minimum cut of a grid given as slabs of planes, each
    with arrays of its own (gcut_grid_solve_slabs): for volumes past what one
    ``GridProblem`` holds (2^31 - 1 voxels) and for capacities already on
    several GPUs.

    ``slabs``: consecutive slabs of the volume along its first axis (z; the
    rows of a 2-D image), each a tuple ``(source, sink, caps)``: ``source``
    and ``sink`` arrays of the slab's shape ``(planes, H, W)`` (``(rows, W)``
    in 2-D), ``caps`` a sequence of ``connectivity`` such arrays or None (0),
    ``caps[d]`` the capacity of each node's arc in direction d
    (``gcut.grid_direction`` numbering, as ``GridProblem.set_caps``). Integer
    arrays >= 0: numpy arrays in host memory, or GPU arrays (CuPy, PyTorch,
    JAX: ``__cuda_array_interface__`` or DLPack) read in place, their slab's
    region kept on their device (backend "cuda-grid"; they must be ready:
    the solve reads them on the legacy default stream). ``devices``: the
    GPUs of host slabs with cuda-grid (default device 0).

    Returns ``(flow, masks, stats)``: ``masks[i]`` a bool numpy array of slab
    i's shape, True on the source side (foreground), and the solve's times
    and sweeps. Raises InvalidError for bad slabs or negative capacities.
    """
    from . import _cuda
    if connectivity not in (4, 8, 6, 18, 26):
        raise ValueError(f"connectivity must be 4, 8, 6, 18 or 26 (got {connectivity})")
    if not slabs:
        raise ValueError("solve_slabs: no slabs")
    ndim = 2 if connectivity in (4, 8) else 3
    keep: List[Any] = []
    items = []
    masks_u8: List[np.ndarray] = []
    shape_rest: Optional[Tuple[int, ...]] = None
    first = 0
    for i, slab in enumerate(slabs):
        if len(slab) != 3:
            raise ValueError(f"slab {i}: expected (source, sink, caps)")
        source, sink, caps = slab
        caps = list(caps) if caps is not None else []
        if len(caps) not in (0, connectivity):
            raise ValueError(f"slab {i}: {len(caps)} capacity arrays, connectivity {connectivity}")
        arrays = [source, sink] + (caps or [None] * connectivity)
        ptrs, dev, shape = [], -1, None
        for j, a in enumerate(arrays):
            name = f"slab {i} " + ("source" if j == 0 else "sink" if j == 1 else f"caps[{j - 2}]")
            if a is None:
                ptrs.append(0)
                continue
            if _cuda.is_device_array(a):
                v = _cuda.device_view(name, a, "int32")
                if dev not in (-1, v.device):
                    raise ValueError(f"{name}: on device {v.device}, the slab's other arrays on "
                                     f"device {dev}")
                dev = v.device
                keep.append(v.keep)
                ptrs.append(v.ptr)
                s = v.shape
            else:
                arr = _as_int32(name, a, floats="exact")
                arr = np.ascontiguousarray(arr)
                keep.append(arr)
                ptrs.append(arr.ctypes.data)
                s = arr.shape
            if len(s) != ndim:
                raise ValueError(f"{name}: {len(s)} axes, a {ndim}-D slab needs {ndim}")
            if shape is None:
                shape = tuple(s)
            elif tuple(s) != shape:
                raise ValueError(f"{name}: shape {tuple(s)}, the slab's source has {shape}")
        if shape is None:
            raise ValueError(f"slab {i}: every array is None (its shape is unknown)")
        if shape_rest is None:
            shape_rest = shape[1:]
        elif shape[1:] != shape_rest:
            raise ValueError(f"slab {i}: planes of shape {shape[1:]}, slab 0's are {shape_rest}")
        mask = np.empty(shape, dtype=np.uint8)
        masks_u8.append(mask)
        items.append((first, int(shape[0]), dev, ptrs[0], ptrs[1], tuple(ptrs[2:]), mask))
        first += int(shape[0])
    assert shape_rest is not None
    if ndim == 3:
        h, w, d = shape_rest[0], shape_rest[1], first
    else:
        h, w, d = first, shape_rest[0], 1
    on_dev = any(it[2] >= 0 for it in items)
    if backend is None:
        backend = "cuda-grid" if on_dev or devices is not None else "cpu-bk"
    params = None
    if devices is not None:
        params = "devices=" + ":".join(str(int(x)) for x in devices)
    flow, stats = _gcut.solve_slabs(int(w), int(h), int(d), int(connectivity), items, backend,
                                    params, _time_limit(time_limit))
    del keep
    return int(flow), [m == 0 for m in masks_u8], stats
