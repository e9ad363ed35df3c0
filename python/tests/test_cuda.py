"""GPU arrays (gcut/_cuda.py, gcut/device.h): PyTorch, CuPy and DLPack arrays
solved by cuda-grid where they are, against the host path on copies of the
same arrays (the same mask, bit for bit), and the refusals that keep data
from crossing PCIe behind the caller's back.

The device tests skip without a GPU or without PyTorch/CuPy (the CI machine
has neither); scripts/gpu-check.sh runs them on the H100 machine. The
refusal tests at the end run everywhere, with an object that claims
``__cuda_array_interface__``.
"""

import threading

import numpy as np
import pytest

import gcut
from gcut import _cuda
from conftest import grid_arrays

try:
    import torch
    HAVE_TORCH = torch.cuda.is_available()
except ImportError:  # pragma: no cover - depends on the machine
    torch = None
    HAVE_TORCH = False
try:
    import cupy
    HAVE_CUPY = cupy.cuda.runtime.getDeviceCount() > 0
except Exception:  # noqa: BLE001 - no cupy or no device
    cupy = None
    HAVE_CUPY = False

DEVICE_OK = gcut.device_available()[0]
needs_torch = pytest.mark.skipif(not (DEVICE_OK and HAVE_TORCH),
                                 reason="needs a GPU, gcut's device grids and PyTorch")
needs_cupy = pytest.mark.skipif(not (DEVICE_OK and HAVE_CUPY),
                                reason="needs a GPU, gcut's device grids and CuPy")


