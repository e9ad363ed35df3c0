// bk_grid.cpp - the PyMaxflow tutorial grid problems with BK v3 (Debian's
// libmaxflow-dev: the Boykov-Kolmogorov code PyMaxflow wraps), for
// bench/pymaxflow/run.sh. Not part of gcut: a measuring tool only, built by
// that script against the system library (GPL), never linked into gcut.
//
//   bk_grid H W CONN TSRC TSINK WEIGHTS OUT_MASK REPEAT
//
// TSRC, TSINK: H*W int32 (raw files); WEIGHTS: CONN/2 arrays of H*W int32,
// weights[j][v] the edge between v and its neighbour in direction j
// (4-connected: +x, +y; 8: also +x+y and +x-y), added both ways as PyMaxflow's
// add_grid_edges(symmetric=True) does. Prints build_ms and solve_ms
// (medians of REPEAT), flow and the number of sink-side nodes; writes the
// mask (1 = sink side, PyMaxflow's get_grid_segments) of the last run.
#include <maxflow.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

static std::vector<int> load(const char *path, size_t n)
{
    std::vector<int> v(n);
    FILE *f = std::fopen(path, "rb");
    if (!f || std::fread(v.data(), sizeof(int), n, f) != n) {
        std::fprintf(stderr, "bk_grid: cannot read %zu int32 from %s\n", n, path);
        std::exit(1);
    }
    std::fclose(f);
    return v;
}

static double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main(int argc, char **argv)
{
    if (argc != 9) {
        std::fprintf(stderr, "usage: bk_grid H W CONN TSRC TSINK WEIGHTS OUT_MASK REPEAT\n");
        return 2;
    }
    const int h = std::atoi(argv[1]), w = std::atoi(argv[2]), conn = std::atoi(argv[3]);
    const int repeat = std::max(1, std::atoi(argv[8]));
    const size_t n = (size_t)h * w;
    const int npair = conn / 2;
    const std::vector<int> ts = load(argv[4], n), tt = load(argv[5], n),
                           wt = load(argv[6], n * npair);
    const int dx[4] = {1, 0, 1, 1}, dy[4] = {0, 1, 1, -1};
    std::vector<double> build, solve;
    long long flow = 0, sink = 0;
    std::vector<unsigned char> mask(n);
    for (int r = 0; r < repeat; r++) {
        auto t0 = std::chrono::steady_clock::now();
        maxflow::Graph_III g((int)n, (int)(n * npair));
        g.add_node((int)n);
        for (size_t v = 0; v < n; v++)
            g.add_tweights((int)v, ts[v], tt[v]);
        for (int j = 0; j < npair; j++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    const int nx = x + dx[j], ny = y + dy[j];
                    if (nx < 0 || nx >= w || ny < 0 || ny >= h)
                        continue;
                    const size_t v = (size_t)y * w + x;
                    const int c = wt[(size_t)j * n + v];
                    g.add_edge((int)v, (int)((size_t)ny * w + nx), c, c);
                }
        build.push_back(ms_since(t0));
        auto t1 = std::chrono::steady_clock::now();
        flow = g.maxflow();
        solve.push_back(ms_since(t1));
        sink = 0;
        for (size_t v = 0; v < n; v++) {
            mask[v] = g.what_segment((int)v) == maxflow::Graph_III::SINK;
            sink += mask[v];
        }
    }
    std::sort(build.begin(), build.end());
    std::sort(solve.begin(), solve.end());
    FILE *f = std::fopen(argv[7], "wb");
    if (!f || std::fwrite(mask.data(), 1, n, f) != n) {
        std::fprintf(stderr, "bk_grid: cannot write %s\n", argv[7]);
        return 1;
    }
    std::fclose(f);
    std::printf("build_ms: %.3f\nsolve_ms: %.3f\nflow: %lld\nsink: %lld\n", build[build.size() / 2],
                solve[solve.size() / 2], flow, sink);
    return 0;
}
