#!/usr/bin/env python3
"""The tables of bench/results/grabcut-default-*.md from the per-image
files that bench/run-grabcut-settings.sh keeps (GCUT_SETTINGS_KEEP=DIR:
DIR/settings.txt, one setting a line, and DIR/N.txt, "name error% IoU"
per image for the N-th setting).

    bench/grabcut-settings-table.py BASELINE DIR [DIR ...]

BASELINE is the setting the others are compared with, as written in
settings.txt ("" or "--lambda 50"; a leading "--grabcut N" is ignored, so
that runs with more iterations compare among themselves). Prints one
Markdown row per setting (k, lambda from -k and --lambda, 5 and
GrabCut's default 35 when absent; runs kept before 2026-11-27f had 50 as
their default: give --lambda 50 in those settings): mean, median error, mean IoU, images better / worse than the
baseline, the mean change with a 95 % paired-bootstrap interval over the
images (4000 resamples, seed 1), and the mean error without the three
images that swing most on the GrabCut set (cross, banana1, 69020).
"""
import os
import random
import re
import statistics as st
import sys

SWINGS = {"cross", "banana1", "69020"}


def key(setting):
    lam = re.search(r"--lambda ([0-9.]+)", setting)
    k = re.search(r"-k ([0-9]+)", setting)
    return (int(k.group(1)) if k else 5, float(lam.group(1)) if lam else 35.0)


def load(folder):
    names = open(os.path.join(folder, "settings.txt")).read().split("\n")[:-1]
    for i, setting in enumerate(names):
        rows = {}
        with open(os.path.join(folder, f"{i}.txt")) as f:
            for line in f:
                name, err, iou = line.split()
                rows[name] = (float(err), float(iou))
        yield re.sub(r"--grabcut [0-9]+", "", setting).strip(), rows


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    base_key = key(sys.argv[1])
    runs = {}
    for folder in sys.argv[2:]:
        for setting, rows in load(folder):
            runs.setdefault(key(setting), rows)
    base = runs[base_key]
    names = sorted(base)
    random.seed(1)
    draws = [[random.randrange(len(names)) for _ in names] for _ in range(4000)]
    print("| k | lambda | mean error % | median error % | mean IoU | better / worse | "
          "mean change, 95 % interval | mean error % without cross, banana1, 69020 |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k, lam in sorted(runs, key=lambda t: (-t[0], t[1])):
        r = runs[(k, lam)]
        errs = [r[n][0] for n in names]
        d = [r[n][0] - base[n][0] for n in names]
        better = sum(x < -1e-9 for x in d)
        worse = sum(x > 1e-9 for x in d)
        means = sorted(st.mean(d[i] for i in ix) for ix in draws)
        change = "-" if (k, lam) == base_key else \
            f"{st.mean(d):+.2f} [{means[100]:+.2f}, {means[3899]:+.2f}]"
        rest = st.mean(r[n][0] for n in names if n not in SWINGS)
        print(f"| {k} | {lam:g} | {st.mean(errs):.2f} | {st.median(errs):.2f} | "
              f"{st.mean(r[n][1] for n in names):.4f} | {better} / {worse} | {change} | "
              f"{rest:.2f} |")


if __name__ == "__main__":
    main()
