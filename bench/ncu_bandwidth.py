#!/usr/bin/env python3
"""ncu_bandwidth.py - bytes moved and achieved memory bandwidth of a GPU solve.

Reads the CSV that Nsight Compute writes for every kernel of a run
(`ncu --csv --page raw --print-units base --metrics
dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum ...`)
and prints one summary per solve (--per: a kernel launched once a solve):
launches, DRAM bytes read and written, the kernels'
own time under ncu (kernels serialised, one at a time), the bandwidth they
achieved, the same bytes over the solve's wall time measured without ncu
(--wall-ms), and against a peak (--peak-gbs, default 3000: an H100's
device-to-device copy, bytes read and written). --only REGEX keeps the
kernels whose names match (e.g. the grid engine's within a segmentation
run). --markdown prints one table row; --top N the N kernels that moved
the most bytes.

    python3 bench/ncu_bandwidth.py run.csv --wall-ms 4.8 --label grid2d:...
"""
import argparse
import csv
import re
import sys


def rows_of(path):
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    rd = list(csv.reader(lines))
    head = None
    for i, r in enumerate(rd):
        if "Kernel Name" in r:
            head, start = r, i + 1
            break
    if head is None:
        sys.exit(f"{path}: no ncu CSV header (no kernel profiled?)")
    out = []
    for r in rd[start:]:
        if len(r) != len(head):
            continue
        d = dict(zip(head, r))
        try:
            out.append((d["Kernel Name"], float(d["dram__bytes_read.sum"].replace(",", "")),
                        float(d["dram__bytes_write.sum"].replace(",", "")),
                        float(d["gpu__time_duration.sum"].replace(",", ""))))
        except ValueError:
            continue  # the units row
    return out


def short(name):
    """The kernel's name without its return type, namespaces and arguments."""
    name = re.sub(r"\((?:[^()]|\([^()]*\))*\)\s*$", "", name)  # the argument list
    head, sep, tmpl = name.partition("<")
    return head.split("::")[-1].split(" ")[-1] + sep + tmpl


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--wall-ms", type=float, default=0.0, help="the solve's time without ncu")
    ap.add_argument("--peak-gbs", type=float, default=3000.0)
    ap.add_argument("--only", default=None, help="regex on kernel names")
    ap.add_argument("--label", default="")
    ap.add_argument("--rounds", default="", help="the engine's rounds, as text for the row")
    ap.add_argument("--per", default=None,
                    help="regex of a kernel launched once per solve (e.g. cut_kernel): "
                    "the totals are divided by its launches")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--top", type=int, default=0)
    a = ap.parse_args()
    ks = rows_of(a.csv)
    if a.only:
        ks = [k for k in ks if re.search(a.only, k[0])]
    if not ks:
        sys.exit("no kernel left")
    solves = 1
    if a.per:
        solves = max(1, sum(1 for k in ks if re.search(a.per, k[0])))
    rd = sum(k[1] for k in ks) / solves
    wr = sum(k[2] for k in ks) / solves
    ns = sum(k[3] for k in ks) / solves
    launches = len(ks) / solves
    b = rd + wr
    kern_gbs = b / ns if ns else 0.0  # bytes per ns = GB/s
    wall_gbs = b / (a.wall_ms * 1e6) if a.wall_ms > 0 else 0.0
    floor_ms = b / (a.peak_gbs * 1e6)
    if a.markdown:
        print(f"| {a.label} | {launches:.0f} | {a.rounds} | {b / 1e9:.3f} | {b / launches / 1e6:.2f} | "
              f"{ns / 1e6:.2f} | {kern_gbs:.0f} ({100 * kern_gbs / a.peak_gbs:.0f} %) | "
              f"{a.wall_ms:.2f} | {wall_gbs:.0f} ({100 * wall_gbs / a.peak_gbs:.0f} %) | {floor_ms:.3f} |")
    else:
        print(f"{a.label}: per solve ({solves} profiled) {launches:.0f} kernels, DRAM read {rd / 1e9:.3f} GB, "
              f"written {wr / 1e9:.3f} GB, "
              f"{b / launches / 1e6:.2f} MB a launch; kernel time {ns / 1e6:.3f} ms -> {kern_gbs:.0f} GB/s "
              f"({100 * kern_gbs / a.peak_gbs:.1f} % of {a.peak_gbs:.0f})")
        if a.wall_ms > 0:
            print(f"  over the solve's {a.wall_ms:.3f} ms: {wall_gbs:.0f} GB/s "
                  f"({100 * wall_gbs / a.peak_gbs:.1f} %); these bytes at the peak: {floor_ms:.3f} ms")
    if a.top:
        agg = {}
        for k in ks:
            e = agg.setdefault(short(k[0]), [0, 0.0, 0.0])
            e[0] += 1
            e[1] += k[1] + k[2]
            e[2] += k[3]
        for name, (cnt, by, t) in sorted(agg.items(), key=lambda x: -x[1][1])[: a.top]:
            print(f"    {name}: {cnt / solves:.0f} launches, {by / solves / 1e9:.3f} GB, "
                  f"{t / solves / 1e6:.3f} ms, {by / t if t else 0:.0f} GB/s")


if __name__ == "__main__":
    main()
