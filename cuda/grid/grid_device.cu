/*
 * grid_device.cu - cuda-grid's solver of grids in device memory (gcut/device.h,
 * extension "gcut.grid.device" of gcut/plugin.h).
 *
 * The caller's arrays never leave the device: kernels check their values,
 * build the residual arrays of the engine from them (a float energy is
 * quantised here, by the core's rule), the engine solves as on a cold
 * start (grid_launch.cu, gcut_cu_grid_solve_io), and the cut is written
 * into the caller's buffer. Only a few words come back to the host: the
 * first bad node of each array, the statistics of the automatic scale, the
 * rounding bound, and the flow.
 *
 * Quantisation of float energies (gcut_grid_set_energy_dirs_f32,
 * lib/grid/grid_float.c) is repeated here step for step, with the shared
 * inline maths of lib/graph/quant_internal.h and no FMA contraction
 * (-fmad=false, cuda/CMakeLists.txt): the same scale (a max and a min,
 * exact in any order), the same int32 arrays, hence the same flow and cut.
 * The bound and the offset are sums: per block in a fixed tree, then the
 * blocks in order by one block, so they are the same on every run; their
 * order differs from the host's loop, which can move the last bits (the
 * bound's margin covers the rounding of any order).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grid/grid_state.cuh"
#include "quant_internal.h"

namespace {

using gcut_grid_cu::u64;

constexpr int kBlock = 256;

/* Slots of the first-bad-node array: the costs (or terminal capacities),
 * one per pair array / direction, both costs +inf, and the two overflows
 * of a caller's scale. */
enum {
    BAD_FG = 0,
    BAD_BG = 1,
    BAD_PAIR = 2,          /* 2 + j (pair[j]) or 2 + d (caps[d]) */
    BAD_BOTH_INF = 28,
    BAD_ARC_FIT = 29,
    BAD_NODE_FIT = 30,
    BAD_SLOTS = 32
};

/* Everything a kernel needs to read the caller's problem. */
struct Src {
    int W, H, D, n, nd;
    int dx[26], dy[26], dz[26];
    const void *fg, *bg;
    const void *pair[13];
    double pair_const;
    const int *caps[26];
    const int *csrc, *csnk;
};

/* Scratch of one solve (stream-ordered allocation). */
struct Scratch {
    int bad[BAD_SLOTS];
    u64 worst_bits, least_bits; /* non-negative doubles: their bits order as the values */
    u64 terms_pair, terms_unary;
    double sums[3];             /* bound of the pairs, bound of the unaries, offset */
};

__device__ __forceinline__ bool inside(const Src &s, int x, int y, int z, int k)
{
    const int nx = x + s.dx[k], ny = y + s.dy[k], nz = z + s.dz[k];
    return nx >= 0 && nx < s.W && ny >= 0 && ny < s.H && nz >= 0 && nz < s.D;
}

__device__ __forceinline__ int step(const Src &s, int k)
{
    return s.dx[k] + s.dy[k] * s.W + s.dz[k] * s.W * s.H;
}

__device__ __forceinline__ void coords(const Src &s, int v, int *x, int *y, int *z)
{
    *x = v % s.W;
    *y = (v / s.W) % s.H;
    *z = v / (s.W * s.H);
}

/* The weight of the edge between v and its neighbour u in direction k
 * (grid_float.c, pair_weight with per-direction arrays). */
template <typename T>
__device__ __forceinline__ double pair_w(const Src &s, int v, int u, int k)
{
    const T *a = (const T *)s.pair[k >> 1];
    if (!a)
        return s.pair_const;
    return (double)((k & 1) ? a[u] : a[v]);
}

__device__ __forceinline__ void flag(Scratch *sc, int slot, int v) { atomicMin(&sc->bad[slot], v); }

__global__ void init_scratch(Scratch *sc)
{
    const int i = threadIdx.x;
    if (i < BAD_SLOTS)
        sc->bad[i] = INT_MAX;
    if (i == 0) {
        sc->worst_bits = 0;
        sc->least_bits = (u64)__double_as_longlong(INFINITY);
        sc->terms_pair = sc->terms_unary = 0;
        sc->sums[0] = sc->sums[1] = sc->sums[2] = 0.0;
    }
}

