"""gcut: fast max-flow / min-cut for computer vision, from Python and numpy.

The package wraps libgcut (the C library of this repository) through the
extension ``gcut._gcut``. See docs/python.md for installing, a first
segmentation, porting from PyMaxflow, threads and errors.

Arrays
------
Every array argument goes through one rule (``_as_int32``):

* a C-contiguous ``numpy.int32`` array is passed to the library as it is,
  with no copy;
* any other integer array (another integer dtype, a list, a strided view)
  is converted once with ``numpy.ascontiguousarray(a, dtype=int32)``, after
  checking that every value fits int32 (``ValueError`` otherwise);
* float arrays: general graphs (``maxflow``, ``Network``) refuse them with
  ``TypeError``; grids (``grid_cut``, ``GridProblem``) and ``Graph[int]``
  accept them only when every value is a whole number (then converted
  exactly), else ``TypeError`` (fractional energies need the float API,
  which this build does not have yet);
* node ids must have an integer dtype; booleans and other dtypes raise
  ``TypeError``; shapes are checked and a mismatch raises ``ValueError``
  naming the argument.

Threads
-------
Every solve (and DIMACS reading / writing, matching) runs with the GIL
released, so several Python threads solving distinct objects run at once.
Using one object from two threads while it is being solved raises
``RuntimeError`` instead of racing.
"""

from __future__ import annotations

import builtins as _builtins
import threading as _threading
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _gcut

__all__ = [
    "Error", "NomemError", "InvalidError", "ParseError", "UnavailableError", "NotFoundError",
    "StateError", "DeviceError", "DeviceNomemError", "UnsupportedError", "CheckError",
    "InternalError", "version", "backends", "Backend", "Result", "Network", "maxflow",
    "check_flow", "read_dimacs", "write_dimacs", "grid_cut", "GridProblem", "Graph",
    "solve_slabs",
    "GraphInt", "GraphFloat", "match", "MatchResult", "grabcut", "segment", "Segmentation", "alpha_expansion", "alpha_beta_swap",
    "stereo", "HAVE_FLOAT", "DeviceArray", "device_available", "last_device_result",
    "multi_baseline", "plane_sweep", "read_cameras", "Camera", "load_image", "save_image",
]
# IOError, OverflowError, TimeoutError and InterruptedError are attributes of
# the package (gcut.TimeoutError ...) but not in __all__: a star import must
# not shadow the built-in exceptions of the same names.

#: True when libgcut has the float C API (gcut 0.3: gcut_graph_new_f32,
#: gcut_grid_set_energy_dirs_f32 ...): float capacities and energies are then
#: quantised by the library, with the bound reported (Result.quantization).
HAVE_FLOAT = bool(getattr(_gcut, "HAVE_F32", 0))

SOURCE = 0  #: cut value of a node on the source side
SINK = 1  #: cut value of a node on the sink side

_INT32_MIN = -(2**31)
_INT32_MAX = 2**31 - 1


# ---------------------------------------------------------------- errors
class Error(Exception):
    """Base class of every error raised by libgcut.

    ``str(e)`` is the library's message (gcut_last_error()), which names the
    function and the offending input; ``e.status`` is the gcut_status code
    and ``e.status_name`` its name.
    """

    status = -1

    def __init__(self, message: str = "", status: Optional[int] = None) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status

    @property
    def status_name(self) -> str:
        return _gcut.status_string(self.status) if self.status >= 0 else "unknown"


class NomemError(Error, MemoryError):
    """Host memory exhausted, or the memory budget reached (GCUT_ERR_NOMEM)."""
    status = 1


class InvalidError(Error, ValueError):
    """Invalid argument: id out of range, negative capacity ... (GCUT_ERR_INVALID)."""
    status = 2


class ParseError(Error, ValueError):
    """Malformed input file; the message names the line (GCUT_ERR_PARSE)."""
    status = 3


class IOError(Error, _builtins.OSError):  # noqa: A001 - mirrors GCUT_ERR_IO
    """A file could not be opened, read or written (GCUT_ERR_IO)."""
    status = 4


class OverflowError(Error, _builtins.OverflowError):  # noqa: A001
    """A size or a capacity sum does not fit its type (GCUT_ERR_OVERFLOW)."""
    status = 5


class UnavailableError(Error):
    """The back end exists but cannot run here, e.g. no GPU (GCUT_ERR_UNAVAILABLE)."""
    status = 6


