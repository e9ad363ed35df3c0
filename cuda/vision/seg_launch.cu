/*
 * seg_launch.cu - the segmentation energies on the device (the
 * "gcut.vision.seg" extension, vision/vision_plugin.h): the state of a
 * session, the staging of host copies,
 * and the launches of seg_kernels.cuh.
 *
 * Compiled with -fmad=false (cuda/CMakeLists.txt): the kernels must round
 * every product and sum separately, as the CPU code does, to give its bits.
 *
 * One allocation per state holds every per-pixel array (about 62 bytes a
 * pixel); nothing is allocated afterwards. Host copies go through two
 * pinned buffers of SEG_STAGE_BYTES used in turn: the DMA of one chunk
 * overlaps the host's memcpy of the other, so the caller's arrays need
 * not be page-locked (locking hundreds of MB costs more than it saves for
 * a one-shot segmentation). Each call ends with its results on the host
 * and the stream idle.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "vision/seg_internal.h"
#include "vision/seg_kernels.cuh"

using namespace gcut_seg_cu;

struct gcut_cu_seg_state {
    int32_t w, h;
    int64_t n;
    cudaStream_t stream;
    void *dbuf;
    float *rgb;          /* 3n */
    float *pair[4];      /* n each */
    uint8_t *seeds;      /* n */
    uint8_t *select;     /* n */
    uint8_t *comp[2];    /* n each: GMM learning, [1] foreground */
    uint8_t *cfg, *cbg;  /* n each: best components of the last data pass */
    float *dfg, *dbg;    /* n each */
    int32_t *base;       /* 3n: t-link bases of the box */
    int32_t *out;        /* 2n: links and terminals before their download */
    double *partial;     /* reductions */
    int64_t partial_len; /* doubles */
    double *res;         /* small results */
    float *rowsum;       /* 4h */
    Model *models;       /* 2: [1] foreground */
    float *hist[2];      /* 64^3 each */
    Model hmodel[2];     /* host copies of the models */
    int32_t conn;        /* 0 until smoothness */
    int has_seeds, has_select, has_data;
    int base_ok;
    gcut_seg_rect base_box;
    double base_scale;
    unsigned char *stage[2];
    cudaEvent_t ev[2];
    cudaEvent_t k0, k1;
    int timing; /* k0 was recorded by this call */
    gcut_seg_plugin_stats st;
};

static const int64_t kHistCells = 64 * 64 * 64;
static const int64_t kTile = (int64_t)SEG_RED_THREADS * SEG_MOMENT_PER_THREAD;

static size_t align_up(size_t x) { return (x + 255) & ~(size_t)255; }

static unsigned blocks_for(int64_t count, int threads)
{
    return (unsigned)((count + threads - 1) / threads);
}

/* ------------------------------------------------------------ staging */

/* Host -> device through the pinned buffers: memcpy a chunk into one while
 * the DMA of the previous chunk reads the other. */
static gcut_status upload(gcut_cu_seg_state *s, void *dst, const void *src, size_t bytes)
{
    const double t0 = gcut_cu_now();
    size_t off = 0;
    for (int k = 0; off < bytes; k++) {
        const size_t len = bytes - off < SEG_STAGE_BYTES ? bytes - off : SEG_STAGE_BYTES;
        const int b = k & 1;
        /* The last DMA that read (or wrote) this buffer is done. */
        GCUT_CUDA_CHECK(cudaEventSynchronize(s->ev[b]));
        memcpy(s->stage[b], (const unsigned char *)src + off, len);
        GCUT_CUDA_CHECK(cudaMemcpyAsync((unsigned char *)dst + off, s->stage[b], len,
                                        cudaMemcpyHostToDevice, s->stream));
        GCUT_CUDA_CHECK(cudaEventRecord(s->ev[b], s->stream));
        off += len;
    }
    s->st.upload_ms += gcut_cu_now() - t0;
    s->st.upload_bytes += (int64_t)bytes;
    return GCUT_OK;
}

static gcut_status issue_chunk(gcut_cu_seg_state *s, const void *src, size_t bytes, int64_t k)
{
    const size_t off = (size_t)k * SEG_STAGE_BYTES;
    const size_t len = bytes - off < SEG_STAGE_BYTES ? bytes - off : SEG_STAGE_BYTES;
    const int b = (int)(k & 1);
    GCUT_CUDA_CHECK(cudaMemcpyAsync(s->stage[b], (const unsigned char *)src + off, len,
                                    cudaMemcpyDeviceToHost, s->stream));
    GCUT_CUDA_CHECK(cudaEventRecord(s->ev[b], s->stream));
    return GCUT_OK;
}

