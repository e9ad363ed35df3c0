"""Every ```python block of docs/python.md runs (the docs stay true)."""

import os
import re

import pytest

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


def blocks():
    if not os.path.exists(DOC):
        return []
    text = open(DOC, encoding="utf-8").read()
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


def gpu_ready():
    """A GPU with PyTorch and gcut's device grids (the GPU-array blocks)."""
    try:
        import torch
        import gcut
        return torch.cuda.is_available() and gcut.device_available()[0]
    except ImportError:
        return False


@pytest.mark.parametrize("code", blocks())
def test_block_runs(code, tmp_path, monkeypatch):
    if "import torch" in code and not gpu_ready():
        pytest.skip("a GPU-array block: needs a GPU, PyTorch and gcut's device grids")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, DOC, "exec"), {"__name__": "__doc_block__"})


def test_there_are_blocks():
    assert len(blocks()) >= 2


def test_first_segmentation_example_writes_its_picture(tmp_path):
    import runpy
    import sys
    import zlib

    example = os.path.join(os.path.dirname(__file__), "..", "examples", "first_segmentation.py")
    out = tmp_path / "seg.png"
    argv = sys.argv
    sys.argv = [example, str(out)]
    try:
        runpy.run_path(example, run_name="__main__")
    finally:
        sys.argv = argv
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # the IDAT chunk inflates to 120 rows of 1 + 328 bytes
    start = data.index(b"IDAT") + 4
    length = int.from_bytes(data[start - 8:start - 4], "big")
    assert len(zlib.decompress(data[start:start + length])) == 120 * (1 + 328)
