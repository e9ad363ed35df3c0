"""gcut core: errors, back ends, general graphs from edge arrays, DIMACS, check_flow."""

import builtins

import numpy as np
import pytest

import gcut
from conftest import brute_force, random_graph


def test_version_and_backends():
    assert gcut.version().count(".") == 2 and gcut.__version__ == gcut.version()
    bs = gcut.backends()
    names = [b.name for b in bs]
    assert "cpu-bk" in names and "cpu-hipr" in names
    for b in bs:
        assert isinstance(b.available, bool) and b.reason and b.description
        if b.available:
            assert b.reason == "ok"
    # a CPU build lists the plugin's engines as unavailable, with the reason
    for b in bs:
        if b.name.startswith("cuda") and not b.available:
            assert b.reason != "ok"


def test_error_hierarchy():
    for cls in (gcut.NomemError, gcut.InvalidError, gcut.ParseError, gcut.IOError,
                gcut.OverflowError, gcut.UnavailableError, gcut.NotFoundError, gcut.StateError,
                gcut.TimeoutError, gcut.DeviceError, gcut.DeviceNomemError,
                gcut.UnsupportedError, gcut.CheckError, gcut.InternalError,
                gcut.InterruptedError):
        assert issubclass(cls, gcut.Error)
    assert issubclass(gcut.IOError, builtins.OSError)
    assert issubclass(gcut.TimeoutError, builtins.TimeoutError)
    assert issubclass(gcut.InvalidError, ValueError)
    # a star import must not shadow the built-ins
    ns = {}
    exec("from gcut import *", ns)
    assert "IOError" not in ns and "TimeoutError" not in ns


def test_simple_flow():
    r = gcut.maxflow(3, [0, 1], [1, 2], [5, 9], [0, 3], tsrc=[10, 0, 0], tsink=[0, 0, 7])
    assert r.flow == 5
    assert r.cut.dtype == np.uint8 and r.cut.tolist() == [0, 1, 1]
    assert r.backend in [b.name for b in gcut.backends()]
    assert r.reason
    assert r.flows is None
    assert set(r.stats) >= {"solve_ms", "total_ms", "warm_start"}


def test_cut_is_zero_copy_view_kept_alive():
    r = gcut.maxflow(3, [0, 1], [1, 2], [5, 9], tsrc=[10, 0, 0], tsink=[0, 0, 7])
    cut = r.cut
    assert not cut.flags.writeable and not cut.flags.owndata
    assert cut.base is not None
    del r  # the view keeps the C result alive
    assert cut.tolist() == [0, 1, 1]
    with pytest.raises(ValueError):
        cut[0] = 1


@pytest.mark.parametrize("backend", ["auto", "cpu-bk", "cpu-hipr"])
def test_random_against_brute_force(rng, backend):
    for trial in range(30):
        n = int(rng.integers(1, 9))
        m = int(rng.integers(0, 16))
        g = random_graph(rng, n, m)
        r = gcut.maxflow(n, *g, backend=backend, want_flows=True)
        val, canon = brute_force(n, *g)
        assert r.flow == val
        assert r.cut.tolist() == canon.tolist()
        assert r.flows.shape == (m,)
        gcut.check_flow(n, *g, flow=r.flow, flows=r.flows, cut=r.cut)


def test_check_flow_rejects_wrong_value(rng):
    g = random_graph(rng, 6, 10)
    r = gcut.maxflow(6, *g, want_flows=True)
    net = gcut.Network(6, *g)
    net.check_flow(r.flow, r.flows, r.cut)
    with pytest.raises(gcut.CheckError) as ei:
        net.check_flow(r.flow + 1, r.flows, r.cut)
    assert "gcut_check_flow" in str(ei.value)
    assert ei.value.status == 13 and ei.value.status_name


def test_int32_arrays_pass_without_copy(monkeypatch):
    src = np.array([0, 1], dtype=np.int32)
    seen = []
    real = gcut._gcut.Graph

    class Spy(real):
        def __init__(self, n, s, d, c, r, ts, tt):
            seen.append((s, d, c))
            super().__init__(n, s, d, c, r, ts, tt)

    monkeypatch.setattr(gcut._gcut, "Graph", Spy)
    dst = np.array([1, 2], dtype=np.int32)
    cap = np.array([5, 9], dtype=np.int32)
    gcut.maxflow(3, src, dst, cap, tsrc=np.array([10, 0, 0], np.int32), tsink=[0, 0, 7])
    s, d, c = seen[0]
    assert s is src and d is dst and c is cap
    # other integer dtypes and strided views are converted once
    big = np.array([0, 9, 1, 9], dtype=np.int64)[::2]
    gcut.maxflow(3, big, dst, cap)
    assert seen[1][0] is not big and seen[1][0].dtype == np.int32


