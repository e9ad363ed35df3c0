"""PyMaxflow-compatible graphs: ``gcut.Graph[int]`` (docs/python.md, "Porting").

Existing PyMaxflow scripts port by changing ``import maxflow`` into
``import gcut as maxflow``. The graph is kept in Python (numpy arrays of
edges and accumulated terminal capacities) and handed to the library as a
whole at each ``maxflow()``; the answer is the canonical minimum cut, the
same for every back end. Differences from PyMaxflow are listed in
docs/python.md.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

from . import HAVE_FLOAT, Network, OverflowError, Result, UnsupportedError, _as_int32, _gcut

_INT32_MAX = 2**31 - 1


def _caps(name: str, a: Any) -> np.ndarray:
    return _as_int32(name, a, floats="exact")


def _structure_default(ndim: int, symmetric: bool) -> np.ndarray:
    """von Neumann neighbourhood: +-1 along each axis (only + when symmetric)."""
    st = np.zeros((3,) * ndim, dtype=np.int32)
    for ax in range(ndim):
        idx = [1] * ndim
        idx[ax] = 2
        st[tuple(idx)] = 1
        if not symmetric:
            idx[ax] = 0
            st[tuple(idx)] = 1
    return st


class _GridEdges:
    """The edges of a Graph[int] that is one grid (add_grid_nodes on an empty
    graph, then add_grid_edges over the whole grid with offsets of gcut's
    grid neighbourhoods, not periodic, and no add_edge / add_edges): kept as
    per-direction capacity arrays and solved by the grid engines (cpu-bk's
    grid-native path: no adjacency lists; about 3x faster than the same graph
    as a general one, and warm after terminal changes). Anything else turns
    the graph back into a general one (edges())."""

    def __init__(self, shape: Sequence[int]) -> None:
        self.shape = tuple(shape)
        self.ndim = len(self.shape)
        full = 8 if self.ndim == 2 else 26
        # numpy offsets (axis order of shape) of gcut's directions
        self.dirs = {}
        for k in range(full):
            dx, dy, dz = _gcut.grid_direction(full, k)
            off = (dy, dx) if self.ndim == 2 else (dz, dy, dx)
            self.dirs[off] = k
        self.caps: dict = {}  # direction -> int32 array of shape: arc v -> v + offset
        self.ids = np.arange(int(np.prod(self.shape)), dtype=np.int32).reshape(self.shape)
        self._problem: Any = None  # the GridProblem, kept for warm re-solves
        self._conn = 0

    def accepts(self, ids: np.ndarray, st: np.ndarray, centre: tuple, per: np.ndarray) -> bool:
        if ids.shape != self.shape or per.any() or not np.array_equal(ids, self.ids):
            return False
        for pos in zip(*np.nonzero(st)):
            off = tuple(int(p) - c for p, c in zip(pos, centre))
            if any(off) and off not in self.dirs:
                return False
        return True

    def _slices(self, off: tuple) -> tuple:
        """(the nodes whose neighbour at off is inside, those neighbours)."""
        src, dst = [], []
        for o, size in zip(off, self.shape):
            src.append(slice(max(0, -o), size - max(0, o)))
            dst.append(slice(max(0, o), size - max(0, -o)))
        return tuple(src), tuple(dst)

    def count(self, off: tuple) -> int:
        src, _ = self._slices(off)
        return int(np.prod([s.stop - s.start for s in src]))

    def add(self, caps: list, symmetric: bool) -> None:
        """Add weights[v] * structure entry on the arc v -> v + off (and back
        when symmetric); int32 sums checked before anything changes."""
        new: dict = {}  # direction -> int32 array (a fresh one, or int64 while summing)
        for off, cap in caps:
            src, dst = self._slices(off)
            pairs = [(self.dirs[off], src, cap[src])]
            if symmetric:
                pairs.append((self.dirs[off] ^ 1, dst, cap[src]))
            for d, where, c in pairs:
                cur = new.get(d)
                if cur is None and d not in self.caps:
                    cur = np.zeros(self.shape, np.int32)  # the usual case: one call a direction
                    cur[where] = c
                    new[d] = cur
                    continue
                if cur is None:
                    cur = self.caps[d].astype(np.int64)
                elif cur.dtype != np.int64:
                    cur = cur.astype(np.int64)
                cur[where] += c
                new[d] = cur
        for d, a in new.items():
            if a.dtype == np.int64 and a.size and int(a.max()) > _INT32_MAX:
                raise OverflowError("add_grid_edges: the capacities of an arc sum past "
                                    "2**31 - 1 (nothing was added)")
        for d, a in new.items():
            self.caps[d] = a if a.dtype == np.int32 else a.astype(np.int32)

    def problem(self) -> "GridProblem":
        from ._grid import GridProblem
        used = max(self.caps) + 1 if self.caps else 0
        conn = (4 if used <= 4 else 8) if self.ndim == 2 else \
            (6 if used <= 6 else 18 if used <= 18 else 26)
        if self._problem is None or self._conn != conn:
            self._problem = GridProblem(self.shape, conn)
            self._conn = conn
        zero = None
        for d in range(conn):
            a = self.caps.get(d)
            if a is None:
                if zero is None:
                    zero = np.zeros(self.shape, np.int32)
                a = zero
            # C-contiguous int32 >= 0 by construction: straight to the grid,
            # which records only the entries that differ (warm re-solves)
            self._problem._grid.set_caps(d, a)
        return self._problem

    def edges(self) -> List[tuple]:
        """The edges as chunks (src, dst, cap, rev) of the general graph: one
        edge per pair of opposite arcs."""
        out = []
        for d in sorted(self.caps):
            if d & 1 and (d ^ 1) in self.caps:
                continue  # taken with its even twin
            even = d & ~1
            off = [o for o, k in self.dirs.items() if k == even][0]
            src, dst = self._slices(off)
            fwd = self.caps.get(even)
            back = self.caps.get(even | 1)
            z = np.zeros(self.shape, np.int32)
            cap = (fwd if fwd is not None else z)[src].ravel()
            rev = (back if back is not None else z)[dst].ravel()
            out.append((np.ascontiguousarray(self.ids[src].ravel()),
                        np.ascontiguousarray(self.ids[dst].ravel()),
                        np.ascontiguousarray(cap), np.ascontiguousarray(rev)))
        return out


class GraphInt:
    """A PyMaxflow-style graph with int32 capacities (``gcut.Graph[int]``).

    Capacities are int32 >= 0; terminal capacities accumulate over
    ``add_tedge`` / ``add_grid_tedges`` calls (as PyMaxflow's) and must stay
    <= 2**31 - 1 (``gcut.OverflowError``, nothing changed). Float arguments
    are accepted only when every value is a whole number (``TypeError``
    otherwise; PyMaxflow's GraphInt truncates silently).
    """

    _acc = np.int64  # dtype of the accumulated terminal capacities

    def _caps(self, name: str, a: Any) -> np.ndarray:
        return _caps(name, a)

    def _edge_caps(self, w: np.ndarray, factor: Any) -> np.ndarray:
        """weights * structure entry as int32 (OverflowError past int32)."""
        if int(factor) == 1 and w.dtype == np.int32:
            return w
        cap64 = w.astype(np.int64) * int(factor)
        if cap64.size and int(cap64.max()) > _INT32_MAX:
            raise OverflowError("add_grid_edges: weight * structure does not fit int32")
        return cap64.astype(np.int32)

    def _check_sum(self, new_s: np.ndarray, new_t: np.ndarray) -> None:
        if int(new_s.max()) > _INT32_MAX or int(new_t.max()) > _INT32_MAX:
            raise OverflowError("add_tedge: a node's terminal capacity sums past 2**31 - 1 "
                                "(nothing was added)")

    def __init__(self, est_node_num: int = 0, est_edge_num: int = 0) -> None:
        self._n = 0
        self._tsrc = np.zeros(max(int(est_node_num), 16), dtype=self._acc)
        self._tsink = np.zeros_like(self._tsrc)
        self._chunks: List[tuple] = []  # (src, dst, cap, rev) int32 arrays
        self._single: List[tuple] = []  # add_edge calls not yet in a chunk
        self._m = 0
        self._result: Optional[Result] = None
        self._net: Optional[Network] = None
        # The grid path (see _GridEdges): the graph is one grid of nodes whose
        # edges all came from add_grid_edges over the whole grid.
        self._grid: Optional[_GridEdges] = None
        self._grid_possible = self._grid_capable

    # ------------------------------------------------------------ nodes
    def _grow(self, n: int) -> None:
        if n > _INT32_MAX:
            raise OverflowError(f"add_nodes: {n} nodes is more than a graph may have")
        if n > self._tsrc.shape[0]:
            size = max(n, int(self._tsrc.shape[0] * 1.5) + 1)
            for attr in ("_tsrc", "_tsink"):
                old = getattr(self, attr)
                new = np.zeros(size, dtype=self._acc)
                new[: old.shape[0]] = old
                setattr(self, attr, new)
        self._n = n

    def add_nodes(self, num_nodes: int) -> np.ndarray:
        """Add ``num_nodes`` nodes; returns their ids (an int array)."""
        k = int(num_nodes)
        if k < 0:
            raise ValueError(f"add_nodes: negative count {k}")
        first = self._n
        self._grow(first + k)
        self._changed()
        self._leave_grid()
        return np.arange(first, first + k, dtype=np.int32)

    def add_grid_nodes(self, shape: Sequence[int]) -> np.ndarray:
        """Add a grid of nodes; returns their ids in an array of ``shape``."""
        shape = tuple(int(s) for s in np.atleast_1d(shape))
        if any(s < 0 for s in shape):
            raise ValueError(f"add_grid_nodes: negative size in {shape}")
        grid = self._grid_possible and self._n == 0 and len(shape) in (2, 3)
        ids = self.add_nodes(int(np.prod(shape))).reshape(shape)  # leaves grid mode
        if grid and ids.size:
            self._grid_possible = True
            self._grid = _GridEdges(shape)
        return ids

    def get_node_num(self) -> int:
        return self._n

    def get_edge_num(self) -> int:
        return self._m + len(self._single)

    def _check_ids(self, name: str, ids: np.ndarray) -> None:
        if ids.size and (int(ids.min()) < 0 or int(ids.max()) >= self._n):
            bad = int(ids.min()) if int(ids.min()) < 0 else int(ids.max())
            raise IndexError(f"{name}: node id {bad} out of range [0, {self._n})")

    def _changed(self) -> None:
        self._result = None
        self._net = None

    # ------------------------------------------------------------ edges
    def _scalar_caps(self, *caps: Any) -> bool:
        """Whether the capacities are plain in-range numbers for the fast path."""
        return all(isinstance(c, (int, np.integer)) and not isinstance(c, bool)
                   and 0 <= c <= _INT32_MAX for c in caps)

    def add_edge(self, i: int, j: int, capacity: Any, rev_capacity: Any) -> None:
        """Add an edge i -> j (``capacity``) and j -> i (``rev_capacity``)."""
        n = self._n
        if (isinstance(i, (int, np.integer)) and isinstance(j, (int, np.integer))
                and 0 <= i < n and 0 <= j < n and self._scalar_caps(capacity, rev_capacity)):
            # the fast path of add_edge loops: ids and capacities checked in Python
            if self._grid is not None:
                self._leave_grid()
            self._single.append((int(i), int(j), capacity, rev_capacity))
            self._result = self._net = None
            return
        ids = _as_int32("add_edge ids", [i, j], ids=True)
        c = self._caps("capacity", [capacity, rev_capacity])
        self._check_ids("add_edge", ids)
        if c.min() < 0:
            raise ValueError(f"add_edge: negative capacity {c.min()}")
        self._leave_grid()
        self._single.append((int(ids[0]), int(ids[1]), c[0].item(), c[1].item()))
        self._changed()

    def _add_edges(self, s: np.ndarray, d: np.ndarray, c: np.ndarray, r: np.ndarray) -> None:
        if s.size:
            self._chunks.append((s, d, c, r))
            self._m += s.shape[0]
        self._changed()

    def add_edges(self, i: Any, j: Any, capacities: Any, rev_capacities: Any) -> None:
        """Vectorised add_edge over arrays (broadcast together)."""
        ids_i = _as_int32("i", i, ids=True)
        ids_j = _as_int32("j", j, ids=True)
        c = self._caps("capacities", capacities)
        r = self._caps("rev_capacities", rev_capacities)
        ids_i, ids_j, c, r = (np.ascontiguousarray(a.ravel())
                              for a in np.broadcast_arrays(ids_i, ids_j, c, r))
        ids_i, ids_j = ids_i.astype(np.int32), ids_j.astype(np.int32)
        self._check_ids("add_edges", ids_i)
        self._check_ids("add_edges", ids_j)
        if c.size and min(c.min(), r.min()) < 0:
            raise ValueError("add_edges: negative capacity")
        self._leave_grid()
        self._add_edges(ids_i, ids_j, c, r)

    def add_grid_edges(self, nodeids: Any, weights: Any = 1, structure: Any = None,
                       symmetric: bool = False, periodic: Any = False) -> None:
        """Add an edge from every node ``i`` of ``nodeids`` to each neighbour
        ``i + o`` inside the grid, for every offset ``o`` of the non-zero
        entries of ``structure`` (centred, odd sizes), with capacity
        ``weights[i] * structure[o]`` (``weights`` broadcast to the shape of
        nodeids); ``symmetric``: the same capacity back. Default structure:
        the von Neumann neighbourhood (+-1 along each axis; only +1 when
        symmetric, so every pair gets one capacity each way either way).
        ``periodic`` (PyMaxflow's argument): True, or one bool per axis, makes
        the neighbourhood wrap around those axes (a torus), so that the last
        node of a row links to the first; an offset that wraps onto the node
        itself adds no edge.
        """
        ids = np.asarray(nodeids)
        ids = _as_int32("nodeids", ids, ids=True)
        self._check_ids("add_grid_edges", ids)
        w = np.broadcast_to(self._caps("weights", weights), ids.shape)
        if structure is None:
            st = _structure_default(ids.ndim, bool(symmetric))
        else:
            st = self._caps("structure", structure)
            if st.ndim != ids.ndim or any(s % 2 == 0 for s in st.shape):
                raise ValueError(f"structure: expected {ids.ndim} odd sizes, got {st.shape}")
        if st.min(initial=0) < 0 or w.min(initial=0) < 0:
            raise ValueError("add_grid_edges: negative weight or structure entry")
        per = np.asarray(periodic, dtype=bool)
        if per.ndim > 1 or (per.ndim == 1 and per.shape[0] != ids.ndim):
            raise ValueError(f"periodic: a bool or {ids.ndim} bools (one per axis)")
        per = np.broadcast_to(per, (ids.ndim,))
        centre = tuple(s // 2 for s in st.shape)
        if self._grid is not None:
            if self._grid.accepts(ids, st, centre, per):
                # checked first, so that a failure below changes nothing
                caps = []
                for pos in zip(*np.nonzero(st)):
                    off = tuple(int(p) - c for p, c in zip(pos, centre))
                    if any(off):
                        caps.append((off, self._edge_caps(w, st[pos])))
                self._grid.add(caps, bool(symmetric))
                self._m += sum(self._grid.count(off) for off, _ in caps)
                self._changed()
                return
            self._leave_grid()
        for pos in zip(*np.nonzero(st)):
            off = tuple(int(p) - c for p, c in zip(pos, centre))
            if all(o == 0 for o in off):
                continue
            # periodic axes: every node, its neighbour found by rolling the
            # ids; the others: the nodes whose neighbour lies inside
            roll_axes = tuple(k for k in range(ids.ndim) if per[k] and off[k])
            nb = np.roll(ids, tuple(-off[k] for k in roll_axes), roll_axes) if roll_axes else ids
            src_sl, dst_sl = [], []
            for k, (o, size) in enumerate(zip(off, ids.shape)):
                if per[k]:
                    src_sl.append(slice(None))
                    dst_sl.append(slice(None))
                else:
                    src_sl.append(slice(max(0, -o), size - max(0, o)))
                    dst_sl.append(slice(max(0, o), size - max(0, -o)))
            a = ids[tuple(src_sl)].ravel()
            b = nb[tuple(dst_sl)].ravel()
            cap = self._edge_caps(w[tuple(src_sl)].ravel(), st[pos])
            if roll_axes:  # a wrap onto the node itself (axis of size <= |offset|)
                keep = a != b
                a, b, cap = a[keep], b[keep], cap[keep]
            rev = cap if symmetric else np.zeros_like(cap)
            self._add_edges(np.ascontiguousarray(a), np.ascontiguousarray(b), cap,
                            np.ascontiguousarray(rev))

    # -------------------------------------------------------- terminals
    def _add_t(self, ids: np.ndarray, s: np.ndarray, t: np.ndarray) -> None:
        if ids.size == 0:
            return
        if min(s.min(), t.min()) < 0:
            raise ValueError("add_tedge: negative terminal capacity")
        new_s = self._tsrc[: self._n].copy()
        new_t = self._tsink[: self._n].copy()
        if ids.shape[0] == self._n and ids[0] == 0 and ids[-1] == self._n - 1 and \
                np.array_equal(ids, np.arange(self._n, dtype=ids.dtype)):
            new_s += s  # every node once, in order (a whole grid): no scatter
            new_t += t
        else:
            np.add.at(new_s, ids, s.astype(self._acc))
            np.add.at(new_t, ids, t.astype(self._acc))
        self._check_sum(new_s, new_t)
        self._tsrc[: self._n] = new_s
        self._tsink[: self._n] = new_t
        self._changed()

    def add_tedge(self, i: int, cap_source: Any, cap_sink: Any) -> None:
        """Add ``cap_source`` (source -> i) and ``cap_sink`` (i -> sink); adds
        to what node i had (PyMaxflow semantics)."""
        if (isinstance(i, (int, np.integer)) and 0 <= i < self._n
                and self._scalar_caps(cap_source, cap_sink)):
            v = int(i)
            s, t = self._tsrc[v] + cap_source, self._tsink[v] + cap_sink
            if s <= _INT32_MAX and t <= _INT32_MAX:  # else the slow path raises
                self._tsrc[v], self._tsink[v] = s, t
                self._result = self._net = None
                return
        ids = _as_int32("i", [i], ids=True)
        self._check_ids("add_tedge", ids)
        c = self._caps("capacities", [cap_source, cap_sink])
        if c.min() < 0:
            raise ValueError("add_tedge: negative terminal capacity")
        v = int(ids[0])
        s = np.array([self._tsrc[v] + c[0]], dtype=self._acc)
        t = np.array([self._tsink[v] + c[1]], dtype=self._acc)
        self._check_sum(s, t)
        self._tsrc[v], self._tsink[v] = s[0], t[0]
        self._changed()

    def add_grid_tedges(self, nodeids: Any, sourcecaps: Any, sinkcaps: Any) -> None:
        """Add terminal capacities to the nodes of ``nodeids`` (arrays broadcast
        to its shape); they add up with earlier ones."""
        ids = _as_int32("nodeids", nodeids, ids=True)
        self._check_ids("add_grid_tedges", ids)
        s = np.broadcast_to(self._caps("sourcecaps", sourcecaps), ids.shape).ravel()
        t = np.broadcast_to(self._caps("sinkcaps", sinkcaps), ids.shape).ravel()
        self._add_t(ids.ravel(), s, t)

    # ------------------------------------------------------- grid path
    _grid_capable = True  # GraphInt: int32 grids (Graph[float] keeps the general path)

    def _leave_grid(self) -> None:
        """Back to a general graph: the grid's edges become an edge chunk."""
        self._grid_possible = False
        if self._grid is not None:
            for part in self._grid.edges():
                self._chunks.append(part)
            self._grid = None
            self._net = None

    def _solve_grid(self, backend: str) -> Result:
        g = self._grid
        p = g.problem()
        n = self._n
        src = self._tsrc[:n].astype(np.int32).reshape(g.shape)
        snk = self._tsink[:n].astype(np.int32).reshape(g.shape)
        p.set_terminals(src, snk)
        p.solve(backend=backend)
        return p.result

    # ---------------------------------------------------------- solving
    def _network(self) -> Network:
        parts = self._chunks
        if self._single:
            ids = np.array([e[:2] for e in self._single], dtype=np.int32).reshape(-1, 2)
            caps = np.array([e[2:] for e in self._single]).reshape(-1, 2)
            parts = parts + [(np.ascontiguousarray(ids[:, 0]), np.ascontiguousarray(ids[:, 1]),
                              self._caps("capacity", caps[:, 0]),
                              self._caps("capacity", caps[:, 1]))]
        if parts:
            src, dst = (np.concatenate([p[k] for p in parts]).astype(np.int32) for k in (0, 1))
            cap, rev = (np.concatenate([p[k] for p in parts]) for k in (2, 3))
        else:
            src = dst = np.zeros(0, dtype=np.int32)
            cap = rev = self._caps("capacity", np.zeros(0, dtype=np.int32))
        return self._build(self._n, src, dst, cap, rev)

    def _build(self, n: int, src: np.ndarray, dst: np.ndarray, cap: np.ndarray,
               rev: np.ndarray) -> Network:
        return Network(n, src, dst, cap.astype(np.int32), rev.astype(np.int32),
                       self._tsrc[:n].astype(np.int32), self._tsink[:n].astype(np.int32))

    def maxflow(self, reuse_trees: bool = False, backend: str = "auto") -> int:
        """Solve; returns the flow value. ``reuse_trees`` is accepted for
        PyMaxflow compatibility: every solve gives the exact canonical cut
        (general graphs are solved cold; use gcut.GridProblem for warm
        re-solves of grids)."""
        if self._grid is not None:
            # one grid with grid edges only: the grid engines, warm after
            # add_tedge / add_grid_tedges changes (the grid records them)
            self._result = self._solve_grid(backend)
            return self._flow_value(self._result)
        if self._net is None:
            self._net = self._network()
        self._result = self._net.solve(backend)
        return self._flow_value(self._result)

    def _flow_value(self, r: Result) -> Any:
        return r.flow

    def _cut(self) -> np.ndarray:
        if self._result is None:
            raise RuntimeError("call maxflow() first (the graph changed since, or was "
                               "never solved)")
        return self._result.cut

    def get_segment(self, i: int) -> int:
        """0 if node i is on the source side of the minimum cut, 1 if on the sink side."""
        cut = self._cut()
        i = int(i)
        if not 0 <= i < cut.shape[0]:
            raise IndexError(f"get_segment: node id {i} out of range [0, {cut.shape[0]})")
        return int(cut[i])

    def get_grid_segments(self, nodeids: Any) -> np.ndarray:
        """Bool array of nodeids' shape: True on the sink side (as PyMaxflow)."""
        ids = _as_int32("nodeids", nodeids, ids=True)
        self._check_ids("get_grid_segments", ids)
        return self._cut()[ids] == 1

    @property
    def result(self) -> Optional[Result]:
        """The gcut.Result of the last maxflow() (flow, cut, backend, stats)."""
        return self._result

    def mark_node(self, i: int) -> None:
        """Accepted for PyMaxflow compatibility; no effect (solves are exact)."""

    def mark_grid_nodes(self, nodeids: Any) -> None:
        """Accepted for PyMaxflow compatibility; no effect (solves are exact)."""


class _GraphFloat(GraphInt):
    """``gcut.Graph[float]``: PyMaxflow's GraphFloat on the float C API.

    Capacities are floats >= 0 (finite), kept in float64 and handed to the
    library as float32 at each ``maxflow()``; the library quantises them
    (gcut_graph_new_f32) and ``maxflow()`` returns the cut's value in float
    units (``result.quantization["energy"]``, within
    ``result.quantization["bound"]`` of the float optimum).
    """

    _acc = np.float64
    _grid_capable = False

    def _caps(self, name: str, a: Any) -> np.ndarray:
        arr = np.asarray(a)
        if arr.dtype.kind not in "fiu":
            raise TypeError(f"{name}: dtype {arr.dtype} cannot hold capacities")
        arr = arr.astype(np.float64)
        if arr.size and not np.all(np.isfinite(arr)):
            raise ValueError(f"{name}: NaN or infinite capacity")
        return arr

    def _edge_caps(self, w: np.ndarray, factor: Any) -> np.ndarray:
        return w.astype(np.float64) * float(factor)

    def _scalar_caps(self, *caps: Any) -> bool:
        return all(isinstance(c, (int, float, np.integer, np.floating))
                   and not isinstance(c, bool) and 0 <= c < float("inf") for c in caps)

    def _check_sum(self, new_s: np.ndarray, new_t: np.ndarray) -> None:
        if not (np.all(np.isfinite(new_s)) and np.all(np.isfinite(new_t))):
            raise OverflowError("add_tedge: a terminal capacity is no longer finite")

    def _build(self, n: int, src: np.ndarray, dst: np.ndarray, cap: np.ndarray,
               rev: np.ndarray) -> Network:
        f = np.float32
        return Network(n, src, dst, cap.astype(f), rev.astype(f), self._tsrc[:n].astype(f),
                       self._tsink[:n].astype(f))

    def _flow_value(self, r: Result) -> Any:
        return r.energy


class _GraphFloatUnavailable:
    """``gcut.Graph[float]`` without the float C API."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        raise UnsupportedError(
            "gcut.Graph[float] needs libgcut's float graph API (gcut 0.3), which this build "
            "does not have yet; scale the capacities to integers and use gcut.Graph[int]")


GraphFloat = _GraphFloat if HAVE_FLOAT else _GraphFloatUnavailable


#: PyMaxflow's ``maxflow.Graph[int]`` / ``maxflow.Graph[float]``.
Graph = {int: GraphInt, float: GraphFloat}