/* Values: int32 >= 0; floats as grid_float.c's check_unary / check_array. */
__global__ void check_kernel(Src s, int is_float, int directed, Scratch *sc)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= s.n)
        return;
    if (directed) {
        if (s.csrc[v] < 0)
            flag(sc, BAD_FG, v);
        if (s.csnk[v] < 0)
            flag(sc, BAD_BG, v);
        for (int d = 0; d < s.nd; d++)
            if (s.caps[d][v] < 0)
                flag(sc, BAD_PAIR + d, v);
        return;
    }
    if (!is_float) {
        if (((const int *)s.fg)[v] < 0)
            flag(sc, BAD_FG, v);
        if (((const int *)s.bg)[v] < 0)
            flag(sc, BAD_BG, v);
        for (int j = 0; j < s.nd / 2; j++)
            if (s.pair[j] && ((const int *)s.pair[j])[v] < 0)
                flag(sc, BAD_PAIR + j, v);
        return;
    }
    const float a = ((const float *)s.fg)[v], b = ((const float *)s.bg)[v];
    if (isnan(a) || (isinf(a) && a < 0))
        flag(sc, BAD_FG, v);
    if (isnan(b) || (isinf(b) && b < 0))
        flag(sc, BAD_BG, v);
    if (isinf(a) && isinf(b) && a > 0 && b > 0)
        flag(sc, BAD_BOTH_INF, v);
    for (int j = 0; j < s.nd / 2; j++) {
        if (!s.pair[j])
            continue;
        const float w = ((const float *)s.pair[j])[v];
        if (isnan(w) || isinf(w) || w < 0.0f)
            flag(sc, BAD_PAIR + j, v);
    }
}

/* The automatic scale's statistics (grid_float.c, energy_auto_scale). */
__global__ void scale_kernel(Src s, Scratch *sc)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= s.n)
        return;
    int x, y, z;
    coords(s, v, &x, &y, &z);
    double wsum = 0.0;
    for (int k = 0; k < s.nd; k++)
        if (inside(s, x, y, z, k))
            wsum += pair_w<float>(s, v, v + step(s, k), k);
    const double d = fabs((double)((const float *)s.fg)[v] - (double)((const float *)s.bg)[v]);
    const double node = (d < wsum ? d : wsum) + 2.0 * wsum;
    if (node > 0.0)
        atomicMax(&sc->worst_bits, (u64)__double_as_longlong(node));
    if (d > 0.0 && d < INFINITY)
        atomicMin(&sc->least_bits, (u64)__double_as_longlong(d));
}

/* A caller's scale: every arc and every node's hard t-link within int32
 * (grid_float.c, check_pairs_fit). */
__global__ void fit_kernel(Src s, double scale, Scratch *sc)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= s.n)
        return;
    int x, y, z;
    coords(s, v, &x, &y, &z);
    double sum = 1.0, err;
    for (int k = 0; k < s.nd; k++) {
        if (!inside(s, x, y, z, k))
            continue;
        const double r = gcut_i_quant_round(scale, pair_w<float>(s, v, v + step(s, k), k), &err);
        if (r > INT32_MAX)
            flag(sc, BAD_ARC_FIT, v);
        sum += r;
    }
    if (sum > INT32_MAX)
        flag(sc, BAD_NODE_FIT, v);
}

/* Sum a double over the block in a fixed tree: the same result every run. */
__device__ double block_sum(double x, double *s_buf)
{
    s_buf[threadIdx.x] = x;
    __syncthreads();
    for (int o = kBlock / 2; o > 0; o >>= 1) {
        if ((int)threadIdx.x < o)
            s_buf[threadIdx.x] += s_buf[threadIdx.x + o];
        __syncthreads();
    }
    const double r = s_buf[0];
    __syncthreads();
    return r;
}

/* The residual of every arc: the quantised (float) or given (int32)
 * weight of its pair, 0 for arcs leaving the grid; per block the rounding
 * error of the pairs (even directions). */
template <typename T, bool FLOAT>
__global__ void __launch_bounds__(kBlock) arcs_kernel(Src s, double scale, unsigned *res,
                                                      double *part, Scratch *sc)
{
    __shared__ double s_buf[kBlock];
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    double bound = 0.0;
    unsigned long long terms = 0;
    if (v < s.n) {
        int x, y, z;
        coords(s, v, &x, &y, &z);
        for (int k = 0; k < s.nd; k++) {
            unsigned r = 0;
            if (inside(s, x, y, z, k)) {
                const double w = pair_w<T>(s, v, v + step(s, k), k);
                if (FLOAT) {
                    double err;
                    r = (unsigned)gcut_i_quant_round(scale, w, &err);
                    if (!(k & 1) && w != 0.0) {
                        bound += err;
                        terms++;
                    }
                } else {
                    r = (unsigned)w;
                }
            }
            res[(size_t)k * s.n + v] = r;
        }
    }
    const double b = block_sum(bound, s_buf);
    if (threadIdx.x == 0)
        part[blockIdx.x] = b;
    if (terms)
        atomicAdd(&sc->terms_pair, (u64)terms);
}