/* Device -> host: two chunks in flight, the host copies one out of its
 * pinned buffer while the next one arrives. Returns with the data on the
 * host (the stream is idle after the last chunk). */
static gcut_status download(gcut_cu_seg_state *s, void *dst, const void *src, size_t bytes)
{
    const double t0 = gcut_cu_now();
    const int64_t chunks = (int64_t)((bytes + SEG_STAGE_BYTES - 1) / SEG_STAGE_BYTES);
    gcut_status st;
    for (int64_t k = 0; k < chunks && k < 2; k++)
        if ((st = issue_chunk(s, src, bytes, k)) != GCUT_OK)
            return st;
    for (int64_t k = 0; k < chunks; k++) {
        const size_t off = (size_t)k * SEG_STAGE_BYTES;
        const size_t len = bytes - off < SEG_STAGE_BYTES ? bytes - off : SEG_STAGE_BYTES;
        const int b = (int)(k & 1);
        GCUT_CUDA_CHECK(cudaEventSynchronize(s->ev[b]));
        memcpy((unsigned char *)dst + off, s->stage[b], len);
        if (k + 2 < chunks && (st = issue_chunk(s, src, bytes, k + 2)) != GCUT_OK)
            return st;
    }
    s->st.download_ms += gcut_cu_now() - t0;
    s->st.download_bytes += (int64_t)bytes;
    return GCUT_OK;
}

/* Device time of the kernels of a call: k0 before the first launch, k1
 * after the last; read once the call's downloads have synchronised. */
static gcut_status kernels_begin(gcut_cu_seg_state *s)
{
    GCUT_CUDA_CHECK(cudaEventRecord(s->k0, s->stream));
    s->timing = 1;
    return GCUT_OK;
}

static gcut_status kernels_end(gcut_cu_seg_state *s)
{
    GCUT_CUDA_CHECK(cudaEventRecord(s->k1, s->stream));
    return GCUT_OK;
}

static gcut_status kernels_account(gcut_cu_seg_state *s)
{
    if (!s->timing)
        return GCUT_OK;
    s->timing = 0;
    GCUT_CUDA_CHECK(cudaEventSynchronize(s->k1));
    float ms = 0.0f;
    GCUT_CUDA_CHECK(cudaEventElapsedTime(&ms, s->k0, s->k1));
    s->st.kernel_ms += ms;
    return GCUT_OK;
}

/* ------------------------------------------------------------ checks */

static gcut_status check_box(const gcut_cu_seg_state *s, gcut_seg_rect b)
{
    if (b.w < 1 || b.h < 1 || b.x0 < 0 || b.y0 < 0 || (int64_t)b.x0 + b.w > s->w ||
        (int64_t)b.y0 + b.h > s->h)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                            "cuda-grid energies: box %d,%d %dx%d outside the %d x %d image",
                            (int)b.x0, (int)b.y0, (int)b.w, (int)b.h, (int)s->w, (int)s->h);
    return GCUT_OK;
}

static gcut_status check_scale(double scale)
{
    if (!(scale > 0.0) || !isfinite(scale))
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: scale %g", scale);
    return GCUT_OK;
}

/* The kernels' form of a model; GMM components listed in order. */
static gcut_status to_model(const gcut_seg_dev_model *in, Model *m, const char *which)
{
    memset(m, 0, sizeof *m);
    m->kind = in->kind;
    if (in->kind == GCUT_SEG_DEV_GMM) {
        if (in->k < 1 || in->k > GCUT_SEG_PLUGIN_MAX_K)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: %s GMM with %d components",
                                which, (int)in->k);
        for (int32_t c = 0; c < in->k; c++)
            if (in->live[c])
                m->live[m->nl++] = c;
        memcpy(m->mean, in->mean, sizeof m->mean);
        memcpy(m->inv, in->inv, sizeof m->inv);
        memcpy(m->logc, in->logc, sizeof m->logc);
        return GCUT_OK;
    }
    if (in->kind == GCUT_SEG_DEV_HISTOGRAM) {
        if (in->bins < 2 || in->bins > 64 || !in->hist_nll)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                                "cuda-grid energies: %s histogram with %d bins%s", which,
                                (int)in->bins, in->hist_nll ? "" : " and no table");
        m->bins = in->bins;
        return GCUT_OK;
    }
    return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: %s model of kind %d", which,
                        (int)in->kind);
}