class NotFoundError(Error, LookupError):
    """No back end of that name (GCUT_ERR_NOT_FOUND)."""
    status = 7


class StateError(Error):
    """Call not valid in the object's current state (GCUT_ERR_STATE)."""
    status = 8


class TimeoutError(Error, _builtins.TimeoutError):  # noqa: A001
    """The time limit of the solve was reached (GCUT_ERR_TIMEOUT)."""
    status = 9


class DeviceError(Error):
    """A GPU call failed (GCUT_ERR_DEVICE)."""
    status = 10


class DeviceNomemError(DeviceError, MemoryError):
    """GPU memory exhausted (GCUT_ERR_DEVICE_NOMEM)."""
    status = 11


class UnsupportedError(Error, NotImplementedError):
    """The back end or this build cannot do that (GCUT_ERR_UNSUPPORTED)."""
    status = 12


class CheckError(Error):
    """check_flow found the flow or the cut invalid (GCUT_ERR_CHECK)."""
    status = 13


class InternalError(Error):
    """A bug in gcut: please report it (GCUT_ERR_INTERNAL)."""
    status = 14


class InterruptedError(Error, _builtins.InterruptedError):  # noqa: A001
    """A progress callback asked to stop (GCUT_ERR_INTERRUPTED)."""
    status = 15


_ERRORS = (None, NomemError, InvalidError, ParseError, IOError, OverflowError, UnavailableError,
           NotFoundError, StateError, TimeoutError, DeviceError, DeviceNomemError,
           UnsupportedError, CheckError, InternalError, InterruptedError)
_gcut._register_errors(_ERRORS)


# ---------------------------------------------------------------- arrays
def _host_array(name: str, a: Any) -> np.ndarray:
    """``a`` as a numpy array, refusing GPU arrays with a clear error.

    Only ``grid_cut`` and ``GridProblem.set_energy`` solve arrays in GPU
    memory in place (docs/python.md, "GPU arrays"); every other entry point
    takes host arrays and never copies a GPU array to the host behind the
    caller's back."""
    if isinstance(a, np.ndarray):
        return a
    from ._cuda import is_device_array
    if is_device_array(a):
        raise TypeError(f"{name}: an array in GPU memory; this function takes host (numpy) "
                        "arrays (copy it with .cpu().numpy() or cupy.asnumpy(); grid_cut and "
                        "GridProblem.set_energy solve GPU arrays in place)")
    return np.asarray(a)


def _as_int32(name: str, a: Any, *, floats: str = "reject", ids: bool = False) -> np.ndarray:
    """The int32, C-contiguous form of ``a`` (``a`` itself when it already is one).

    ``floats``: "reject" (TypeError) or "exact" (accepted when every value
    is a whole number). ``ids``: node ids (integer dtypes only).
    """
    arr = _host_array(name, a)
    if arr.dtype == np.int32:
        return _contiguous(arr)
    kind = arr.dtype.kind
    if kind in "iu" or (kind == "b" and not ids):
        if arr.size and kind != "b":
            lo, hi = int(arr.min()), int(arr.max())
            if lo < _INT32_MIN or hi > _INT32_MAX:
                bad = lo if lo < _INT32_MIN else hi
                raise ValueError(f"{name}: value {bad} does not fit int32")
        return _contiguous(arr)
    if kind == "f" and not ids:
        if floats != "exact":
            raise TypeError(
                f"{name}: float array (dtype {arr.dtype}) where int32 capacities are required; "
                + ("pass every capacity as floats (the float API) or "
                   if HAVE_FLOAT else "this build has no float API: ")
                + "convert to integers (e.g. np.rint(a).astype(np.int32)) after scaling")
        if arr.size:
            if not np.all(np.isfinite(arr)):
                raise TypeError(f"{name}: float array with NaN or infinite values")
            if not np.array_equal(arr, np.floor(arr)):
                raise TypeError(
                    f"{name}: float values with a fractional part: float energies come with "
                    "the float C API (gcut 0.3), not in this build; scale and round them to "
                    "integers, or pass an integer array")
            lo, hi = float(arr.min()), float(arr.max())
            if lo < _INT32_MIN or hi > _INT32_MAX:
                raise ValueError(f"{name}: value {lo if lo < _INT32_MIN else hi} does not fit int32")
        return _contiguous(arr)
    what = "node ids" if ids else "capacities"
    raise TypeError(f"{name}: dtype {arr.dtype} cannot hold {what}; pass an integer array")