/* The t-links of a float energy against the quantised n-links
 * (grid_float.c, store_unary); per block the bound and the offset. */
__global__ void __launch_bounds__(kBlock) unary_kernel(Src s, double scale, const unsigned *res,
                                                       int *src, int *snk, double *part,
                                                       Scratch *sc)
{
    __shared__ double s_buf[kBlock];
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    double bound = 0.0, offset = 0.0;
    unsigned long long terms = 0;
    if (v < s.n) {
        int x, y, z;
        coords(s, v, &x, &y, &z);
        long long out = 0, in = 0;
        int deg = 0;
        for (int k = 0; k < s.nd; k++)
            if (inside(s, x, y, z, k)) {
                out += res[(size_t)k * s.n + v];
                in += res[(size_t)(k ^ 1) * s.n + v + step(s, k)];
                deg++;
            }
        const long long arcs = out > in ? out : in;
        long long hard = 1 + arcs;
        if (hard > INT32_MAX)
            hard = INT32_MAX;
        const double a = ((const float *)s.fg)[v], b = ((const float *)s.bg)[v];
        offset = a < b ? a : b;
        const double d = a - b;
        double r = (double)hard, err;
        if (isfinite(d)) {
            r = gcut_i_quant_round(scale, fabs(d), &err);
            const int forced = scale * fabs(d) > (double)arcs + 0.5 * deg + 1.0;
            if (d != 0.0 && !forced) {
                bound = err;
                terms = 1;
            }
        }
        const int t = r < (double)hard ? (int)r : (int)hard;
        src[v] = d < 0.0 ? t : 0;
        snk[v] = d > 0.0 ? t : 0;
    }
    const double b = block_sum(bound, s_buf);
    const double o = block_sum(offset, s_buf);
    if (threadIdx.x == 0) {
        part[2 * blockIdx.x] = b;
        part[2 * blockIdx.x + 1] = o;
    }
    if (terms)
        atomicAdd(&sc->terms_unary, (u64)terms);
}

/* int32 energies: the source link is cost_bg, the sink link cost_fg. */
__global__ void terminals_kernel(Src s, int *src, int *snk)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < s.n) {
        src[v] = ((const int *)s.bg)[v];
        snk[v] = ((const int *)s.fg)[v];
    }
}

/* The per-block sums, in block order within each thread's stride and a
 * fixed tree across threads: sums[slot + i] = sum of part[i + stride * b]. */
__global__ void __launch_bounds__(kBlock) reduce_kernel(const double *part, int nblocks,
                                                        int stride, double *out)
{
    __shared__ double s_buf[kBlock];
    for (int i = 0; i < stride; i++) {
        double x = 0.0;
        for (int b = threadIdx.x; b < nblocks; b += kBlock)
            x += part[(size_t)stride * b + i];
        const double r = block_sum(x, s_buf);
        if (threadIdx.x == 0)
            out[i] = r;
    }
}

/* ------------------------------------------------------------ host side */

struct Fill {
    const gcut_device_grid *dg;
    Src src;
    int directed, is_float;
    double scale;     /* the scale used (float energies) */
    gcut_quantization q;
};

const char *const kPairNames[2] = {"pair", "caps"};

