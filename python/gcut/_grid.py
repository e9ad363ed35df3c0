"""Grids from numpy arrays: gcut.grid_cut and gcut.GridProblem (gcut/grid.h)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _gcut
from . import InvalidError, Result, _as_int32, _time_limit

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
        d, h, w = (1,) + shape if len(shape) == 2 else shape
        self._grid = _gcut.Grid(w, h, d, self.connectivity)
        # numpy offsets (axis order of shape) of every direction
        self._offsets: List[Tuple[int, ...]] = []
        for k in range(self.connectivity):
            dx, dy, dz = _gcut.grid_direction(self.connectivity, k)
            self._offsets.append((dy, dx) if len(shape) == 2 else (dz, dy, dx))

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

    def set_terminals(self, source: Any, sink: Any) -> None:
        """Set the raw terminal capacities (arrays of ``shape``; None keeps one)."""
        s = None if source is None else self._field("source", source)
        t = None if sink is None else self._field("sink", sink)
        self._grid.set_terminals(s, t)

    def set_tweights(self, where: Any, cost_fg: Any, cost_bg: Any) -> None:
        """Replace the costs of the nodes selected by ``where`` (a boolean mask
        of ``shape``, a tuple of index arrays, or flat node ids); the costs
        are scalars or arrays with one entry per selected node."""
        if isinstance(where, np.ndarray) and where.dtype == np.bool_:
            if where.shape != self.shape:
                raise ValueError(f"where: mask of shape {where.shape}, expected {self.shape}")
            ids = np.flatnonzero(where)
        elif isinstance(where, tuple):
            ids = np.ravel_multi_index(tuple(np.asarray(i) for i in where), self.shape)
        else:
            ids = np.asarray(where).ravel()
        ids = _as_int32("where", ids, ids=True).ravel()
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
              threads: int = 0) -> np.ndarray:
        """Solve (GIL released) and return the mask: True = foreground
        (source side). The full result is kept in ``self.result``."""
        r = Result(self._grid.solve(backend or self.backend, _time_limit(time_limit),
                                    int(threads)))
        self.result = r
        return (r.cut == 0).reshape(self.shape)

    @property
    def flow(self) -> int:
        """The flow (= minimum energy) of the last solve."""
        if self.result is None:
            raise RuntimeError("GridProblem: not solved yet")
        return self.result.flow


def grid_cut(cost_fg: Any, cost_bg: Any, pairwise: Any, connectivity: int = 4,
             backend: str = "auto", time_limit: Optional[float] = None) -> np.ndarray:
    """Binary segmentation of a 2-D or 3-D grid; returns a bool mask, True =
    foreground.

    ``cost_fg`` / ``cost_bg``: arrays of the image's shape (>= 0), the cost
    of labelling each node foreground / background; ``pairwise``: see
    ``GridProblem.set_pairwise``. Integer arrays, or float arrays of whole
    numbers (anything else raises TypeError: float energies come with the
    float C API).
    """
    fg = np.asarray(cost_fg)
    p = GridProblem(fg.shape, connectivity, backend)
    p.set_unary(fg, cost_bg)
    p.set_pairwise(pairwise)
    return p.solve(time_limit=time_limit)
