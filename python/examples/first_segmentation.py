#!/usr/bin/env python3
"""The first segmentation of docs/python.md, with its picture: the noisy
image and the mask side by side, written as a PNG (zlib only, no imaging
library needed).

    PYTHONPATH=build/python /usr/bin/python3 python/examples/first_segmentation.py OUT.png
"""

import struct
import sys
import zlib

import numpy as np

import gcut


def write_png(path, gray):
    """An 8-bit grayscale PNG of a 2-D uint8 array."""
    h, w = gray.shape
    raw = b"".join(b"\0" + gray[y].tobytes() for y in range(h))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:120, 0:160]
    truth = (yy - 60) ** 2 + (xx - 80) ** 2 < 40 ** 2
    image = np.clip(np.where(truth, 170, 80) + rng.normal(0, 35, truth.shape), 0, 255)
    cost_fg = np.abs(image - 170).astype(np.int32)
    cost_bg = np.abs(image - 80).astype(np.int32)
    mask = gcut.grid_cut(cost_fg, cost_bg, pairwise=40)
    print(f"pixels right: {(mask == truth).mean():.4f}")
    gap = np.full((120, 8), 255, np.uint8)
    write_png(sys.argv[1] if len(sys.argv) > 1 else "first-segmentation.png",
              np.hstack([image.astype(np.uint8), gap, (mask * 255).astype(np.uint8)]))


if __name__ == "__main__":
    main()