/* The message for the first bad value found. */
gcut_status bad_value(const Fill *f, int slot, int v)
{
    const gcut_device_grid *dg = f->dg;
    const char *name;
    const void *arr;
    char idx[32] = "";
    if (slot == BAD_FG || slot == BAD_BG) {
        name = f->directed ? (slot == BAD_FG ? "cap_source" : "cap_sink")
                           : (slot == BAD_FG ? "cost_fg" : "cost_bg");
        arr = f->directed ? (slot == BAD_FG ? dg->cap_source : dg->cap_sink)
                          : (slot == BAD_FG ? dg->cost_fg : dg->cost_bg);
    } else if (slot == BAD_BOTH_INF) {
        return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                            "cost_fg[%d] and cost_bg[%d] are both +INFINITY: node %d has no "
                            "allowed label",
                            v, v, v);
    } else if (slot == BAD_ARC_FIT || slot == BAD_NODE_FIT) {
        return GCUT_CU_FAIL(GCUT_ERR_OVERFLOW,
                            "the %s of node %d pass INT32_MAX at scale %g (give scale 0 to "
                            "choose one that fits)",
                            slot == BAD_ARC_FIT ? "edge weight" : "edges", v, dg->scale);
    } else {
        const int k = slot - BAD_PAIR;
        name = kPairNames[f->directed];
        arr = f->directed ? dg->caps[k] : dg->pair[k];
        snprintf(idx, sizeof idx, "[%d]", k);
    }
    if (!f->is_float) {
        int val = 0;
        (void)cudaMemcpy(&val, (const int *)arr + v, sizeof val, cudaMemcpyDeviceToHost);
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "%s%s[%d] is negative (%d)", name, idx, v, val);
    }
    float val = 0.0f;
    (void)cudaMemcpy(&val, (const float *)arr + v, sizeof val, cudaMemcpyDeviceToHost);
    const char *what = isnan(val) ? "NaN" : isinf(val) ? (val < 0 ? "-INFINITY" : "infinite")
                                                       : "negative";
    return GCUT_CU_FAIL(GCUT_ERR_INVALID, "%s%s[%d] is %s (%g)", name, idx, v, what, (double)val);
}

/* Read the first-bad slots; GCUT_OK when none is set. */
gcut_status read_bad(const Fill *f, Scratch *d_sc, cudaStream_t stream)
{
    int bad[BAD_SLOTS];
    GCUT_CUDA_CHECK(cudaMemcpyAsync(bad, d_sc->bad, sizeof bad, cudaMemcpyDeviceToHost, stream));
    GCUT_CUDA_CHECK(cudaStreamSynchronize(stream));
    /* The first bad node over all arrays, and of the arrays at it the first
     * in the host's order of checks. */
    int best = -1;
    for (int i = 0; i < BAD_SLOTS; i++)
        if (bad[i] != INT_MAX && (best < 0 || bad[i] < bad[best]))
            best = i;
    return best < 0 ? GCUT_OK : bad_value(f, best, bad[best]);
}