/* ------------------------------------------------------------ state */

static gcut_status create_inner(gcut_cu_seg_state *s, const float *rgb)
{
    const size_t n = (size_t)s->n, h = (size_t)s->h;
    const int64_t tiles = (s->n + kTile - 1) / kTile;
    const int64_t worst_blocks = 1024;
    s->partial_len = tiles * GCUT_SEG_PLUGIN_MAX_K * GCUT_SEG_MOMENTS;
    if (s->partial_len < worst_blocks)
        s->partial_len = worst_blocks;
    const size_t b_rgb = align_up(3 * n * sizeof(float)), b_f = align_up(n * sizeof(float));
    const size_t b_u8 = align_up(n), b_base = align_up(3 * n * sizeof(int32_t));
    const size_t b_out = align_up(2 * n * sizeof(int32_t));
    const size_t b_part = align_up((size_t)s->partial_len * sizeof(double));
    const size_t b_res = align_up(256 * sizeof(double)), b_row = align_up(4 * h * sizeof(float));
    const size_t b_mod = align_up(2 * sizeof(Model));
    const size_t b_hist = align_up((size_t)kHistCells * sizeof(float));
    const size_t bytes = b_rgb + 4 * b_f + 6 * b_u8 + 2 * b_f + b_base + b_out + b_part + b_res +
                         b_row + b_mod + 2 * b_hist;
    GCUT_CUDA_CHECK(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
    for (int b = 0; b < 2; b++) {
        GCUT_CUDA_CHECK(cudaEventCreateWithFlags(&s->ev[b], cudaEventDisableTiming));
        GCUT_CUDA_CHECK(cudaHostAlloc((void **)&s->stage[b], SEG_STAGE_BYTES, cudaHostAllocDefault));
    }
    GCUT_CUDA_CHECK(cudaEventCreate(&s->k0));
    GCUT_CUDA_CHECK(cudaEventCreate(&s->k1));
    size_t free_b = 0, total_b = 0;
    GCUT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (bytes > free_b)
        return GCUT_CU_FAIL(GCUT_ERR_DEVICE_NOMEM,
                            "cuda-grid energies: a %d x %d image needs %.1f MiB of device "
                            "memory, %.1f MiB free",
                            (int)s->w, (int)s->h, bytes / 1048576.0, free_b / 1048576.0);
    GCUT_CUDA_CHECK(cudaMalloc(&s->dbuf, bytes));
    unsigned char *p = (unsigned char *)s->dbuf;
    s->rgb = (float *)p;
    p += b_rgb;
    for (int j = 0; j < 4; j++) {
        s->pair[j] = (float *)p;
        p += b_f;
    }
    uint8_t **u8[6] = {&s->seeds, &s->select, &s->comp[0], &s->comp[1], &s->cfg, &s->cbg};
    for (int i = 0; i < 6; i++) {
        *u8[i] = (uint8_t *)p;
        p += b_u8;
    }
    s->dfg = (float *)p;
    p += b_f;
    s->dbg = (float *)p;
    p += b_f;
    s->base = (int32_t *)p;
    p += b_base;
    s->out = (int32_t *)p;
    p += b_out;
    s->partial = (double *)p;
    p += b_part;
    s->res = (double *)p;
    p += b_res;
    s->rowsum = (float *)p;
    p += b_row;
    s->models = (Model *)p;
    p += b_mod;
    s->hist[0] = (float *)p;
    p += b_hist;
    s->hist[1] = (float *)p;
    /* Components start at 0 everywhere, as the session's host arrays. */
    GCUT_CUDA_CHECK(cudaMemsetAsync(s->comp[0], 0, 4 * b_u8, s->stream));
    gcut_status st = upload(s, s->rgb, rgb, 3 * n * sizeof(float));
    if (st != GCUT_OK)
        return st;
    GCUT_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    return GCUT_OK;
}

extern "C" gcut_status gcut_cu_seg_create(int32_t width, int32_t height, const float *rgb,
                                          gcut_cu_seg_state **out)
{
    if (!out || !rgb || width < 1 || height < 1 || (int64_t)width * height >= INT32_MAX)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: bad image (%d x %d)",
                            (int)width, (int)height);
    gcut_cu_seg_state *s = (gcut_cu_seg_state *)calloc(1, sizeof *s);
    if (!s)
        return GCUT_CU_FAIL(GCUT_ERR_NOMEM, "cuda-grid energies: out of memory");
    s->w = width;
    s->h = height;
    s->n = (int64_t)width * height;
    gcut_status st = create_inner(s, rgb);
    if (st != GCUT_OK) {
        gcut_cu_seg_destroy(s);
        return st;
    }
    *out = s;
    return GCUT_OK;
}

