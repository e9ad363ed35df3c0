/*
 * test_crosscheck.c - every available back end against cpu-ref on many
 * random graphs of every family and capacity range: same flow value, the
 * same canonical cut byte for byte, and (where flows are returned) a flow
 * that gcut_check_flow accepts.
 *
 * The count per back end is 10,000 by default (scaled by $GCUT_TEST_SCALE).
 * A failure prints the seed and family and writes the graph as DIMACS to
 * /tmp/gcut-fail-<label>.max. GPU back ends run here too when a device is
 * present; their repeated-run race checks live in test_gpu_*.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

static int crosscheck_backend(const char *name, uint32_t caps, int cases)
{
    int failures = 0;
    for (int i = 0; i < cases; i++) {
        const tu_family fam = (tu_family)(i % TU_FAMILY_COUNT);
        const tu_caps cap = (tu_caps)((i / TU_FAMILY_COUNT) % TU_CAPS_COUNT);
        /* Mostly small graphs (where corner cases live), some larger ones. */
        const int32_t size = i % 97 == 0 ? 2000 : (i % 7 == 0 ? 300 : 40);
        const uint64_t seed = 1000003ull * (uint64_t)i + 17;
        gcut_graph *g = tu_random_graph(seed, fam, cap, size);
        const int flows = (caps & GCUT_BACKEND_FLOWS) && (i % 3 == 0);
        const int32_t threads = (caps & GCUT_BACKEND_THREADS) ? 1 + i % 4 : 0;
        char label[128];
        snprintf(label, sizeof label, "%s-%s-%s-seed%llu-threads%d", name, tu_family_name(fam),
                 tu_caps_name(cap), (unsigned long long)seed, (int)threads);
        if (tu_crosscheck(g, name, flows, threads, NULL, label)) {
            fprintf(stderr, "FAILED: %s (family %s, caps %s, seed %llu, size %d)\n", name,
                    tu_family_name(fam), tu_caps_name(cap), (unsigned long long)seed, (int)size);
            failures++;
        }
        gcut_graph_free(g);
        if (failures >= 5)
            break;
    }
    return failures;
}

static void test_all_backends(void **state)
{
    (void)state;
    const int cases = tu_scaled(10000);
    int tested = 0, failures = 0;
    for (int32_t i = 0; i < gcut_backend_count(); i++) {
        const char *name = gcut_backend_name(i);
        const uint32_t caps = gcut_backend_caps(i);
        const char *why;
        if (!(caps & GCUT_BACKEND_GRAPH) || (caps & GCUT_BACKEND_REFERENCE))
            continue;
        if (!gcut_backend_available(i, &why)) {
            printf("# skip %s: %s\n", name, why);
            continue;
        }
        int f = crosscheck_backend(name, caps, cases);
        printf("# %s: %d random graphs, %d failures\n", name, cases, f);
        failures += f;
        tested++;
    }
    assert_true(tested > 0);
    assert_int_equal(failures, 0);
}

/* The reference itself against hand-computed answers is in test_solvers.c;
 * here it must at least certify itself on every family. */
static void test_reference_certifies(void **state)
{
    (void)state;
    for (int i = 0; i < tu_scaled(400); i++) {
        gcut_graph *g = tu_random_graph((uint64_t)i, (tu_family)(i % TU_FAMILY_COUNT),
                                        (tu_caps)(i % TU_CAPS_COUNT), 60);
        assert_int_equal(tu_crosscheck(g, "cpu-ref", 1, 0, NULL, "ref-self"), 0);
        gcut_graph_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_certifies),
        cmocka_unit_test(test_all_backends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
