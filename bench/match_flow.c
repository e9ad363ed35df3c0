/*
 * match_flow.c - bipartite matching solved as max-flow (match_flow.h).
 */
#include "match_flow.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double mflow_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static gcut_status mflow_fail(gcut_status st, char err[MFLOW_ERR_LEN], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, MFLOW_ERR_LEN, fmt, ap);
    va_end(ap);
    return st;
}

gcut_status mflow_match(const gcut_bipartite *b, const gcut_solve_options *opt,
                        int32_t *row_mates, int32_t *col_mates, int64_t *cardinality,
                        mflow_times *times, char err[MFLOW_ERR_LEN])
{
    const int32_t nr = gcut_bipartite_num_rows(b), nc = gcut_bipartite_num_cols(b);
    const int64_t m = gcut_bipartite_num_edges(b);
    const int64_t *off;
    const int32_t *adj;
    gcut_bipartite_rows_csr(b, &off, &adj);
    mflow_times t = {0, 0, 0};
    err[0] = '\0';
    *cardinality = 0;
    for (int32_t r = 0; r < nr; r++)
        row_mates[r] = -1;
    for (int32_t c = 0; c < nc; c++)
        col_mates[c] = -1;
    if (times)
        *times = t;
    if (m == 0)
        return GCUT_OK;
    if ((int64_t)nr + nc > INT32_MAX)
        return mflow_fail(GCUT_ERR_OVERFLOW, err, "%d rows + %d columns do not fit a flow graph",
                          (int)nr, (int)nc);
    gcut_solve_options sopt = *opt;
    sopt.want_flows = 1;

    double t0 = mflow_now_ms();
    int32_t *from = malloc((size_t)m * sizeof *from);
    int32_t *to = malloc((size_t)m * sizeof *to);
    int32_t *cap = malloc((size_t)m * sizeof *cap);
    int32_t *ones = malloc(((size_t)nr + (size_t)nc) * sizeof *ones);
    gcut_graph *g = NULL;
    gcut_result *res = NULL;
    gcut_status st = GCUT_OK;
    if (!from || !to || !cap || !ones) {
        st = mflow_fail(GCUT_ERR_NOMEM, err, "out of memory building the flow graph");
        goto done;
    }
    /* Edge k of the flow graph is CSR entry k: its flow is read back below. */
    for (int32_t r = 0; r < nr; r++)
        for (int64_t k = off[r]; k < off[r + 1]; k++) {
            from[k] = r;
            to[k] = nr + adj[k];
            cap[k] = 1;
        }
    for (int64_t v = 0; v < (int64_t)nr + nc; v++)
        ones[v] = 1;
    if ((st = gcut_graph_new(&g, nr + nc, m)) != GCUT_OK ||
        (st = gcut_graph_add_edges(g, m, from, to, cap, NULL)) != GCUT_OK ||
        (st = gcut_graph_add_tweights_bulk(g, 0, nr, ones, NULL)) != GCUT_OK ||
        (st = gcut_graph_add_tweights_bulk(g, nr, nc, NULL, ones)) != GCUT_OK ||
        (st = gcut_result_new(&res)) != GCUT_OK) {
        mflow_fail(st, err, "%s", gcut_last_error());
        goto done;
    }
    t.build_ms = mflow_now_ms() - t0;

    t0 = mflow_now_ms();
    if ((st = gcut_solve(g, &sopt, res)) != GCUT_OK) {
        mflow_fail(st, err, "%s", gcut_last_error());
        goto done;
    }
    t.solve_ms = mflow_now_ms() - t0;

    t0 = mflow_now_ms();
    const int32_t *flows = gcut_result_edge_flows(res);
    if (!flows) {
        st = mflow_fail(GCUT_ERR_INTERNAL, err, "%s returned no edge flows",
                        gcut_result_backend(res));
        goto done;
    }
    for (int32_t r = 0; r < nr; r++)
        for (int64_t k = off[r]; k < off[r + 1]; k++)
            if (flows[k] == 1) {
                const int32_t c = adj[k];
                /* Unit capacities at the terminals make this impossible for
                 * a valid flow; checked so a bad engine cannot corrupt mates. */
                if (row_mates[r] >= 0 || col_mates[c] >= 0) {
                    st = mflow_fail(GCUT_ERR_INTERNAL, err,
                                    "%s: flow 1 on two edges at row %d or column %d",
                                    gcut_result_backend(res), (int)r, (int)c);
                    goto done;
                }
                row_mates[r] = c;
                col_mates[c] = r;
                (*cardinality)++;
            }
    t.read_ms = mflow_now_ms() - t0;
    if (*cardinality != gcut_result_flow(res))
        st = mflow_fail(GCUT_ERR_INTERNAL, err, "%s: flow %lld but %lld edges with flow 1",
                        gcut_result_backend(res), (long long)gcut_result_flow(res),
                        (long long)*cardinality);
    if (times)
        *times = t;
done:
    gcut_result_free(res);
    gcut_graph_free(g);
    free(from);
    free(to);
    free(cap);
    free(ones);
    return st;
}

int64_t mflow_match_checked(const gcut_bipartite *b, const char *backend,
                            char err[MFLOW_ERR_LEN])
{
    const int32_t nr = gcut_bipartite_num_rows(b), nc = gcut_bipartite_num_cols(b);
    int32_t *rm = malloc(((size_t)nr + 1) * sizeof *rm);
    int32_t *cm = malloc(((size_t)nc + 1) * sizeof *cm);
    int64_t card = -1;
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    opt.backend = backend;
    if (!rm || !cm)
        mflow_fail(GCUT_ERR_NOMEM, err, "out of memory");
    else if (mflow_match(b, &opt, rm, cm, &card, NULL, err) != GCUT_OK)
        card = -1;
    else if (gcut_match_check(b, rm, cm, card, NULL, NULL) != GCUT_OK) {
        mflow_fail(GCUT_ERR_INTERNAL, err, "%s: check: %s", backend, gcut_last_error());
        card = -1;
    }
    free(rm);
    free(cm);
    return card;
}