extern "C" void gcut_cu_seg_destroy(gcut_cu_seg_state *s)
{
    if (!s)
        return;
    /* Nothing may still use the buffers: wait, ignoring errors (a failed
     * call already reported its own). */
    if (s->stream)
        (void)cudaStreamSynchronize(s->stream);
    if (s->dbuf)
        (void)cudaFree(s->dbuf);
    for (int b = 0; b < 2; b++) {
        if (s->stage[b])
            (void)cudaFreeHost(s->stage[b]);
        if (s->ev[b])
            (void)cudaEventDestroy(s->ev[b]);
    }
    if (s->k0)
        (void)cudaEventDestroy(s->k0);
    if (s->k1)
        (void)cudaEventDestroy(s->k1);
    if (s->stream)
        (void)cudaStreamDestroy(s->stream);
    (void)cudaGetLastError();
    free(s);
}

/* ------------------------------------------------------------ the calls */

extern "C" gcut_status gcut_cu_seg_smoothness(gcut_cu_seg_state *s, int32_t connectivity,
                                              double lambda, double *beta, float *const *pair)
{
    if (!s || !beta || !pair || (connectivity != 4 && connectivity != 8) || !(lambda >= 0.0) ||
        !isfinite(lambda))
        return GCUT_CU_FAIL(GCUT_ERR_INVALID,
                            "cuda-grid energies: bad smoothness request (connectivity %d, "
                            "lambda %g)",
                            (int)connectivity, lambda);
    const int32_t nd = connectivity / 2;
    for (int32_t j = 0; j < nd; j++)
        if (!pair[j])
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: pair array %d is NULL",
                                (int)j);
    gcut_status st;
    if ((st = kernels_begin(s)) != GCUT_OK)
        return st;
    const int64_t rows = (int64_t)nd * s->h;
    beta_rows_kernel<<<blocks_for(rows, SEG_THREADS), SEG_THREADS, 0, s->stream>>>(
        s->rgb, s->w, s->h, nd, s->rowsum);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    beta_final_kernel<<<1, 1, 0, s->stream>>>(s->rowsum, s->w, s->h, nd, s->res);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    double b = 0.0;
    if ((st = download(s, &b, s->res, sizeof b)) != GCUT_OK)
        return st;
    /* The constants of gcut_i_energy_smoothness, on the host as there. */
    const float nbeta = (float)-b;
    const float lam_axis = (float)lambda, lam_diag = (float)(lambda / sqrt(2.0));
    const dim3 grid(blocks_for(s->n, SEG_THREADS), (unsigned)nd);
    pair_kernel<<<grid, SEG_THREADS, 0, s->stream>>>(s->rgb, s->w, s->h, nbeta, lam_axis,
                                                     lam_diag, s->pair[0], s->pair[1],
                                                     s->pair[2], s->pair[3]);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    if ((st = kernels_end(s)) != GCUT_OK)
        return st;
    for (int32_t j = 0; j < nd; j++)
        if ((st = download(s, pair[j], s->pair[j], (size_t)s->n * sizeof(float))) != GCUT_OK)
            return st;
    if ((st = kernels_account(s)) != GCUT_OK)
        return st;
    s->conn = connectivity;
    s->base_ok = 0;
    *beta = b;
    return GCUT_OK;
}

