/*
 * gcut-gen - write a generated benchmark instance as a DIMACS max-flow file.
 *
 *     gcut-gen genrmf a=32 b=32 --seed 1 -o genrmf_32x32.max
 *     gcut-gen rlg:r=256,c=512 > rlg.max
 *
 * The graph is built in memory by the generators of bench/gen (the same
 * code gcut-bench uses) and written with gcut_graph_write_dimacs: nodes
 * 1..n, then s = n+1 and t = n+2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen/gen.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gcut-gen FAMILY [KEY=VALUE ...] [--seed S] [-o FILE] [-q]\n"
               "       gcut-gen FAMILY:KEY=VALUE,... [--seed S] [-o FILE] [-q]\n"
               "\n"
               "Generate a max-flow instance and write it in DIMACS format (to stdout\n"
               "unless -o is given). The same family, parameters and seed always give\n"
               "the same graph.\n"
               "\n"
               "options:\n"
               "  --seed S   64-bit seed (default 1; a seed=S parameter works too)\n"
               "  -o FILE    output file ('-' for stdout)\n"
               "  -q         no summary line on stderr\n"
               "  --help     this text\n"
               "\n"
               "families and parameters (default in brackets):\n");
    for (const gen_family *fam = gen_families(); fam->name; fam++) {
        fprintf(f, "\n  %s - %s\n", fam->name, fam->summary);
        for (const gen_param *p = fam->params; p->key; p++) {
            char kd[64];
            snprintf(kd, sizeof kd, "%s [%s]", p->key, p->def);
            fprintf(f, "    %-16s %s\n", kd, p->help);
        }
    }
}

int main(int argc, char **argv)
{
    const char *family = NULL, *outpath = "-";
    const char *kv[GEN_MAX_KV];
    int nkv = 0, quiet = 0;
    uint64_t seed = 1;
    const char *seed_text = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--seed") == 0 && i + 1 < argc) {
            seed_text = argv[++i];
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            outpath = argv[++i];
        } else if (strcmp(a, "-q") == 0) {
            quiet = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "gcut-gen: unknown option '%s' (see --help)\n", a);
            return 2;
        } else if (!family) {
            family = a;
        } else if (nkv < GEN_MAX_KV) {
            kv[nkv++] = a;
        } else {
            fprintf(stderr, "gcut-gen: too many parameters\n");
            return 2;
        }
    }
    if (!family) {
        usage(stderr);
        return 2;
    }
    char err[GEN_ERR_LEN];
    gen_spec spec;
    if (gen_spec_parse(family, seed, &spec, err) != 0) {
        fprintf(stderr, "gcut-gen: %s\n", err);
        return 2;
    }
    if (seed_text && gen_spec_set(&spec, "seed", seed_text, err) != 0) {
        fprintf(stderr, "gcut-gen: %s\n", err);
        return 2;
    }
    for (int i = 0; i < nkv; i++) {
        /* Separate arguments may themselves hold commas: k=v,k=v. */
        char buf[GEN_SPEC_LEN];
        snprintf(buf, sizeof buf, "%s", kv[i]);
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(tok, '=');
            if (!eq || eq == tok) {
                fprintf(stderr, "gcut-gen: expected KEY=VALUE, got '%s'\n", tok);
                return 2;
            }
            *eq = '\0';
            if (gen_spec_set(&spec, tok, eq + 1, err) != 0) {
                fprintf(stderr, "gcut-gen: %s\n", err);
                return 2;
            }
        }
    }

    double t0 = now_ms();
    gcut_graph *g = NULL;
    if (gen_build(&spec, &g, err) != GCUT_OK) {
        fprintf(stderr, "gcut-gen: %s\n", err);
        return 1;
    }
    double t1 = now_ms();
    gcut_status st = strcmp(outpath, "-") == 0
                         ? gcut_graph_write_dimacs_file(g, stdout, "<stdout>")
                         : gcut_graph_write_dimacs(g, outpath);
    if (st == GCUT_OK && strcmp(outpath, "-") == 0 && fflush(stdout) != 0)
        st = GCUT_ERR_IO;
    if (st != GCUT_OK) {
        fprintf(stderr, "gcut-gen: writing %s: %s\n", outpath,
                *gcut_last_error() ? gcut_last_error() : gcut_status_string(st));
        gcut_graph_free(g);
        return 1;
    }
    double t2 = now_ms();
    if (!quiet)
        fprintf(stderr, "gcut-gen: %s: %" PRId32 " nodes, %" PRId64
                        " edges; generated in %.1f ms, written in %.1f ms\n",
                spec.text, gcut_graph_num_nodes(g), gcut_graph_num_edges(g), t1 - t0, t2 - t1);
    gcut_graph_free(g);
    return 0;
}
