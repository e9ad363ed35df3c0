/*
 * test_instances.c - the DIMACS instances of ../shared/data/maxflow (when
 * present) with their known flow values (flows.csv there): every available
 * back end gets the value, and the cut of cpu-ref byte for byte.
 *
 * The folder is absent on a fresh clone outside the project's workspace;
 * the test then skips and says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void test_known_flows(void **state)
{
    (void)state;
    char path[1024];
    if (!tu_shared_data("maxflow/flows.csv", path, sizeof path)) {
        printf("# skip: %s/maxflow/flows.csv not found (shared data absent)\n", GCUT_SHARED_DATA);
        skip();
    }
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    int instances = 0;
    assert_non_null(fgets(line, sizeof line, f)); /* header */
    while (fgets(line, sizeof line, f)) {
        char name[256];
        long long expected;
        if (sscanf(line, "%255[^,],%lld", name, &expected) != 2)
            continue;
        char file[300], fpath[1024];
        snprintf(file, sizeof file, "maxflow/%s.max", name);
        assert_non_null(tu_shared_data(file, fpath, sizeof fpath));
        gcut_graph *g = NULL;
        if (gcut_graph_read_dimacs(fpath, &g, NULL) != GCUT_OK)
            fail_msg("%s: %s", fpath, gcut_last_error());
        uint8_t *ref_cut;
        const int64_t ref = tu_solve(g, "cpu-ref", &ref_cut);
        if (ref != expected)
            fail_msg("%s: cpu-ref flow %lld, known %lld", name, (long long)ref, expected);
        for (int32_t i = 0; i < gcut_backend_count(); i++) {
            const char *be = gcut_backend_name(i);
            if (!(gcut_backend_caps(i) & GCUT_BACKEND_GRAPH) || !gcut_backend_available(i, NULL))
                continue;
            uint8_t *cut;
            const int64_t flow = tu_solve(g, be, &cut);
            if (flow != expected)
                fail_msg("%s: %s flow %lld, known %lld", name, be, (long long)flow, expected);
            if (memcmp(cut, ref_cut, (size_t)gcut_graph_num_nodes(g)) != 0)
                fail_msg("%s: %s cut differs from cpu-ref", name, be);
            assert_int_equal(gcut_check_flow(g, flow, NULL, cut), GCUT_OK);
            printf("# %s %s: %lld ok\n", name, be, (long long)flow);
            free(cut);
        }
        free(ref_cut);
        gcut_graph_free(g);
        instances++;
    }
    fclose(f);
    assert_true(instances >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_known_flows)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