extern "C" gcut_status gcut_cu_seg_set_bytes(gcut_cu_seg_state *s, int32_t which,
                                             const uint8_t *bytes)
{
    if (!s || !bytes || (which != GCUT_SEG_BYTES_SEEDS && which != GCUT_SEG_BYTES_SELECT))
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: bad byte array %d",
                            (int)which);
    gcut_status st = upload(s, which == GCUT_SEG_BYTES_SEEDS ? s->seeds : s->select, bytes,
                            (size_t)s->n);
    if (st != GCUT_OK)
        return st;
    if (which == GCUT_SEG_BYTES_SEEDS) {
        s->has_seeds = 1;
        s->base_ok = 0; /* the folded terms depend on the seeds */
    } else {
        s->has_select = 1;
    }
    return GCUT_OK;
}

extern "C" gcut_status gcut_cu_seg_gmm_pass(gcut_cu_seg_state *s, const gcut_seg_pass *ps,
                                            double *moments)
{
    if (!s || !ps || !moments || ps->k < 1 || ps->k > GCUT_SEG_PLUGIN_MAX_K ||
        ps->mode < GCUT_SEG_PASS_START || ps->mode > GCUT_SEG_PASS_FROM_DATA)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: bad GMM pass");
    if (!s->has_select)
        return GCUT_CU_FAIL(GCUT_ERR_STATE, "cuda-grid energies: GMM pass before set_bytes");
    if (ps->mode == GCUT_SEG_PASS_SPLIT &&
        (ps->widest < 0 || ps->widest >= ps->k || ps->used < 0 || ps->used >= ps->k ||
         ps->used == ps->widest))
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: split %d into %d of %d",
                            (int)ps->widest, (int)ps->used, (int)ps->k);
    if (ps->mode == GCUT_SEG_PASS_FROM_DATA && !s->has_data)
        return GCUT_CU_FAIL(GCUT_ERR_STATE,
                            "cuda-grid energies: components of a data pass before any");
    const int fg = ps->fg ? 1 : 0;
    gcut_status st;
    if (ps->mode == GCUT_SEG_PASS_ASSIGN) {
        if (!ps->model || ps->model->kind != GCUT_SEG_DEV_GMM)
            return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: assignment without a GMM");
        if ((st = to_model(ps->model, &s->hmodel[fg], "learnt")) != GCUT_OK)
            return st;
        GCUT_CUDA_CHECK(cudaMemcpyAsync(&s->models[fg], &s->hmodel[fg], sizeof(Model),
                                        cudaMemcpyHostToDevice, s->stream));
    }
    const int64_t tiles = (s->n + kTile - 1) / kTile;
    if (tiles * ps->k * GCUT_SEG_MOMENTS > s->partial_len)
        return GCUT_CU_FAIL(GCUT_ERR_INTERNAL, "cuda-grid energies: reduction buffer too small");
    PassArgs a;
    memset(&a, 0, sizeof a);
    a.rgb = s->rgb;
    a.n = s->n;
    a.select = s->select;
    a.want = ps->want;
    a.mode = ps->mode;
    a.k = ps->k;
    a.widest = ps->widest;
    a.used = ps->used;
    a.ax0 = ps->axis[0];
    a.ax1 = ps->axis[1];
    a.ax2 = ps->axis[2];
    a.thr = ps->thr;
    a.model = &s->models[fg];
    a.from = fg ? s->cfg : s->cbg;
    a.comp = s->comp[fg];
    a.partial = s->partial;
    if ((st = kernels_begin(s)) != GCUT_OK)
        return st;
    moments_kernel<<<(unsigned)tiles, SEG_RED_THREADS, 0, s->stream>>>(a);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    moments_final_kernel<<<blocks_for((int64_t)ps->k * GCUT_SEG_MOMENTS, 64), 64, 0, s->stream>>>(
        s->partial, tiles, ps->k, s->res);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    if ((st = kernels_end(s)) != GCUT_OK)
        return st;
    if ((st = download(s, moments, s->res,
                       (size_t)ps->k * GCUT_SEG_MOMENTS * sizeof(double))) != GCUT_OK)
        return st;
    return kernels_account(s);
}