def _contiguous(arr: np.ndarray) -> np.ndarray:
    """int32 and C-contiguous; ``arr`` itself when it is already (0-d arrays stay 0-d)."""
    if arr.ndim == 0:
        return arr.astype(np.int32)
    return np.ascontiguousarray(arr, dtype=np.int32)


def _as_float32(name: str, a: Any) -> np.ndarray:
    """The float32, C-contiguous form of ``a`` (``a`` itself when it already is one)."""
    arr = _host_array(name, a)
    if arr.dtype.kind not in "fiu":
        raise TypeError(f"{name}: dtype {arr.dtype} cannot hold capacities or costs")
    if arr.ndim == 0:
        return arr.astype(np.float32)
    return np.ascontiguousarray(arr, dtype=np.float32)


def _is_float(a: Any) -> bool:
    return a is not None and np.asarray(a).dtype.kind == "f"


def _vector32f(name: str, a: Any, length: int) -> np.ndarray:
    arr = _as_float32(name, a)
    if arr.ndim != 1 or arr.shape[0] != length:
        raise ValueError(f"{name}: expected shape ({length},), got {arr.shape}")
    return arr


def _vector(name: str, a: Any, length: int, **kw: Any) -> np.ndarray:
    arr = _as_int32(name, a, **kw)
    if arr.ndim != 1 or arr.shape[0] != length:
        raise ValueError(f"{name}: expected shape ({length},), got {arr.shape}")
    return arr


# ---------------------------------------------------------------- library
def version() -> str:
    """The version string of the libgcut in use ("0.2.0" ...)."""
    return _gcut.version()


__version__ = version()


class Backend(NamedTuple):
    """One max-flow back end of the registry."""
    name: str
    available: bool
    reason: str  #: "ok" or why it cannot run here ("no CUDA device" ...)
    description: str
    caps: int  #: GCUT_BACKEND_* capability bits (gcut/backend.h)


def backends() -> List[Backend]:
    """The max-flow back ends: CPU ones, then the CUDA plugin's (listed as
    unavailable, with the reason, when the plugin or a device is missing)."""
    return [Backend(*t) for t in _gcut.backends()]


class Result:
    """The result of one solve.

    ``cut`` is a read-only numpy uint8 view of the library's cut (one byte
    per node, 0 = source side, 1 = sink side); it is not a copy: it keeps
    the underlying C result alive and stays valid as long as it is used.
    """

    __slots__ = ("_r", "_cut", "_flows", "quantization")

    def __init__(self, r: "_gcut.Result", quantization: Optional[Dict[str, Any]] = None) -> None:
        self._r = r
        self._cut: Optional[np.ndarray] = None
        self._flows: Optional[np.ndarray] = None
        #: for float problems (HAVE_FLOAT): dict(scale, offset, bound, terms,
        #: energy) - ``energy`` is the cut's quantised energy in float units,
        #: within ``bound`` of its float energy and of the float optimum; None
        #: for integer problems (exact)
        self.quantization = quantization

    @property
    def flow(self) -> int:
        """The maximum flow value (= the capacity of the minimum cut), in the
        library's integer units (quantised units for float problems)."""
        return self._r.flow

    @property
    def energy(self) -> float:
        """The cut's value in the caller's units: ``flow`` for integer problems,
        ``quantization["energy"]`` for float ones."""
        return self.quantization["energy"] if self.quantization else float(self.flow)

    @property
    def cut(self) -> np.ndarray:
        """uint8 array, 0 (source side) or 1 (sink side) per node (a view)."""
        if self._cut is None:
            self._cut = np.frombuffer(self._r, dtype=np.uint8)
        return self._cut

    @property
    def flows(self) -> Optional[np.ndarray]:
        """Per-edge flows (int32, in [-rev_cap, cap]) when asked for, else None."""
        if self._flows is None:
            b = self._r.flows_bytes
            if b is None:
                return None
            self._flows = np.frombuffer(b, dtype=np.int32)
        return self._flows

    @property
    def backend(self) -> str:
        """The back end that solved it."""
        return self._r.backend

    @property
    def reason(self) -> str:
        """Why that back end was chosen."""
        return self._r.reason

    @property
    def stats(self) -> Dict[str, Any]:
        """Timings (ms) and counters of the solve; ``warm_start`` for grids."""
        return self._r.stats

    def __repr__(self) -> str:
        return f"<gcut.Result flow={self.flow} backend={self.backend!r} nodes={self._r.num_nodes}>"


