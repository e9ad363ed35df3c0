"""gcut.multi_baseline, gcut.plane_sweep, read_cameras and the image I/O,
against the C tool gcut-mvs on the same files (GCUT_TEST_BIN; the shared
data of ../shared/data/multiview or GCUT_DATA_DIR): the same energy and the
same disparities / depths, bit for bit."""

import json
import os
import subprocess

import numpy as np
import pytest

import gcut

if not getattr(gcut._gcut, "HAVE_VISION", 0):
    pytest.skip("built without libgcut_vision", allow_module_level=True)


def data_dir(name):
    roots = [os.environ.get("GCUT_DATA_DIR", ""),
             os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data")]
    for r in roots:
        p = os.path.join(r, "multiview", name)
        if r and os.path.isdir(p):
            return p
    pytest.skip(f"multiview/{name} not found (GCUT_DATA_DIR)")


def mvs_tool():
    d = os.environ.get("GCUT_TEST_BIN")
    path = os.path.join(d, "gcut-mvs") if d else None
    if not path or not os.access(path, os.X_OK):
        pytest.skip("gcut-mvs not found (GCUT_TEST_BIN)")
    return path


def read_pfm(path):
    """A Middlebury PFM (one channel): rows bottom to top."""
    with open(path, "rb") as f:
        assert f.readline().strip() == b"Pf"
        w, h = (int(v) for v in f.readline().split())
        scale = float(f.readline())
        data = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    return data.reshape(h, w)[::-1]


def textured_pair(shift=3, h=40, w=64, seed=3):
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 256, (h, w + shift), dtype=np.uint8)
    # left (x, y) is right (x - shift, y): disparity `shift`
    return np.ascontiguousarray(base[:, :w]), np.ascontiguousarray(base[:, shift:])


def test_one_view_is_stereo():
    left, right = textured_pair()
    # multi-view keeps BT, lambda 5 and one view (gcut_mbs_options_init)
    want = gcut.stereo(left, right, ndisp=8, cost="bt", lambda_=5, lr_check=False)
    got = gcut.multi_baseline(left, [right], [1.0], ndisp=8)
    assert got.dtype == np.float32 and got.shape == left.shape
    assert np.array_equal(got, want)
    # and the shift is found in the interior
    assert np.median(got[:, 8:-8]) == 3


def test_multi_baseline_matches_tool(tmp_path):
    t = data_dir("tsukuba5")
    cols = []
    for i in (2, 3, 4):  # a band of 64 rows of the rectified views (faster)
        img = gcut.load_image(os.path.join(t, f"scene1.row3.col{i}.ppm"))[120:184]
        cols.append(str(tmp_path / f"col{i}.png"))
        gcut.save_image(cols[-1], np.ascontiguousarray(img))
    pfm = tmp_path / "d.pfm"
    out = subprocess.run([mvs_tool(), "--views", ",".join(cols), "--baselines", "-1,0,1",
                          "--ndisp", "16", "--pfm", str(pfm), "--json"],
                         check=True, capture_output=True, text=True).stdout
    rep = json.loads(out)
    imgs = [gcut.load_image(c) for c in cols]
    disp, stats = gcut.multi_baseline(imgs[1], [imgs[0], imgs[2]], [-1, 1], ndisp=16,
                                      with_stats=True)
    assert stats["energy"] == rep["energy"]
    assert np.array_equal(disp, read_pfm(pfm))


def small_temple(tmp_path, step=4):
    """The temple ring at 1/step size (every step-th pixel; K scaled so that
    pixel centres keep their rays): a camera file and PNGs in tmp_path."""
    t = data_dir("templeSparseRing")
    cams = gcut.read_cameras(os.path.join(t, "templeSR_par.txt"))
    s = np.diag([1.0 / step, 1.0 / step, 1.0])
    lines = [str(len(cams))]
    for c in cams:
        img = gcut.load_image(os.path.join(t, c.name))[::step, ::step]
        gcut.save_image(tmp_path / c.name, np.ascontiguousarray(img))
        k = s @ c.K
        nums = [*k.ravel(), *c.R.ravel(), *c.t]
        lines.append(" ".join([c.name] + [repr(float(v)) for v in nums]))
    par = tmp_path / "small_par.txt"
    par.write_text("\n".join(lines) + "\n")
    return par


def test_plane_sweep_matches_tool(tmp_path):
    par = small_temple(tmp_path)
    pfm = tmp_path / "z.pfm"
    out = subprocess.run([mvs_tool(), "--cameras", str(par), "--ref", "templeSR0001.png",
                          "--neighbours", "3", "--depths", "32", "--mask-threshold", "20",
                          "--pfm", str(pfm), "--json"],
                         check=True, capture_output=True, text=True).stdout
    rep = json.loads(out)
    cams = {c.name: c for c in gcut.read_cameras(par)}
    names = ["templeSR0001.png", *rep["neighbours"]]
    images = [gcut.load_image(tmp_path / n) for n in names]
    labels, depth, stats = gcut.plane_sweep(images, [cams[n] for n in names], rep["znear"],
                                            rep["zfar"], ndepth=32, mask_threshold=20,
                                            with_stats=True)
    assert stats["energy"] == rep["energy"]
    z = read_pfm(pfm)
    masked = ~np.isfinite(z)
    assert 0 < masked.sum() < masked.size
    assert np.array_equal(labels < 0, masked)
    assert np.array_equal(depth[~masked].astype(np.float32), z[~masked])
    assert np.all(depth[masked] == 0)


def test_bad_input():
    left, right = textured_pair()
    with pytest.raises(ValueError, match="baselines"):
        gcut.multi_baseline(left, [right], [1.0, 2.0])
    with pytest.raises(ValueError, match="combine"):
        gcut.multi_baseline(left, [right], [1.0], combine="median")
    with pytest.raises(gcut.InvalidError):
        gcut.multi_baseline(left, [right], [0.0])  # a zero baseline
    with pytest.raises(TypeError, match=r"images\[1\]"):
        gcut.multi_baseline(left, [right.astype(np.float32)], [1.0])
    cam = {"K": np.eye(3), "R": np.eye(3), "t": np.zeros(3)}
    with pytest.raises(ValueError, match="depth range"):
        gcut.plane_sweep([left, right], [cam, cam], 2.0, 1.0)
    with pytest.raises(ValueError, match=r"cameras\[1\]"):
        gcut.plane_sweep([left, right], [cam, {"K": np.eye(2), "R": np.eye(3), "t": [0, 0, 0]}],
                         1.0, 2.0)
    with pytest.raises(gcut.IOError):
        gcut.read_cameras("/nonexistent/cams_par.txt")
    with pytest.raises(gcut.Error):
        gcut.load_image("/nonexistent/x.png")


def test_image_round_trip(tmp_path):
    rng = np.random.default_rng(1)
    for a in (rng.integers(0, 256, (7, 9, 3), dtype=np.uint8),
              rng.integers(0, 65536, (5, 4), dtype=np.uint16)):
        p = tmp_path / "x.png"
        gcut.save_image(p, a)
        assert np.array_equal(gcut.load_image(p), a)
    m = np.zeros((3, 4), bool)
    m[1, 2] = True
    gcut.save_image(tmp_path / "m.png", m)
    assert np.array_equal(gcut.load_image(tmp_path / "m.png"), m.astype(np.uint8) * 255)