def test_dtype_and_shape_errors():
    if not gcut.HAVE_FLOAT:
        with pytest.raises(TypeError, match="cap: float"):
            gcut.maxflow(3, [0], [1], [1.0])
    with pytest.raises(TypeError, match="node ids"):
        gcut.maxflow(3, [0.0], [1], [1])
    with pytest.raises(TypeError, match="node ids"):
        gcut.maxflow(3, np.array([True]), [1], [1])
    with pytest.raises(TypeError):
        gcut.maxflow(3, ["a"], [1], [1])
    with pytest.raises(ValueError, match=r"dst: expected shape \(2,\)"):
        gcut.maxflow(3, [0, 1], [1], [1, 1])
    with pytest.raises(ValueError, match="tsrc"):
        gcut.maxflow(3, [0], [1], [1], tsrc=[1, 2])
    with pytest.raises(ValueError, match="does not fit int32"):
        gcut.maxflow(3, [0], [1], [2**31])
    with pytest.raises(ValueError, match="src: expected a 1-D"):
        gcut.maxflow(3, [[0]], [1], [1])
    with pytest.raises(gcut.InvalidError, match="negative|capacity"):
        gcut.maxflow(3, [0], [1], [-1])
    with pytest.raises(gcut.NotFoundError):
        gcut.maxflow(3, [0], [1], [1], backend="no-such-engine")
    with pytest.raises(ValueError, match="time_limit"):
        gcut.maxflow(3, [0], [1], [1], time_limit=-1)
    # int32 buffers only at the C level, whatever the Python layer does
    with pytest.raises(TypeError, match="int32"):
        gcut._gcut.Graph(2, np.array([0], np.int64), np.array([1], np.int32),
                         np.array([1], np.int32))


def test_unavailable_backend_error():
    missing = [b for b in gcut.backends() if not b.available]
    if not missing:
        pytest.skip("every back end can run here")
    with pytest.raises(gcut.UnavailableError) as ei:
        gcut.maxflow(2, [0], [1], [1], tsrc=[1, 0], tsink=[0, 1], backend=missing[0].name)
    assert str(ei.value)


def test_dimacs_round_trip(tmp_path, rng):
    g = random_graph(rng, 20, 60)
    path = tmp_path / "g.max"
    gcut.write_dimacs(path, 20, *g)
    net, info = gcut.read_dimacs(path)
    assert (info.source, info.sink) == (20, 21)
    r0 = gcut.maxflow(20, *g)
    r1 = net.solve()
    assert r1.flow == r0.flow
    assert r1.cut[:20].tolist() == r0.cut.tolist()
    src, dst, cap, rev, tsrc, tsink = net.arrays()
    assert tsrc[:20].tolist() == g[4].tolist() and tsink[:20].tolist() == g[5].tolist()


def test_dimacs_errors(tmp_path):
    bad = tmp_path / "bad.max"
    bad.write_text("p max 3 1\nn 1 s\nn 3 t\na 1 9 4\n")
    with pytest.raises(gcut.ParseError, match=r"bad.max:4") as ei:
        gcut.read_dimacs(bad)
    assert ei.value.status == 3 and ei.value.status_name == gcut._gcut.status_string(3)
    with pytest.raises(gcut.IOError, match="nope.max") as ei:
        gcut.read_dimacs(tmp_path / "nope.max")
    # the library's message as it is (not read as OSError's (errno, strerror))
    assert str(ei.value).startswith("gcut_graph_read_dimacs") and "[Errno" not in str(ei.value)
    assert ei.value.args == (str(ei.value),) and ei.value.status == 4
    with pytest.raises(OSError):
        gcut.read_dimacs(tmp_path / "nope.max")
    with pytest.raises(gcut.IOError):
        gcut.write_dimacs(tmp_path / "no" / "dir" / "x.max", 2, [0], [1], [1])


def test_time_limit_accepted():
    r = gcut.maxflow(2, [0], [1], [3], tsrc=[5, 0], tsink=[0, 5], time_limit=60)
    assert r.flow == 3