extern "C" gcut_status gcut_cu_seg_data(gcut_cu_seg_state *s, gcut_seg_rect box,
                                        const gcut_seg_dev_model *fg, const gcut_seg_dev_model *bg,
                                        float *dfg, float *dbg, uint8_t *comp_fg,
                                        uint8_t *comp_bg)
{
    if (!s || !fg || !bg || !dfg || !dbg || fg->kind != bg->kind)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: bad data-cost request");
    if (!s->has_seeds)
        return GCUT_CU_FAIL(GCUT_ERR_STATE, "cuda-grid energies: data costs before the seeds");
    /* An empty box (every pixel a seed) is allowed here: nothing is inside. */
    gcut_status st;
    if (box.w != 0 && (st = check_box(s, box)) != GCUT_OK)
        return st;
    if ((st = to_model(fg, &s->hmodel[1], "foreground")) != GCUT_OK ||
        (st = to_model(bg, &s->hmodel[0], "background")) != GCUT_OK)
        return st;
    GCUT_CUDA_CHECK(cudaMemcpyAsync(s->models, s->hmodel, 2 * sizeof(Model),
                                    cudaMemcpyHostToDevice, s->stream));
    const int gmm = fg->kind == GCUT_SEG_DEV_GMM;
    if (!gmm) {
        for (int c = 0; c < 2; c++) {
            const gcut_seg_dev_model *m = c ? fg : bg;
            const size_t cells = (size_t)m->bins * m->bins * m->bins;
            if ((st = upload(s, s->hist[c], m->hist_nll, cells * sizeof(float))) != GCUT_OK)
                return st;
        }
    }
    DataArgs a;
    memset(&a, 0, sizeof a);
    a.rgb = s->rgb;
    a.w = s->w;
    a.n = s->n;
    a.box.x0 = box.x0;
    a.box.y0 = box.y0;
    a.box.w = box.w;
    a.box.h = box.h;
    a.fg = &s->models[1];
    a.bg = &s->models[0];
    a.hfg = s->hist[1];
    a.hbg = s->hist[0];
    a.seeds = s->seeds;
    a.dfg = s->dfg;
    a.dbg = s->dbg;
    a.cfg = s->cfg;
    a.cbg = s->cbg;
    if ((st = kernels_begin(s)) != GCUT_OK)
        return st;
    data_kernel<<<blocks_for(s->n, SEG_THREADS), SEG_THREADS, 0, s->stream>>>(a);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    if ((st = kernels_end(s)) != GCUT_OK)
        return st;
    const size_t nf = (size_t)s->n * sizeof(float);
    if ((st = download(s, dfg, s->dfg, nf)) != GCUT_OK ||
        (st = download(s, dbg, s->dbg, nf)) != GCUT_OK)
        return st;
    if (gmm && comp_fg && (st = download(s, comp_fg, s->cfg, (size_t)s->n)) != GCUT_OK)
        return st;
    if (gmm && comp_bg && (st = download(s, comp_bg, s->cbg, (size_t)s->n)) != GCUT_OK)
        return st;
    s->has_data = 1;
    return kernels_account(s);
}

static Pairs pairs_of(const gcut_cu_seg_state *s)
{
    Pairs p;
    for (int j = 0; j < 4; j++)
        p.p[j] = j < s->conn / 2 ? s->pair[j] : NULL;
    return p;
}

static Box box_of(gcut_seg_rect b)
{
    Box o;
    o.x0 = b.x0;
    o.y0 = b.y0;
    o.w = b.w;
    o.h = b.h;
    return o;
}

extern "C" gcut_status gcut_cu_seg_worst(gcut_cu_seg_state *s, gcut_seg_rect box, double *worst)
{
    if (!s || !worst)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: NULL argument");
    if (!s->conn)
        return GCUT_CU_FAIL(GCUT_ERR_STATE, "cuda-grid energies: scale before the weights");
    gcut_status st = check_box(s, box);
    if (st != GCUT_OK)
        return st;
    const int64_t nb = (int64_t)box.w * box.h;
    int64_t blocks = (nb + SEG_RED_THREADS - 1) / SEG_RED_THREADS;
    if (blocks > 1024)
        blocks = 1024; /* the kernel strides; partial holds at least 1024 */
    if ((st = kernels_begin(s)) != GCUT_OK)
        return st;
    if (s->conn == 8)
        worst_kernel<8><<<(unsigned)blocks, SEG_RED_THREADS, 0, s->stream>>>(
            pairs_of(s), s->w, s->h, box_of(box), s->partial);
    else
        worst_kernel<4><<<(unsigned)blocks, SEG_RED_THREADS, 0, s->stream>>>(
            pairs_of(s), s->w, s->h, box_of(box), s->partial);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    max_final_kernel<<<1, SEG_RED_THREADS, 0, s->stream>>>(s->partial, blocks, s->res);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    if ((st = kernels_end(s)) != GCUT_OK)
        return st;
    if ((st = download(s, worst, s->res, sizeof(double))) != GCUT_OK)
        return st;
    return kernels_account(s);
}