def energy(rng, shape, conn, kind):
    """Random unary costs and per-direction weights (connectivity // 2, *shape)."""
    if kind == "float":
        fg = (rng.random(shape) * 100 - 30).astype(np.float32)
        bg = (rng.random(shape) * 100).astype(np.float32)
        pw = (rng.random((conn // 2,) + shape) * 25).astype(np.float32)
    else:
        fg = rng.integers(0, 400, shape).astype(np.int32)
        bg = rng.integers(0, 400, shape).astype(np.int32)
        pw = rng.integers(0, 60, (conn // 2,) + shape).astype(np.int32)
    return fg, bg, pw


CASES = [((64, 80), 4, "float"), ((64, 80), 4, "int"), ((33, 47), 8, "float"),
         ((300, 400), 4, "float"), ((12, 14, 16), 6, "float"), ((9, 10, 11), 26, "int"),
         ((1, 1), 4, "float")]


@needs_torch
@pytest.mark.parametrize("shape,conn,kind", CASES)
def test_torch_matches_host(rng, shape, conn, kind):
    fg, bg, pw = energy(rng, shape, conn, kind)
    want = gcut.grid_cut(fg, bg, pw, connectivity=conn)
    dev = [torch.from_numpy(a).cuda() for a in (fg, bg, pw)]
    for _ in range(3):  # a changing result is a race
        mask = gcut.grid_cut(*dev, connectivity=conn)
        assert isinstance(mask, torch.Tensor) and mask.is_cuda and mask.dtype == torch.bool
        assert mask.shape == shape
        assert np.array_equal(mask.cpu().numpy(), want)
    rep = gcut.last_device_result()
    assert rep.backend == "cuda-grid"
    assert rep.stats["transfer_ms"] == 0.0  # nothing uploaded or downloaded
    if kind == "float":
        p = gcut.GridProblem(shape, conn)
        p.set_energy(fg, bg, pw)
        p.solve()
        assert rep.quantization["scale"] == p.quantization["scale"]
        assert rep.flow == p.flow
        assert rep.quantization["bound"] == pytest.approx(p.quantization["bound"], rel=1e-12)
    else:
        assert rep.quantization is None


@needs_torch
def test_torch_pairwise_forms(rng):
    shape = (40, 50)
    fg, bg, pw = energy(rng, shape, 4, "float")
    dfg, dbg = torch.from_numpy(fg).cuda(), torch.from_numpy(bg).cuda()
    # a scalar weight, and one weight array for both directions
    assert np.array_equal(gcut.grid_cut(dfg, dbg, 2.5).cpu().numpy(),
                          gcut.grid_cut(fg, bg, np.float32(2.5)))
    assert np.array_equal(gcut.grid_cut(dfg, dbg, torch.from_numpy(pw[0]).cuda()).cpu().numpy(),
                          gcut.grid_cut(fg, bg, pw[0]))


@needs_torch
def test_torch_conversions_on_device(rng):
    """float64, transposed and int64 tensors are converted once on the device."""
    fg, bg, pw = energy(rng, (30, 20), 4, "float")
    want = gcut.grid_cut(fg, bg, pw)
    dfg = torch.from_numpy(fg.T.copy()).cuda().double().t()  # float64, not contiguous
    got = gcut.grid_cut(dfg, torch.from_numpy(bg).cuda(), torch.from_numpy(pw).cuda())
    assert np.array_equal(got.cpu().numpy(), want)
    ifg, ibg, ipw = energy(rng, (30, 20), 4, "int")
    want = gcut.grid_cut(ifg, ibg, ipw)
    got = gcut.grid_cut(*(torch.from_numpy(a.astype(np.int64)).cuda() for a in (ifg, ibg, ipw)))
    assert np.array_equal(got.cpu().numpy(), want)


@needs_torch
def test_torch_side_stream(rng):
    """Arrays produced on a side stream with work still queued: the solver
    waits for that stream (__cuda_array_interface__ v3 names it)."""
    shape = (512, 512)
    fg, bg, pw = energy(rng, shape, 4, "float")
    want = gcut.grid_cut(fg, bg, pw)
    side = torch.cuda.Stream()
    base = torch.from_numpy(fg).cuda()
    torch.cuda.synchronize()
    with torch.cuda.stream(side):
        big = torch.randn(4096, 4096, device="cuda")
        for _ in range(20):  # queue work ahead of the array the solve reads
            big = torch.tanh(big @ big)
        dfg = base * 1.0 + big[:1, :1] * 0.0  # ready only after the products
        dbg = torch.from_numpy(bg).to("cuda", non_blocking=True)
        dpw = torch.from_numpy(pw).to("cuda", non_blocking=True)
        mask = gcut.grid_cut(dfg, dbg, dpw)
    torch.cuda.synchronize()
    assert np.array_equal(mask.cpu().numpy(), want)


@needs_torch
def test_torch_threads(rng):
    """Several threads solving device grids at once (a solver per thread)."""
    shape = (256, 256)
    fg, bg, pw = energy(rng, shape, 4, "float")
    want = gcut.grid_cut(fg, bg, pw)
    dev = [torch.from_numpy(a).cuda() for a in (fg, bg, pw)]
    errors = []

    def work():
        try:
            for _ in range(5):
                m = gcut.grid_cut(*dev)
                if not np.array_equal(m.cpu().numpy(), want):
                    errors.append("mask differs")
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@needs_torch
def test_torch_bad_values_and_forms(rng):
    fg, bg, pw = energy(rng, (20, 30), 4, "float")
    dfg, dbg = torch.from_numpy(fg).cuda(), torch.from_numpy(bg).cuda()
    bad = pw.copy()
    bad[1, 3, 4] = np.nan
    with pytest.raises(gcut.InvalidError, match=r"pair\[1\]\[94\] is NaN"):
        gcut.grid_cut(dfg, dbg, torch.from_numpy(bad).cuda())
    with pytest.raises(TypeError, match="host array with costs on the GPU"):
        gcut.grid_cut(dfg, dbg, pw)
    with pytest.raises(ValueError, match="takes host arrays"):
        gcut.grid_cut(dfg, dbg, 1.0, backend="cpu-bk")
    got = gcut.grid_cut(dfg, dbg, 1.0, backend="cpu-bk", allow_host_copy=True)
    assert isinstance(got, torch.Tensor) and got.is_cuda
    assert np.array_equal(got.cpu().numpy(), gcut.grid_cut(fg, bg, np.float32(1.0)))
    with pytest.raises(ValueError, match="cost_bg: expected shape"):
        gcut.grid_cut(dfg, dbg[:5], 1.0)
    ifg = torch.from_numpy(rng.integers(0, 9, (20, 30)).astype(np.int32)).cuda()
    with pytest.raises(TypeError, match="fractional weight"):
        gcut.grid_cut(ifg, ifg, 0.5)
    neg = ifg.clone()
    neg[2, 3] = -4
    with pytest.raises(gcut.InvalidError, match=r"cost_fg\[63\] is negative \(-4\)"):
        gcut.grid_cut(neg, ifg, 1)


@needs_cupy
@pytest.mark.parametrize("shape,conn,kind", CASES[:4])
def test_cupy_matches_host(rng, shape, conn, kind):
    fg, bg, pw = energy(rng, shape, conn, kind)
    want = gcut.grid_cut(fg, bg, pw, connectivity=conn)
    mask = gcut.grid_cut(*(cupy.asarray(a) for a in (fg, bg, pw)), connectivity=conn)
    assert isinstance(mask, cupy.ndarray) and mask.dtype == cupy.bool_
    assert np.array_equal(mask.get(), want)


class DLPackOnly:
    """An array that offers DLPack alone (as JAX arrays do)."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, stream=None):
        return self.t.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


@needs_torch
def test_dlpack_input_and_device_array_output(rng):
    fg, bg, pw = energy(rng, (48, 64), 8, "float")
    want = gcut.grid_cut(fg, bg, pw, connectivity=8)
    dev = [DLPackOnly(torch.from_numpy(a).cuda()) for a in (fg, bg, pw)]
    mask = gcut.grid_cut(*dev, connectivity=8)
    assert isinstance(mask, gcut.DeviceArray)  # gcut allocates for unknown frameworks
    assert np.array_equal(mask.get(), want)
    # both exports read it without a copy
    via_cai = torch.as_tensor(mask, device="cuda")
    assert via_cai.data_ptr() == mask.ptr
    assert np.array_equal(via_cai.cpu().numpy(), want)
    via_dl = torch.from_dlpack(mask)
    assert via_dl.data_ptr() == mask.ptr and via_dl.dtype == torch.bool
    del mask  # the tensors keep the memory alive
    assert np.array_equal(via_dl.cpu().numpy(), want)


@needs_torch
def test_no_host_round_trip_is_faster(rng):
    """The device path against copying to the host and back (2 MP)."""
    import time
    shape = (1200, 1600)
    fg, bg, pw = energy(rng, shape, 4, "float")
    dev = [torch.from_numpy(a).cuda() for a in (fg, bg, pw)]
    gcut.grid_cut(*dev)  # warm up: context, device arrays
    gcut.grid_cut(*[a.cpu().numpy() for a in dev], backend="cuda-grid")
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    m1 = gcut.grid_cut(*dev)
    t1 = time.perf_counter()
    host = [a.cpu().numpy() for a in dev]
    m2 = torch.from_numpy(gcut.grid_cut(*host, backend="cuda-grid")).cuda()
    torch.cuda.synchronize()
    t2 = time.perf_counter()
    assert torch.equal(m1, m2)
    print(f"device path {1e3 * (t1 - t0):.2f} ms, host round trip {1e3 * (t2 - t1):.2f} ms")


# ------------------------------------------------------------ everywhere

class FakeDevice:
    """Claims to be a device array (the pointer is host memory): enough to
    check what gcut does before it touches the data."""

    def __init__(self, a):
        self.a = np.ascontiguousarray(a)

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.a.shape, "typestr": self.a.dtype.str, "version": 3,
                "data": (self.a.ctypes.data, False), "strides": None, "stream": None}


def test_device_arrays_never_copied_silently():
    a = FakeDevice(np.ones((4, 5), np.float32))
    assert _cuda.is_device_array(a)
    assert not _cuda.is_device_array(np.ones(3))
    if not DEVICE_OK:
        with pytest.raises(gcut.UnavailableError, match="allow_host_copy"):
            gcut.grid_cut(a, a, 1.0)
    with pytest.raises(ValueError, match="takes host arrays"):
        gcut.grid_cut(a, a, 1.0, backend="cpu-bk")


def test_device_available_reports_why():
    ok, why = gcut.device_available()
    assert isinstance(ok, bool) and isinstance(why, str) and why


@needs_torch
def test_grid_problem_on_device(rng):
    shape = (50, 70)
    fg, bg, pw = energy(rng, shape, 8, "float")
    want = gcut.grid_cut(fg, bg, pw, connectivity=8)
    p = gcut.GridProblem(shape, 8)
    p.set_energy(*(torch.from_numpy(a).cuda() for a in (fg, bg, pw)))
    mask = p.solve()
    assert mask.is_cuda and np.array_equal(mask.cpu().numpy(), want)
    assert p.result.backend == "cuda-grid" and p.quantization["scale"] > 0
    p.set_energy(fg, bg, pw)  # back to host arrays
    assert np.array_equal(p.solve(), want)


def test_grid_problem_device_arrays_refused_without_device():
    a = FakeDevice(np.ones((4, 5), np.float32))
    p = gcut.GridProblem((4, 5))
    p.set_energy(a, a, 1.0)
    with pytest.raises(TypeError, match="GPU arrays"):
        p.set_unary(np.ones((4, 5)), np.ones((4, 5)))
    if not DEVICE_OK:
        with pytest.raises(gcut.UnavailableError):
            p.solve()
    p.set_energy(np.ones((4, 5), np.int32), np.zeros((4, 5), np.int32), 1)
    assert not p.solve().any()


def test_host_only_functions_refuse_device_arrays():
    """Every entry point but grid_cut / GridProblem.set_energy takes host
    arrays: a GPU array is refused by name, never copied behind the back."""
    img = FakeDevice(np.zeros((6, 7, 3), np.uint8))
    gray = FakeDevice(np.zeros((6, 7), np.uint8))
    seeds = np.zeros((6, 7), np.uint8)
    calls = [
        ("image", lambda: gcut.segment(img, seeds)),
        ("image", lambda: gcut.grabcut(img, rect=(1, 1, 4, 4))),
        ("seeds", lambda: gcut.segment(np.zeros((6, 7, 3), np.uint8), FakeDevice(seeds))),
        ("left", lambda: gcut.stereo(gray, np.zeros((6, 7), np.uint8), 4)),
        ("right", lambda: gcut.stereo(np.zeros((6, 7), np.uint8), gray, 4)),
        ("unary", lambda: gcut.alpha_expansion(FakeDevice(np.zeros((6, 7, 3), np.int32)))),
        ("cap", lambda: gcut.maxflow(2, [0], [1], FakeDevice(np.ones(1, np.int32)))),
    ]
    for name, call in calls:
        with pytest.raises(TypeError, match=f"{name}.*GPU memory"):
            call()


@needs_torch
@pytest.mark.parametrize("conn,shape", [(6, (12, 9, 10)), (26, (9, 8, 7)), (4, (40, 33))])
def test_solve_slabs_on_devices(rng, conn, shape):
    """gcut.solve_slabs with PyTorch CUDA arrays read in place (one slab
    per GPU where there are several), host slabs mixed in: the whole
    grid's flow and mask."""
    p, whole, src, snk, caps = grid_arrays(rng, shape, conn)
    ngpu = torch.cuda.device_count()
    cuts = [3, 2, shape[0] - 5]
    slabs, at = [], 0
    for i, k in enumerate(cuts):
        sl = slice(at, at + k)
        arrays = [src[sl], snk[sl]] + [c[sl] for c in caps]
        if i != 1:  # slab 1 stays in host memory (dealt to devices=)
            dev = torch.device("cuda", i % ngpu)
            arrays = [torch.from_numpy(np.ascontiguousarray(a)).to(dev) for a in arrays]
        else:
            arrays = [a.copy() for a in arrays]
        slabs.append((arrays[0], arrays[1], arrays[2:]))
        at += k
    flow, masks, stats = gcut.solve_slabs(slabs, conn, devices=list(range(ngpu)))
    assert flow == p.flow
    assert np.array_equal(np.concatenate(masks, axis=0), whole)