ProgressFn = Any  #: a callable taking the progress dict; a true return cancels


def _progress(progress: Any) -> Dict[str, Any]:
    """The progress arguments of a low-level solve: the callable, and
    whether to check for signals (Ctrl-C) from the main thread."""
    if progress is not None and not callable(progress):
        raise TypeError("progress: expected a callable taking one dict, or None")
    main = _threading.current_thread() is _threading.main_thread()
    return {"progress": progress, "signals": main,
            "interval_ms": 0.0 if progress is not None else 250.0}


def _time_limit(t: Optional[float]) -> float:
    if t is None:
        return 0.0
    t = float(t)
    if not t > 0:
        raise ValueError(f"time_limit: {t} is not a positive number of seconds (None: no limit)")
    return t


# ---------------------------------------------------------- general graphs
class Network:
    """A general flow network built once from edge arrays (immutable).

    ``n`` nodes 0 .. n-1; edge i joins ``src[i]`` and ``dst[i]`` with
    capacity ``cap[i]`` from src to dst and ``rev_cap[i]`` back; ``tsrc`` /
    ``tsink`` (length n) are the terminal capacities. Everything is
    validated by the library before the network exists (``InvalidError``
    names the edge or node).
    """

    def __init__(self, n: int, src: Any, dst: Any, cap: Any, rev_cap: Any = None,
                 tsrc: Any = None, tsink: Any = None, *, scale: float = 0.0,
                 _graph: Any = None) -> None:
        #: the quantisation report of a network built from floats, else None
        self.quantization: Optional[Dict[str, Any]] = None
        if _graph is not None:
            self._g = _graph
            return
        n = int(n)
        s = _as_int32("src", src, ids=True)
        if s.ndim != 1:
            raise ValueError(f"src: expected a 1-D array, got shape {s.shape}")
        m = s.shape[0]
        d = _vector("dst", dst, m, ids=True)
        if HAVE_FLOAT and any(_is_float(a) for a in (cap, rev_cap, tsrc, tsink)):
            # float capacities: quantised by the library (gcut_graph_new_f32)
            c = _vector32f("cap", cap, m)
            r = None if rev_cap is None else _vector32f("rev_cap", rev_cap, m)
            ts = None if tsrc is None else _vector32f("tsrc", tsrc, n)
            tt = None if tsink is None else _vector32f("tsink", tsink, n)
            self._g, self.quantization = _gcut.graph_f32(n, s, d, c, r, ts, tt, float(scale))
            return
        c = _vector("cap", cap, m)
        r = None if rev_cap is None else _vector("rev_cap", rev_cap, m)
        ts = None if tsrc is None else _vector("tsrc", tsrc, n)
        tt = None if tsink is None else _vector("tsink", tsink, n)
        self._g = _gcut.Graph(n, s, d, c, r, ts, tt)

    @property
    def num_nodes(self) -> int:
        return self._g.num_nodes

    @property
    def num_edges(self) -> int:
        return self._g.num_edges

    def solve(self, backend: str = "auto", want_flows: bool = False,
              time_limit: Optional[float] = None, threads: int = 0,
              progress: ProgressFn = None) -> Result:
        """Maximum flow and canonical minimum cut (GIL released while solving).
        For a network built from floats, ``Result.quantization`` reports the
        scale and the bound, and ``Result.energy`` the cut's float value.
        ``progress``: see docs/python.md, "Progress and cancelling"."""
        r = self._g.solve(backend, bool(want_flows), _time_limit(time_limit), int(threads),
                          **_progress(progress))
        q = self._g.quantization(r.flow) if self.quantization is not None else None
        return Result(r, q)

    def check_flow(self, flow: int, flows: Any = None, cut: Any = None) -> None:
        """Prove a flow value optimal: raise ``CheckError`` unless the per-edge
        ``flows`` (optional) are a valid flow of that value and ``cut``
        (optional, uint8 0/1 per node) has that capacity."""
        f = None if flows is None else _vector("flows", flows, self.num_edges)
        c = None
        if cut is not None:
            c = np.asarray(cut)
            if c.dtype == np.bool_:
                c = c.view(np.uint8)
            if c.dtype != np.uint8 or c.shape != (self.num_nodes,):
                raise ValueError(f"cut: expected uint8 of shape ({self.num_nodes},), "
                                 f"got {c.dtype} {c.shape}")
            c = np.ascontiguousarray(c)
        self._g.check_flow(int(flow), f, c)

    def arrays(self) -> Tuple[np.ndarray, ...]:
        """(src, dst, cap, rev_cap, tsrc, tsink) as int32 arrays (copies)."""
        return tuple(np.frombuffer(b, dtype=np.int32) for b in self._g.arrays())

    def write_dimacs(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Write as DIMACS (gcut/graph.h: nodes 1..n, s = n+1, t = n+2)."""
        self._g.write_dimacs(path)

    def __repr__(self) -> str:
        return f"<gcut.Network nodes={self.num_nodes} edges={self.num_edges}>"


def maxflow(n: int, src: Any, dst: Any, cap: Any, rev_cap: Any = None, tsrc: Any = None,
            tsink: Any = None, backend: str = "auto", want_flows: bool = False,
            time_limit: Optional[float] = None, threads: int = 0,
            scale: float = 0.0, progress: ProgressFn = None) -> Result:
    """Maximum flow of a general graph given as edge arrays (see ``Network``).

    Integer capacities are exact. Float capacities (with HAVE_FLOAT) are
    quantised by the library at ``scale`` (0: chosen), and the result's
    ``quantization`` says what that cost.

    >>> r = gcut.maxflow(3, [0, 1], [1, 2], [5, 9], tsrc=[10, 0, 0], tsink=[0, 0, 7])
    >>> r.flow, r.cut.tolist()
    (5, [0, 1, 1])
    """
    net = Network(n, src, dst, cap, rev_cap, tsrc, tsink, scale=scale)
    return net.solve(backend, want_flows, time_limit, threads, progress)


def check_flow(n: int, src: Any, dst: Any, cap: Any, rev_cap: Any = None, tsrc: Any = None,
               tsink: Any = None, *, flow: int, flows: Any = None, cut: Any = None) -> None:
    """``Network(...).check_flow(flow, flows, cut)``: raise ``CheckError`` when invalid."""
    Network(n, src, dst, cap, rev_cap, tsrc, tsink).check_flow(flow, flows, cut)


class DimacsInfo(NamedTuple):
    source: int  #: 0-based id of s (an isolated node of the network)
    sink: int  #: 0-based id of t
    arcs: int  #: arc lines read
    dropped: int  #: arcs into s or out of t, dropped


def read_dimacs(path: Union[str, "os.PathLike[str]"]) -> Tuple[Network, DimacsInfo]:
    """Load a DIMACS max-flow file (gzip detected). ``ParseError`` names the
    line, ``IOError`` the file. Node ids become 0-based (gcut/graph.h)."""
    g, s, t, arcs, dropped = _gcut.read_dimacs(path)
    return Network(0, None, None, None, _graph=g), DimacsInfo(s, t, arcs, dropped)


def write_dimacs(path: Union[str, "os.PathLike[str]"], n: int, src: Any, dst: Any, cap: Any,
                 rev_cap: Any = None, tsrc: Any = None, tsink: Any = None) -> None:
    """Write the network given by edge arrays as DIMACS."""
    Network(n, src, dst, cap, rev_cap, tsrc, tsink).write_dimacs(path)


# ------------------------------------------------------------------ grids
from ._grid import GridProblem, grid_cut, solve_slabs  # noqa: E402
from ._cuda import DeviceArray, DeviceResult, device_available  # noqa: E402
from ._mvs import (Camera, load_image, multi_baseline, plane_sweep, read_cameras,  # noqa: E402
                   save_image)


def last_device_result() -> Optional[DeviceResult]:
    """The report (flow, backend, stats, quantization) of this thread's last
    grid_cut on GPU arrays, or None."""
    from . import _cuda
    return _cuda.last_result.get(_threading.get_ident())

from ._compat import Graph, GraphFloat, GraphInt  # noqa: E402
from ._match import MatchResult, match  # noqa: E402
from ._vision import (Segmentation, alpha_beta_swap, alpha_expansion, grabcut,  # noqa: E402
                      segment, stereo)

import os  # noqa: E402  (for the annotations above)