extern "C" gcut_status gcut_cu_seg_links(gcut_cu_seg_state *s, gcut_seg_rect box, double scale,
                                         int32_t dir, int32_t *caps)
{
    if (!s || !caps)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: NULL argument");
    if (!s->conn || dir < 0 || dir >= s->conn)
        return GCUT_CU_FAIL(s->conn ? GCUT_ERR_INVALID : GCUT_ERR_STATE,
                            "cuda-grid energies: direction %d (connectivity %d)", (int)dir,
                            (int)s->conn);
    gcut_status st;
    if ((st = check_box(s, box)) != GCUT_OK || (st = check_scale(scale)) != GCUT_OK)
        return st;
    const int64_t nb = (int64_t)box.w * box.h;
    if ((st = kernels_begin(s)) != GCUT_OK)
        return st;
    links_kernel<<<blocks_for(nb, SEG_THREADS), SEG_THREADS, 0, s->stream>>>(
        s->pair[dir >> 1], s->w, box_of(box), dir, scale, s->out);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    if ((st = kernels_end(s)) != GCUT_OK)
        return st;
    if ((st = download(s, caps, s->out, (size_t)nb * sizeof(int32_t))) != GCUT_OK)
        return st;
    return kernels_account(s);
}

extern "C" gcut_status gcut_cu_seg_terminals(gcut_cu_seg_state *s, gcut_seg_rect box,
                                             double scale, int32_t rebase, int32_t *source,
                                             int32_t *sink)
{
    if (!s || !source || !sink)
        return GCUT_CU_FAIL(GCUT_ERR_INVALID, "cuda-grid energies: NULL argument");
    if (!s->conn || !s->has_seeds || !s->has_data)
        return GCUT_CU_FAIL(GCUT_ERR_STATE,
                            "cuda-grid energies: t-links need the weights, the seeds and the "
                            "data costs first");
    gcut_status st;
    if ((st = check_box(s, box)) != GCUT_OK || (st = check_scale(scale)) != GCUT_OK)
        return st;
    const int64_t nb = (int64_t)box.w * box.h;
    if (!s->base_ok || memcmp(&s->base_box, &box, sizeof box) != 0 || s->base_scale != scale)
        rebase = 1;
    if ((st = kernels_begin(s)) != GCUT_OK)
        return st;
    if (rebase) {
        if (s->conn == 8)
            base_kernel<8><<<blocks_for(nb, SEG_THREADS), SEG_THREADS, 0, s->stream>>>(
                pairs_of(s), s->w, s->h, s->seeds, box_of(box), scale, s->base);
        else
            base_kernel<4><<<blocks_for(nb, SEG_THREADS), SEG_THREADS, 0, s->stream>>>(
                pairs_of(s), s->w, s->h, s->seeds, box_of(box), scale, s->base);
        GCUT_CUDA_CHECK_LAUNCH(s->stream);
        s->base_ok = 0;
    }
    tlink_kernel<<<blocks_for(nb, SEG_THREADS), SEG_THREADS, 0, s->stream>>>(
        s->base, s->seeds, s->dfg, s->dbg, s->w, box_of(box), scale, s->out, s->out + nb);
    GCUT_CUDA_CHECK_LAUNCH(s->stream);
    if ((st = kernels_end(s)) != GCUT_OK)
        return st;
    if ((st = download(s, source, s->out, (size_t)nb * sizeof(int32_t))) != GCUT_OK ||
        (st = download(s, sink, s->out + nb, (size_t)nb * sizeof(int32_t))) != GCUT_OK)
        return st;
    if ((st = kernels_account(s)) != GCUT_OK)
        return st;
    s->base_ok = 1;
    s->base_box = box;
    s->base_scale = scale;
    return GCUT_OK;
}

extern "C" void gcut_cu_seg_stats(gcut_cu_seg_state *s, gcut_seg_plugin_stats *out)
{
    if (!out)
        return;
    if (!s) {
        memset(out, 0, sizeof *out);
        return;
    }
    *out = s->st;
}