gcut_status fill(gcut_cu_grid_state *s, void *user)
{
    Fill *f = (Fill *)user;
    const gcut_device_grid *dg = f->dg;
    const Dev &g = s->dev;
    const int n = g.n;
    const int nb = (n + kBlock - 1) / kBlock;
    gcut_status st = GCUT_OK;

    /* Follow the caller's stream (0: the legacy default stream). */
    cudaEvent_t ev;
    GCUT_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    cudaError_t err = cudaEventRecord(ev, dg->stream ? (cudaStream_t)dg->stream : cudaStreamLegacy);
    if (err == cudaSuccess)
        err = cudaStreamWaitEvent(s->stream, ev, 0);
    (void)cudaEventDestroy(ev);
    if (err != cudaSuccess)
        return gcut_cu_fail(err, __func__, "waiting for the caller's stream", __FILE__, __LINE__);

    Scratch *sc = NULL;
    double *part = NULL;
    GCUT_CUDA_CHECK(cudaMallocAsync((void **)&sc, sizeof *sc, s->stream));
    if ((err = cudaMallocAsync((void **)&part, 2 * (size_t)nb * sizeof(double), s->stream)) !=
        cudaSuccess) {
        (void)cudaFreeAsync(sc, s->stream);
        return gcut_cu_fail(err, __func__, "cudaMallocAsync(partial sums)", __FILE__, __LINE__);
    }
#define STEP(call)                                                                                 \
    do {                                                                                           \
        if ((err = (call)) != cudaSuccess) {                                                       \
            st = gcut_cu_fail(err, __func__, #call, __FILE__, __LINE__);                           \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)
#define LAUNCHED() STEP(cudaGetLastError())

    init_scratch<<<1, 64, 0, s->stream>>>(sc);
    LAUNCHED();
    check_kernel<<<nb, kBlock, 0, s->stream>>>(f->src, f->is_float, f->directed, sc);
    LAUNCHED();
    if ((st = read_bad(f, sc, s->stream)) != GCUT_OK)
        goto done;

    if (f->directed) {
        for (int d = 0; d < f->src.nd; d++)
            STEP(cudaMemcpyAsync(g.res + (size_t)d * n, dg->caps[d], (size_t)n * sizeof(int),
                                 cudaMemcpyDeviceToDevice, s->stream));
        STEP(cudaMemcpyAsync(g.mask, dg->cap_source, (size_t)n * sizeof(int),
                             cudaMemcpyDeviceToDevice, s->stream));
        STEP(cudaMemcpyAsync(g.lab, dg->cap_sink, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice,
                             s->stream));
    } else if (!f->is_float) {
        arcs_kernel<int, false><<<nb, kBlock, 0, s->stream>>>(f->src, 1.0, g.res, part, sc);
        LAUNCHED();
        terminals_kernel<<<nb, kBlock, 0, s->stream>>>(f->src, (int *)g.mask, g.lab);
        LAUNCHED();
    } else {
        double scale = dg->scale;
        if (scale == 0.0) {
            scale_kernel<<<nb, kBlock, 0, s->stream>>>(f->src, sc);
            LAUNCHED();
            u64 bits[2];
            STEP(cudaMemcpyAsync(bits, &sc->worst_bits, sizeof bits, cudaMemcpyDeviceToHost,
                                 s->stream));
            STEP(cudaStreamSynchronize(s->stream));
            double worst, least_d;
            memcpy(&worst, &bits[0], sizeof worst);
            memcpy(&least_d, &bits[1], sizeof least_d);
            if (worst > 0.0 || !isfinite(least_d)) {
                scale = gcut_i_quant_auto_scale(worst);
            } else { /* no pair weights: grid_float.c's energy_auto_scale */
                int e;
                (void)frexp(16.0 / least_d, &e);
                scale = ldexp(1.0, e);
            }
        } else {
            fit_kernel<<<nb, kBlock, 0, s->stream>>>(f->src, scale, sc);
            LAUNCHED();
            if ((st = read_bad(f, sc, s->stream)) != GCUT_OK)
                goto done;
        }
        f->scale = scale;
        arcs_kernel<float, true><<<nb, kBlock, 0, s->stream>>>(f->src, scale, g.res, part, sc);
        LAUNCHED();
        reduce_kernel<<<1, kBlock, 0, s->stream>>>(part, nb, 1, &sc->sums[0]);
        LAUNCHED();
        unary_kernel<<<nb, kBlock, 0, s->stream>>>(f->src, scale, g.res, (int *)g.mask, g.lab,
                                                   part, sc);
        LAUNCHED();
        reduce_kernel<<<1, kBlock, 0, s->stream>>>(part, nb, 2, &sc->sums[1]);
        LAUNCHED();
        Scratch h;
        STEP(cudaMemcpyAsync(&h, sc, sizeof h, cudaMemcpyDeviceToHost, s->stream));
        STEP(cudaStreamSynchronize(s->stream));
        const int64_t terms = (int64_t)(h.terms_pair + h.terms_unary);
        f->q.scale = scale;
        f->q.offset = h.sums[2];
        f->q.terms = terms;
        f->q.bound = gcut_i_quant_bound(h.sums[0] + h.sums[1], terms);
        f->q.energy = NAN;
    }
done:
#undef STEP
#undef LAUNCHED
    (void)cudaFreeAsync(part, s->stream);
    (void)cudaFreeAsync(sc, s->stream);
    return st;
}

/* The pointer must lead to device (or managed) memory of the current
 * device, aligned for its element type. */
gcut_status check_pointer(const void *ptr, const char *name, int index, size_t align)
{
    char nm[48];
    if (index >= 0)
        snprintf(nm, sizeof nm, "%s[%d]", name, index);
    else
        snprintf(nm, sizeof nm, "%s", name);
    cudaPointerAttributes attr;
    cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "%s (%p) is not a pointer the CUDA runtime knows",
                            nm, ptr);
    }
    if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                            "%s (%p) is %s memory, not device memory: device grids take "
                            "device arrays only (solve host arrays with gcut_grid_solve)",
                            nm, ptr, attr.type == cudaMemoryTypeHost ? "pinned host" : "host");
    int dev = 0;
    GCUT_CUDA_CHECK(cudaGetDevice(&dev));
    if (attr.device != dev)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                            "%s (%p) is memory of device %d; cuda-grid runs on device %d", nm,
                            ptr, attr.device, dev);
    if ((uintptr_t)ptr % align)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "%s (%p) is not aligned to %zu bytes", nm, ptr,
                            align);
    return GCUT_OK;
}

