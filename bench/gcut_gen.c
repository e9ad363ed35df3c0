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

#include "cli.h"
#include "gen/gen.h"

static const char usage_head[] =
    "usage: gcut-gen [options] FAMILY [KEY=VALUE ...]\n"
    "       gcut-gen [options] FAMILY:KEY=VALUE,...\n"
    "Generate a max-flow instance and write it in DIMACS format.\n"
    "\n"
    "The instance goes to stdout unless -o is given. The same family, parameters\n"
    "and seed always give the same graph.\n"
    "\n"
    "options:\n"
    "      --seed S         64-bit seed (default 1; a seed=S parameter works too)\n"
    "  -o, --out FILE       output file ('-' for stdout, the default)\n"
    "  -q, --quiet          no summary line on stderr\n"
    "\n"
    "families and parameters (default in brackets):\n";

/* The help text: the head and every family (built once, kept to the end). */
static char *usage_text(void)
{
    static char *text;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fputs(usage_head, f);
    for (const gen_family *fam = gen_families(); fam->name; fam++) {
        fprintf(f, "\n  %s - %s\n", fam->name, fam->summary);
        for (const gen_param *p = fam->params; p->key; p++) {
            char kd[64];
            snprintf(kd, sizeof kd, "%s [%s]", p->key, p->def);
            fprintf(f, "    %-16s %s\n", kd, p->help);
        }
    }
    return fclose(f) == 0 ? text : NULL;
}

enum { OPT_SEED = CLI_KEY };

typedef struct args {
    const char *outpath, *seed_text;
} args;

static int take_option(int key, const char *v, void *user)
{
    args *a = user;
    if (key == OPT_SEED)
        a->seed_text = v;
    else
        a->outpath = v;
    return 0;
}

int main(int argc, char **argv)
{
    const char *text = usage_text();
    cli_init("gcut-gen", text ? text : usage_head);
    static const struct option longopts[] = {{"seed", required_argument, NULL, OPT_SEED},
                                             {"out", required_argument, NULL, 'o'},
                                             {NULL, 0, NULL, 0}};
    args a = {"-", NULL};
    const cli_opts group = {"o:", longopts, take_option, &a};
    cli_common c;
    int first, rc = cli_parse(argc, argv, &group, 1, CLI_OPT_QUIET, &c, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    const char *family = NULL, *outpath = a.outpath, *seed_text = a.seed_text;
    const char *kv[GEN_MAX_KV];
    int nkv = 0;
    const int quiet = c.quiet;
    uint64_t seed = 1;
    for (; first < argc; first++) {
        if (!family)
            family = argv[first];
        else if (nkv < GEN_MAX_KV)
            kv[nkv++] = argv[first];
        else
            return cli_usage_error("too many parameters", argv[first]);
    }
    if (!family)
        return cli_usage_error("no FAMILY given", NULL);
    char err[GEN_ERR_LEN];
    gen_spec spec;
    if (gen_spec_parse(family, seed, &spec, err) != 0)
        return cli_usage_error(err, NULL);
    if (seed_text && gen_spec_set(&spec, "seed", seed_text, err) != 0)
        return cli_usage_error(err, NULL);
    for (int i = 0; i < nkv; i++) {
        /* Separate arguments may themselves hold commas: k=v,k=v. */
        char buf[GEN_SPEC_LEN];
        snprintf(buf, sizeof buf, "%s", kv[i]);
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(tok, '=');
            if (!eq || eq == tok)
                return cli_usage_error("expected KEY=VALUE", tok);
            *eq = '\0';
            if (gen_spec_set(&spec, tok, eq + 1, err) != 0)
                return cli_usage_error(err, NULL);
        }
    }

    double t0 = cli_now_ms();
    gcut_graph *g = NULL;
    cli_progress_draw(-1, "generate", spec.text);
    if (gen_build(&spec, &g, err) != GCUT_OK) {
        cli_progress_clear();
        fprintf(stderr, "gcut-gen: %s\n", err);
        return 1;
    }
    cli_progress_draw(-1, "write", outpath);
    double t1 = cli_now_ms();
    gcut_status st = strcmp(outpath, "-") == 0
                         ? gcut_graph_write_dimacs_file(g, stdout, "<stdout>")
                         : gcut_graph_write_dimacs(g, outpath);
    if (st == GCUT_OK && strcmp(outpath, "-") == 0 && fflush(stdout) != 0)
        st = GCUT_ERR_IO;
    if (st != GCUT_OK) {
        cli_progress_clear();
        fprintf(stderr, "gcut-gen: writing %s: %s\n", outpath,
                *gcut_last_error() ? gcut_last_error() : gcut_status_string(st));
        gcut_graph_free(g);
        return 1;
    }
    double t2 = cli_now_ms();
    cli_progress_clear();
    if (!quiet)
        fprintf(stderr, "gcut-gen: %s: %" PRId32 " nodes, %" PRId64
                        " edges; generated in %.1f ms, written in %.1f ms\n",
                spec.text, gcut_graph_num_nodes(g), gcut_graph_num_edges(g), t1 - t0, t2 - t1);
    gcut_graph_free(g);
    return 0;
}
