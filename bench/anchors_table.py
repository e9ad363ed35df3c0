#!/usr/bin/env python3
"""The table of bench/run-anchors.sh from its CSV (also for a run cut short).

    anchors_table.py anchors.csv anchors.md SET THREADS
"""
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
insts = []
for r in rows:
    if r["instance"] not in insts:
        insts.append(r["instance"])
codes = []
for r in rows:
    if r["code"] not in codes:
        codes.append(r["code"])
cell = {(r["instance"], r["code"]): r for r in rows}
out = []
out.append("| instance | arcs | " + " | ".join(codes) +
           " | gcut 1-thread / best 1-thread anchor | gcut parallel / peibfs | best gcut / HPF |"
           " flows agree |")
out.append("|---|---:|" + "---:|" * len(codes) + "---:|---:|---:|---|")
ratios_cpu, ratios_hpf, ratios_par = [], [], []
for i in insts:
    vals, flows, best = [], set(), {}
    for c in codes:
        r = cell.get((i, c))
        if not r:
            vals.append("")
            continue
        if r["solve_ms"] and r["status"] in ("ok", "unchecked"):
            ms = float(r["solve_ms"])
            vals.append(f"{ms:.1f}")
            flows.add(r["flow"])
            k = r["kind"]
            best[k] = min(best.get(k, math.inf), ms)
            if c in ("hpf", "peibfs"):
                best[c] = ms
        elif r["status"].startswith("unsupported"):
            vals.append("n/a")
        else:
            vals.append(r["status"])
    gc, ac = best.get("gcut-cpu"), best.get("anchor-cpu")
    gp, pe = best.get("gcut-par"), best.get("peibfs")
    rp = f"{gp / pe:.2f}" if gp and pe else ""
    if rp: ratios_par.append(gp / pe)
    g = min(best.get("gcut-cpu", math.inf), best.get("gcut-par", math.inf),
            best.get("gcut-gpu", math.inf))
    rc = f"{gc / ac:.2f}" if gc and ac else ""
    rh = f"{g / best['hpf']:.3f}" if g < math.inf and best.get("hpf") else ""
    if rc: ratios_cpu.append(gc / ac)
    if rh: ratios_hpf.append(g / best["hpf"])
    arcs = cell[(i, codes[0])]["arcs"] if (i, codes[0]) in cell else ""
    out.append(f"| `{i}` | {arcs} | " + " | ".join(vals) + f" | {rc} | {rp} | {rh} | "
               + ("yes" if len(flows) == 1 else f"NO ({len(flows)} values)") + " |")
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
out.append("")
out.append(f"Solve ms (gcut: median of REPEAT, layout build excluded; anchors: their "
           f"own solve timing). Set `{sys.argv[3]}`, {sys.argv[4]} threads for parallel "
           f"codes (gcut's parallel engines and peibfs; everything else one thread). Geometric "
           f"means: gcut 1-thread / best 1-thread anchor {gm(ratios_cpu):.2f}; gcut parallel / "
           f"peibfs {gm(ratios_par):.2f}; best gcut / HPF {gm(ratios_hpf):.3f}. Below 1: gcut "
           f"faster.")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("\n".join(out))