gcut_status solve_device(void *state, const gcut_device_grid *dg, const int32_t *offs,
                         const gcut_solve_options *opt, gcut_solution *sol)
{
    if (!state || !dg || !offs || !opt || !sol || !sol->stats)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid: missing state, problem or solution");
    gcut_cu_grid_params prm;
    gcut_cu_grid_params_default(&prm);
    gcut_status st = gcut_cu_grid_params_apply(opt->params, &prm);
    if (st != GCUT_OK)
        return st;
    /* The runtime must be up before the pointer checks. */
    const char *why;
    if ((st = gcut_cu_probe_device(&why)) != GCUT_OK)
        return GCUT_CU_FAIL(st, "cuda-grid: %s", why);

    Fill f;
    memset(&f, 0, sizeof f);
    f.dg = dg;
    f.directed = dg->caps[0] != NULL;
    f.is_float = dg->dtype == GCUT_DTYPE_FLOAT32;
    const int nd = dg->connectivity;
    Src &s = f.src;
    s.W = dg->width;
    s.H = dg->height;
    s.D = dg->depth;
    s.n = dg->width * dg->height * dg->depth;
    s.nd = nd;
    for (int k = 0; k < nd; k++) {
        s.dx[k] = offs[3 * k];
        s.dy[k] = offs[3 * k + 1];
        s.dz[k] = offs[3 * k + 2];
    }
    if ((st = check_pointer(dg->cut, "cut", -1, 1)) != GCUT_OK)
        return st;
    if (f.directed) {
        for (int d = 0; d < nd; d++) {
            if ((st = check_pointer(dg->caps[d], "caps", d, 4)) != GCUT_OK)
                return st;
            s.caps[d] = (const int *)dg->caps[d];
        }
        if ((st = check_pointer(dg->cap_source, "cap_source", -1, 4)) != GCUT_OK ||
            (st = check_pointer(dg->cap_sink, "cap_sink", -1, 4)) != GCUT_OK)
            return st;
        s.csrc = (const int *)dg->cap_source;
        s.csnk = (const int *)dg->cap_sink;
    } else {
        if ((st = check_pointer(dg->cost_fg, "cost_fg", -1, 4)) != GCUT_OK ||
            (st = check_pointer(dg->cost_bg, "cost_bg", -1, 4)) != GCUT_OK)
            return st;
        s.fg = dg->cost_fg;
        s.bg = dg->cost_bg;
        for (int j = 0; j < nd / 2; j++) {
            if (dg->pair[j] && (st = check_pointer(dg->pair[j], "pair", j, 4)) != GCUT_OK)
                return st;
            s.pair[j] = dg->pair[j];
        }
        s.pair_const = dg->pair_const;
    }

    gcut_grid_problem p;
    memset(&p, 0, sizeof p);
    p.width = dg->width;
    p.height = dg->height;
    p.depth = dg->depth;
    p.connectivity = nd;
    p.num_dirs = nd;
    p.num_nodes = s.n;
    p.dir_offset = offs;
    gcut_cu_grid_devio io;
    io.fill = fill;
    io.user = &f;
    io.cut_out = (unsigned char *)dg->cut;
    io.mask_fg = dg->cut_format == GCUT_DEVICE_CUT_MASK;
    st = gcut_cu_grid_solve_io((gcut_cu_grid_state *)state, &p, opt, &prm, &io, sol);
    if (st == GCUT_OK && f.is_float && !f.directed && dg->quant) {
        *dg->quant = f.q;
        dg->quant->energy = f.q.offset + (double)sol->flow / f.q.scale;
    }
    return st;
}

gcut_status dev_alloc(size_t bytes, void **ptr)
{
    const char *why;
    gcut_status st = gcut_cu_probe_device(&why);
    if (st != GCUT_OK)
        return GCUT_CU_FAIL(st, "cuda-grid: %s", why);
    GCUT_CUDA_CHECK(cudaMalloc(ptr, bytes ? bytes : 1));
    return GCUT_OK;
}

void dev_free(void *ptr) { (void)cudaFree(ptr); }

gcut_status dev_copy(void *dst, const void *src, size_t bytes)
{
    GCUT_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
    return GCUT_OK;
}

} // namespace

const gcut_grid_device_ext gcut_cu_grid_device = {GCUT_PLUGIN_ABI_VERSION, solve_device, dev_alloc,
                                                  dev_free, dev_copy};
