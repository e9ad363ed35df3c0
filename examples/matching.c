/*
 * matching.c - a maximum-cardinality bipartite matching: workers (rows) and
 * jobs (columns), an edge where a worker can do a job.
 *
 *     example-matching
 *
 * Built and run by CTest (docs/matching.md shows it).
 */
#include <stdio.h>

#include <gcut/gcut.h>

int main(void)
{
    /* 4 workers, 4 jobs; worker 3 can only do job 0, as can worker 0. */
    const int32_t row[] = {0, 0, 1, 1, 2, 2, 3};
    const int32_t col[] = {0, 1, 1, 2, 2, 3, 0};
    gcut_bipartite *b;
    if (gcut_bipartite_new(&b, 4, 4, row, col, 7) != GCUT_OK)
        goto fail;
    gcut_match_options opt;
    gcut_match_options_init(&opt); /* backend "auto", greedy initial matching */
    opt.want_cover = 1;            /* also the König cover: a proof of maximality */
    gcut_match_result *res;
    if (gcut_match_result_new(&res) != GCUT_OK || gcut_match(b, &opt, res) != GCUT_OK)
        goto fail;
    const int32_t *mate = gcut_match_result_row_mates(res);
    printf("%lld of 4 workers matched by %s\n", (long long)gcut_match_result_cardinality(res),
           gcut_match_result_backend(res));
    for (int32_t r = 0; r < 4; r++)
        printf("  worker %d -> job %d\n", (int)r, (int)mate[r]);
    /* Check it independently: a valid matching with a cover of its size. */
    if (gcut_match_check(b, mate, gcut_match_result_col_mates(res),
                         gcut_match_result_cardinality(res), NULL, NULL) != GCUT_OK)
        goto fail;
    const int ok = gcut_match_result_cardinality(res) == 4;
    gcut_match_result_free(res);
    gcut_bipartite_free(b);
    return ok ? 0 : 1;
fail:
    fprintf(stderr, "example-matching: %s\n", gcut_last_error());
    return 1;
}
