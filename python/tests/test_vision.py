"""gcut.grabcut and gcut.segment on numpy images, against the C tool gcut-seg
on the same image (the tool scores our mask as its ground truth: 0 errors)."""

import os
import re
import subprocess

import numpy as np
import pytest

import gcut

if not getattr(gcut._gcut, "HAVE_VISION", 0):
    pytest.skip("built without libgcut_vision", allow_module_level=True)


def scene(seed=0, noise=20):
    rng = np.random.default_rng(seed)
    img = np.zeros((80, 100, 3), np.uint8)
    img[:] = (30, 60, 200)
    img[20:60, 30:70] = (220, 180, 40)
    img = np.clip(img + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)
    truth = np.zeros((80, 100), bool)
    truth[20:60, 30:70] = True
    return img, truth


def seg_tool():
    d = os.environ.get("GCUT_TEST_BIN")
    path = os.path.join(d, "gcut-seg") if d else None
    if not path or not os.access(path, os.X_OK):
        pytest.skip("gcut-seg not found (GCUT_TEST_BIN)")
    return path


def run_tool(tmp_path, img, mask, args):
    h, w = mask.shape
    ppm, gt = tmp_path / "img.ppm", tmp_path / "mask.pgm"
    ppm.write_bytes(b"P6\n%d %d\n255\n" % (w, h) + img.tobytes())
    gt.write_bytes(b"P5\n%d %d\n255\n" % (w, h) + (mask * 255).astype(np.uint8).tobytes())
    out = subprocess.run([seg_tool(), str(ppm), *args, "--gt", str(gt)], check=True,
                         capture_output=True, text=True).stdout
    return {k: v for k, v in re.findall(r"^(\w+): (.*)$", out, flags=re.M)}


def test_grabcut_rect_recovers_and_matches_tool(tmp_path):
    img, truth = scene()
    mask, stats = gcut.grabcut(img, rect=(20, 10, 60, 60), with_stats=True)
    assert mask.dtype == np.bool_ and mask.shape == truth.shape
    assert (mask == truth).mean() > 0.99
    assert stats["iterations"] >= 1 and stats["backend"] and stats["energy"] > 0
    rep = run_tool(tmp_path, img, mask, ["--rect", "20,10,60,60"])
    assert float(rep["error"].split()[0]) == 0.0
    assert int(rep["foreground"]) == int(mask.sum())


def test_segment_seeds_matches_tool(tmp_path):
    img, truth = scene(1, noise=35)
    seeds = np.zeros(truth.shape, np.uint8)
    seeds[35:45, 45:55] = gcut._vision.SEED_FG
    seeds[:5, :] = gcut._vision.SEED_BG
    mask = gcut.segment(img, seeds, connectivity=4, lambda_=30)
    assert mask[35:45, 45:55].all() and not mask[:5].any()
    assert (mask == truth).mean() > 0.97
    picture = np.full(truth.shape, 128, np.uint8)  # the tool's seed picture: 255 fg, 0 bg
    picture[seeds == 1] = 255
    picture[seeds == 2] = 0
    pgm = tmp_path / "seeds.pgm"
    pgm.write_bytes(b"P5\n100 80\n255\n" + picture.tobytes())
    rep = run_tool(tmp_path, img, mask, ["--seeds", str(pgm), "--conn", "4", "--lambda", "30"])
    assert float(rep["error"].split()[0]) == 0.0


def test_gray_and_16_bit():
    img, truth = scene()
    gray = img.mean(axis=2).astype(np.uint8)
    m8 = gcut.grabcut(gray, rect=(20, 10, 60, 60))
    m16 = gcut.grabcut(gray.astype(np.uint16) * 257, rect=(20, 10, 60, 60))
    assert (m8 == truth).mean() > 0.95
    assert m16.tolist() == m8.tolist()


def test_errors():
    img, _ = scene()
    with pytest.raises(TypeError, match="uint8"):
        gcut.grabcut(img.astype(np.float32), rect=(1, 1, 5, 5))
    with pytest.raises(TypeError, match="exactly one"):
        gcut.grabcut(img)
    with pytest.raises(TypeError, match="exactly one"):
        gcut.grabcut(img, rect=(1, 1, 5, 5), seeds=np.zeros((80, 100), np.uint8))
    with pytest.raises(gcut.InvalidError, match="gcut_seeds_from_rect"):
        gcut.grabcut(img, rect=(0, 0, 100, 80))
    with pytest.raises(ValueError, match="seeds: values"):
        gcut.segment(img, np.full((80, 100), 3, np.uint8))
    with pytest.raises(ValueError, match="seeds: shape"):
        gcut.segment(img, np.zeros((8, 10), np.uint8))
    with pytest.raises(gcut.InvalidError):
        gcut.segment(img, np.zeros((80, 100), np.uint8))  # no seeds at all
    with pytest.raises(ValueError, match="iterations"):
        gcut.grabcut(img, rect=(1, 1, 5, 5), iterations=0)
    with pytest.raises(ValueError, match="shape"):
        gcut.grabcut(np.zeros((4, 4, 2), np.uint8), rect=(1, 1, 2, 2))
    with pytest.raises(gcut.NotFoundError):
        gcut.grabcut(img, rect=(20, 10, 60, 60), backend="no-such-engine")


def test_segmentation_session_warm_strokes_equal_cold():
    img, truth = scene(2, noise=45)
    s = gcut.Segmentation(img, rect=(20, 10, 60, 60), connectivity=4)
    mask = s.grabcut(3)
    assert (mask == truth).mean() > 0.95
    stroke = np.zeros(truth.shape, bool)
    stroke[0:6, 0:100] = True
    stroke[25:30, 35:45] = True  # a wrong background stroke inside the object
    s.add_stroke("bg", stroke)
    warm = s.solve()
    assert s.stats["warm_start"] is True
    assert not warm[stroke].any()
    # the same models, the same seeds, solved cold in a second session
    seeds = np.zeros(truth.shape, np.uint8)
    seeds[:, :] = gcut._vision.SEED_BG
    seeds[10:70, 20:80] = gcut._vision.SEED_UNKNOWN
    t = gcut.Segmentation(img, rect=(20, 10, 60, 60), connectivity=4)
    t.grabcut(3)
    seeds[stroke] = gcut._vision.SEED_BG
    t.set_seeds(seeds)
    cold = t.solve()
    assert cold.tolist() == warm.tolist()
    s.add_stroke("unknown", (np.array([27]), np.array([40])))
    s.add_stroke(1, np.array([27 * 100 + 41]))
    assert s.solve()[27, 41]
    with pytest.raises(ValueError, match="label"):
        s.add_stroke("maybe", stroke)
    with pytest.raises(gcut.InvalidError):
        s.add_stroke("fg", np.array([10**6]))
    with pytest.raises(ValueError, match="seeds: values"):
        s.set_seeds(np.full(truth.shape, 7, np.uint8))
