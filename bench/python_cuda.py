#!/usr/bin/env python3
"""GPU arrays from PyTorch: gcut.grid_cut on CUDA tensors (solved where they
are, gcut/device.h) against the host round trip a user without it writes
(tensor.cpu().numpy(), a host solve on cuda-grid, the mask back to the GPU).

    PYTHONPATH=build/python GCUT_PLUGIN_PATH=build/lib python3 bench/python_cuda.py [SIZES] [REPEAT]

SIZES: comma-separated megapixels (default 0.3,1,4,16); REPEAT: timed calls
per path (default 20; the median is reported, after two warm-up calls).
A float 4-connected segmentation-like energy (a disc of foreground, noise,
smooth pairwise weights) is generated on the GPU with PyTorch. Every path
must give the same mask. Prints a markdown table.
"""

import math
import sys
import time

import numpy as np
import torch

import gcut


def energy(mp, seed=7):
    side = int(round(math.sqrt(mp * 1e6)))
    h, w = side, side
    g = torch.Generator(device="cuda").manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(h, device="cuda"), torch.arange(w, device="cuda"),
                            indexing="ij")
    r = torch.sqrt((yy - h / 2.0) ** 2 + (xx - w / 2.0) ** 2)
    inside = (r < 0.3 * side).float()
    noise = torch.rand((h, w), generator=g, device="cuda")
    fg = (1.0 - inside) * 8.0 + noise * 6.0
    bg = inside * 8.0 + torch.rand((h, w), generator=g, device="cuda") * 6.0
    pw = 2.0 + torch.rand((2, h, w), generator=g, device="cuda")
    return fg.float().contiguous(), bg.float().contiguous(), pw.float().contiguous()


def median_ms(fn, repeat):
    for _ in range(2):
        fn()
    times = []
    for _ in range(repeat):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(times))


def main():
    sizes = [float(s) for s in (sys.argv[1] if len(sys.argv) > 1 else "0.3,1,4,16").split(",")]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(f"device: {torch.cuda.get_device_name(0)}; torch {torch.__version__}; "
          f"gcut {gcut.version()}")
    print()
    print("| MP | device arrays (ms) | host round trip (ms) | of which copies (ms) | ratio |")
    print("|---:|---:|---:|---:|---:|")
    for mp in sizes:
        fg, bg, pw = energy(mp)
        out = {}

        def dev():
            out["d"] = gcut.grid_cut(fg, bg, pw)

        def host():
            args = [a.cpu().numpy() for a in (fg, bg, pw)]
            out["h"] = torch.from_numpy(gcut.grid_cut(*args, backend="cuda-grid")).cuda()

        def copies():
            args = [a.cpu().numpy() for a in (fg, bg, pw)]
            torch.from_numpy(np.zeros(args[0].shape, dtype=np.bool_)).cuda()

        t_dev = median_ms(dev, repeat)
        t_host = median_ms(host, repeat)
        t_copy = median_ms(copies, repeat)
        if not torch.equal(out["d"], out["h"]):
            sys.exit(f"{mp} MP: the device and host masks differ")
        print(f"| {mp:g} | {t_dev:.2f} | {t_host:.2f} | {t_copy:.2f} | {t_host / t_dev:.2f}x |")


if __name__ == "__main__":
    main()
