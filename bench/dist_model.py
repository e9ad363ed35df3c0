#!/usr/bin/env python3
"""A paper model of the region-partitioned solve (docs/distributed.md,
"A model for 1-8 GPUs and 1-64 nodes"). Not a measurement: every input
is a stated assumption, printed with the table.

    python3 bench/dist_model.py            # the Markdown table of the docs
"""

# Assumptions (see docs/distributed.md for where each comes from).
T_NODE_GPU = 6e-9   # s per node of a whole in-region solve: cuda-grid on an H100,
                    # 128^3 6-connected vision volume, 12.7 ms for 2.1 M nodes
                    # (bench/results/h100/2026-11-25-auto.md)
T_BFS_GPU = 1e-9    # s per node of one pass of a global relabel on a GPU
INFLATE = 1.3       # extra pushes and relabels of a partitioned solve
                    # (1.0 .. 1.5 measured at 2-4 regions, bench/results/dist-2026-11-27.md)
SWEEPS_PER_SLAB = 2.5   # sweeps = 2.5 x slabs (10 sweeps at 4 slabs measured; pessimistic)
GLOBAL_RELABELS = 4     # per solve (3-4 measured); each takes slabs + 1 rounds
BYTES_NODE = 72     # device memory per node, 6-connected: the slab's arrays (32)
                    # and the region state (40: residuals, excess, sink residual, label)
NVLINK_BPS = 300e9  # bytes/s between two GPUs of a node (H100 SXM, one direction, effective)
IB_BPS = 50e9       # bytes/s between two nodes (InfiniBand NDR 400 Gb/s)
T_SWEEP = 1e-3      # s of fixed cost per half-sweep on a GPU (launches, the device-side
                    # convergence test of the in-region engine)
LAT = 20e-6         # s per exchange or allreduce (NCCL / MPI latency)
GPU_MEM = 80e9      # bytes per GPU (H100)
MSG_FLOW = 8        # bytes per plane node of a message with flows (6-connected: label + 1 flow)
MSG_LABEL = 4       # bytes per plane node of a label-only message


def model(N, gpus, link_bps):
    n = N ** 3
    if n * BYTES_NODE > gpus * GPU_MEM:
        return None
    slabs = 2 * gpus  # two slabs per GPU, one of each colour: every GPU works in each half-sweep
    if slabs > N:
        return None
    compute = T_NODE_GPU * INFLATE * n / gpus
    sweeps = max(1.0, SWEEPS_PER_SLAB * slabs) if gpus > 1 else 1.0
    comm_sweep = 2 * (N * N * MSG_FLOW / link_bps + LAT) + LAT if gpus > 1 else 0.0
    fixed = sweeps * 2 * T_SWEEP if gpus > 1 else 0.0
    gr = GLOBAL_RELABELS * (T_BFS_GPU * n / gpus +
                            ((slabs + 1) * (N * N * MSG_LABEL / link_bps + 2 * LAT) if gpus > 1 else 0))
    total = compute + fixed + sweeps * comm_sweep + gr
    return total, sweeps, sweeps * comm_sweep, n * BYTES_NODE / gpus / 1e9


def cell(r):
    if r is None:
        return "does not fit"
    total, sweeps, comm, mem = r
    return "%.1f s (%d sweeps, comm %.1f s, %.0f GB/GPU)" % (total, sweeps, comm, mem)


def main():
    sizes = [1024, 2048, 4096]
    print("| GPUs | " + " | ".join("%d^3" % N for N in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for g in [1, 2, 4, 8]:
        print("| %d (one node, NVLink) | " % g + " | ".join(cell(model(N, g, NVLINK_BPS)) for N in sizes) + " |")
    for nodes in [2, 4, 8, 16, 32, 64]:
        g = 8 * nodes
        link = NVLINK_BPS if nodes == 1 else IB_BPS
        print("| %d nodes x 8 (InfiniBand) | " % nodes + " | ".join(cell(model(N, g, link)) for N in sizes) + " |")


if __name__ == "__main__":
    main()
