/*
 * test_cli_common.c - the command-line helpers the tools share
 * (demos/common/cli.c, compiled into this test): sizes of --max-memory,
 * the getopt_long parser (forms, operands, usage errors), the progress bar
 * drawn by the library's progress callback (the bar, the spinner, the rate
 * limit, erasing, on and off), and the JSON report.
 *
 * stderr and stdout are redirected to temporary files around the calls
 * that print, and read back.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "testutil.h"

/* Output of fd 1 or 2 while capturing (capture_begin .. capture_end). */
typedef struct capture {
    int fd, saved;
    char path[64];
} capture;

static void capture_begin(capture *c, int fd)
{
    fflush(fd == 1 ? stdout : stderr);
    snprintf(c->path, sizeof c->path, "/tmp/test_cli_common.XXXXXX");
    const int tmp = mkstemp(c->path);
    assert_true(tmp >= 0);
    c->fd = fd;
    c->saved = dup(fd);
    assert_true(c->saved >= 0);
    assert_true(dup2(tmp, fd) >= 0);
    close(tmp);
}

/* What was written, NUL-terminated (the caller frees). */
static char *capture_end(capture *c)
{
    fflush(c->fd == 1 ? stdout : stderr);
    assert_true(dup2(c->saved, c->fd) >= 0);
    close(c->saved);
    FILE *f = fopen(c->path, "rb");
    assert_non_null(f);
    char *buf = calloc(1, 65536);
    assert_non_null(buf);
    const size_t n = fread(buf, 1, 65535, f);
    buf[n] = '\0';
    fclose(f);
    unlink(c->path);
    return buf;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_sizes(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        size_t bytes;
    } good[] = {{"0", 0},
                {"1000", 1000},
                {"7b", 7},
                {"2K", 2048},
                {"2k", 2048},
                {"1KiB", 1024},
                {"3KB", 3000},
                {"512M", 536870912},
                {"512MiB", 536870912},
                {"5mb", 5000000},
                {"4G", 4294967296u},
                {"1.5GiB", 1610612736},
                {"2GB", 2000000000},
                {"1T", 1099511627776u},
                {".5K", 512}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        size_t v = 12345;
        assert_int_equal(cli_parse_size(good[i].text, &v), 1);
        assert_true(v == good[i].bytes);
    }
    static const char *const bad[] = {"", "-1", "+5", "12X", "1.5Gx", "G", "1e400", "inf", "nan",
                                      "5 M", "1e30", "99999999999T", "M5", "1KiBB"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t v = 12345;
        assert_int_equal(cli_parse_size(bad[i], &v), 0);
        assert_true(v == 12345); /* unchanged */
    }
}

/* The tool's options of the parser test. */
typedef struct seen {
    int32_t n;
    int flag;
    const char *name;
} seen;

enum { KEY_NAME = CLI_KEY, KEY_FLAG };

static int take(int key, const char *v, void *user)
{
    seen *s = user;
    if (key == 'n') {
        if (!cli_parse_int(v, 0, 100, &s->n))
            return cli_usage_error("-n needs 0..100", v);
    } else if (key == KEY_NAME) {
        s->name = v;
    } else {
        s->flag++;
    }
    return 0;
}

static const struct option longopts[] = {{"num", required_argument, NULL, 'n'},
                                          {"name", required_argument, NULL, KEY_NAME},
                                          {"flag", no_argument, NULL, KEY_FLAG},
                                          {NULL, 0, NULL, 0}};

/* The operands of the last parse, in order. */
static char *operands[32];

/* cli_parse on a NULL-terminated list; stderr and stdout captured into
 * *err and *out when not NULL (else discarded). */
static int parse(const char **list, seen *s, cli_common *c, int *first, char **out, char **err)
{
    char *argv[32];
    int argc = 0;
    for (; list[argc]; argc++)
        argv[argc] = (char *)list[argc];
    argv[argc] = NULL;
    const cli_opts g = {"n:", longopts, take, s};
    capture co, ce;
    capture_begin(&co, 1);
    capture_begin(&ce, 2);
    const int rc = cli_parse(argc, argv, &g, 1, CLI_OPT_SOLVER, c, first);
    char *e = capture_end(&ce), *o = capture_end(&co);
    if (err)
        *err = e;
    else
        free(e);
    if (out)
        *out = o;
    else
        free(o);
    for (int i = *first; i < argc; i++)
        operands[i - *first] = argv[i];
    operands[argc - *first] = NULL;
    return rc;
}

static void test_parse_forms(void **state)
{
    (void)state;
    cli_init("tool", "usage: tool [options] FILE\nA tool.\n");
    const char *argv[] = {"tool",      "-n16",   "in.txt", "--name=a b", "--backend", "cpu-bk",
                          "-t3",       "--flag", "--fl",   "--time-limit=2.5",
                          "--max-memory", "1.5GiB", "-vv", "--json", "--", "-odd", NULL};
    seen s = {0, 0, NULL};
    cli_common c;
    int first;
    assert_int_equal(parse(argv, &s, &c, &first, NULL, NULL), 0);
    assert_string_equal(operands[0], "in.txt");
    assert_string_equal(operands[1], "-odd");
    assert_null(operands[2]);
    assert_int_equal(s.n, 16);
    assert_string_equal(s.name, "a b");
    assert_int_equal(s.flag, 2); /* --fl: an abbreviation of --flag */
    assert_string_equal(c.backend, "cpu-bk");
    assert_int_equal(c.threads, 3);
    assert_true(c.time_limit == 2.5);
    assert_true(c.max_memory == 1610612736u);
    assert_true(gcut_max_memory() == 1610612736u);
    gcut_set_max_memory(0);
    assert_int_equal(c.verbose, 2);
    assert_int_equal(c.json, 1);
    assert_int_equal(cli_json(), 1);

    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    cli_apply_solve(&c, &opt);
    assert_string_equal(opt.backend, "cpu-bk");
    assert_int_equal(opt.threads, 3);
    assert_true(opt.time_limit == 2.5 && opt.max_memory == 1610612736u);
    assert_non_null(opt.log);
    assert_null(opt.progress); /* stderr is not a terminal here */
}

static void test_parse_errors(void **state)
{
    (void)state;
    cli_init("tool", "usage: tool [options] FILE\nA tool.\n");
    static const char *const cases[][3] = {
        {"--bogus", NULL, "tool: unknown or ambiguous option: --bogus\n"},
        {"-Z", NULL, "tool: unknown or ambiguous option: -Z\n"},
        {"-n", NULL, "tool: option needs a value: -n\n"},
        {"--num=x", NULL, "tool: -n needs 0..100: x\n"},
        {"--threads", "x", "tool: --threads needs a number 0..4096: x\n"},
        {"--time-limit=0", NULL, "tool: --time-limit needs a positive number of seconds: 0\n"},
        {"--max-memory=12X", NULL, NULL},
        {"--progress=sometimes", NULL, "tool: --progress must be auto, always or never: sometimes\n"},
        {"--flag=1", NULL, NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[] = {"tool", cases[i][0], cases[i][1], NULL};
        seen s = {0, 0, NULL};
        cli_common c;
        int first;
        char *out, *err;
        assert_int_equal(parse(argv, &s, &c, &first, &out, &err), 2);
        assert_string_equal(out, "");
        char *try = strstr(err, "Try 'tool --help'.\n");
        assert_non_null(try);
        assert_string_equal(try, "Try 'tool --help'.\n"); /* the last line */
        if (cases[i][2]) {
            *try = '\0';
            assert_string_equal(err, cases[i][2]);
        }
        free(out);
        free(err);
    }
    /* --help and --version: stdout, -1 (exit status 0). */
    const char *help[] = {"tool", "--help", NULL};
    seen s = {0, 0, NULL};
    cli_common c;
    int first;
    char *out, *err;
    assert_int_equal(parse(help, &s, &c, &first, &out, &err), -1);
    assert_non_null(strstr(out, "usage: tool [options] FILE\n"));
    assert_non_null(strstr(out, "common options:\n"));
    assert_non_null(strstr(out, "--max-memory SIZE"));
    assert_string_equal(err, "");
    free(out);
    free(err);
    const char *version[] = {"tool", "--version", NULL};
    assert_int_equal(parse(version, &s, &c, &first, &out, &err), -1);
    assert_non_null(strstr(out, "back ends:\n"));
    assert_non_null(strstr(out, "\n  cpu-bk       yes\n"));
    free(out);
    free(err);
}

/* Parse just the progress and quiet options. */
static void set_mode(const char *a, const char *b)
{
    cli_init("tool", "usage: tool [options] FILE\nA tool.\n");
    const char *argv[] = {"tool", a, b, NULL};
    seen s = {0, 0, NULL};
    cli_common c;
    int first;
    assert_int_equal(parse(argv, &s, &c, &first, NULL, NULL), 0);
}

static gcut_progress progress(const char *op, const char *phase, double fraction)
{
    gcut_progress p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    p.operation = op;
    p.phase = phase;
    p.fraction = fraction;
    p.remaining = -1;
    return p;
}

static void test_progress_bar(void **state)
{
    (void)state;
    set_mode("--progress=always", NULL);
    assert_int_equal(cli_progress_on(), 1);
    gcut_solve_options opt;
    gcut_solve_options_init(&opt);
    cli_common c = {0};
    cli_apply_solve(&c, &opt);
    assert_ptr_equal(opt.progress, cli_progress_cb);

    capture ce;
    capture_begin(&ce, 2);
    gcut_progress p = progress("maxflow", "solve", 0.43);
    p.step = 1;
    p.steps = 5;
    p.remaining = 100;
    p.remaining_what = "active nodes";
    p.elapsed_ms = 1200;
    const double t0 = cli_now_ms();
    assert_int_equal(cli_progress_cb(&p, NULL), 0);
    p.fraction = 0.5; /* at once again: not drawn (ten redraws a second) */
    cli_progress_cb(&p, NULL);
    const double t1 = cli_now_ms();
    p.fraction = 1; /* a finished share: drawn at once */
    cli_progress_cb(&p, NULL);
    sleep_ms(120);
    gcut_progress q = progress("grabcut", "iteration", -1); /* unknown: the spinner */
    cli_progress_cb(&q, NULL);
    cli_progress_clear();
    char *err = capture_end(&ce);
    if (t1 - t0 > 90) { /* a machine too busy for the rate limit's 100 ms */
        free(err);
        skip();
    }

    /* Three draws, each starting with \r, then the erasing. */
    const char *d1 = err, *d2 = strchr(d1 + 1, '\r'), *d3 = d2 ? strchr(d2 + 1, '\r') : NULL;
    const char *d4 = d3 ? strchr(d3 + 1, '\r') : NULL;
    assert_true(d1[0] == '\r' && d2 && d3 && d4);
    assert_non_null(d4 + 1);
    assert_true(strchr(d4 + 1, '\r') && strchr(d4 + 1, '\r')[1] == '\0'); /* erased, last */
    /* 43 %: 13 of 30 cells, the last an arrow. */
    assert_memory_equal(d1, "\r[============>                 ]  43%  maxflow solve  1.", 57);
    assert_non_null(strstr(d1, " s  1/5, 100 active nodes"));
    assert_true(strstr(d1, "50%") == NULL || strstr(d1, "50%") > d2); /* 0.5 skipped */
    assert_memory_equal(d2, "\r[==============================] 100%  maxflow solve", 52);
    assert_memory_equal(d3, "\r[<=>", 5);
    assert_non_null(strstr(d3, "  ?   grabcut iteration  "));
    /* The erasing pads over the longest line with spaces. */
    for (const char *e = d4 + 1; *e != '\r'; e++)
        assert_true(*e == ' ');
    free(err);

    /* Off: never, quiet, or auto without a terminal (stderr is a file). */
    static const char *const off[][2] = {
        {"--progress=never", NULL}, {"-q", NULL}, {"--progress=auto", NULL}, {NULL, NULL}};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        set_mode(off[i][0], off[i][1]);
        capture_begin(&ce, 2);
        assert_int_equal(cli_progress_on(), 0);
        gcut_progress r = progress("maxflow", "solve", 0.5);
        cli_progress_cb(&r, NULL);
        cli_progress_draw(-1, "read", NULL);
        cli_progress_clear();
        err = capture_end(&ce);
        assert_string_equal(err, "");
        free(err);
    }
    /* A tool drawing its own steps keeps the bar from the library's calls. */
    set_mode("--progress=always", NULL);
    cli_progress_outer(1);
    capture_begin(&ce, 2);
    gcut_progress r = progress("expansion", "cycle", 0.5);
    cli_progress_cb(&r, NULL);
    err = capture_end(&ce);
    assert_string_equal(err, "");
    free(err);
    cli_progress_outer(0);
}

static void test_json(void **state)
{
    (void)state;
    set_mode("--json", NULL);
    capture co;
    capture_begin(&co, 1);
    fprintf(cli_report(), "dropped: the text report\n");
    cli_put_int("nodes", 6);
    cli_put_ms("solve", 1.5, 2);
    cli_put_pct("bad1-all", 2.25, 2);
    cli_put_str("backend", "cpu-bk");
    cli_put_num("iou", 0.5, "%.4f");
    cli_json_begin_array("cycle");
    cli_json_begin_object(NULL);
    cli_json_int("energy", -3);
    cli_json_num("ms", 1.0 / 0.0); /* not finite: null */
    cli_json_end();
    cli_json_str(NULL, "q\"\\\n\x01");
    cli_json_end();
    cli_json_begin_object("open"); /* closed by cli_finish */
    assert_int_equal(cli_finish(0), 0);
    char *out = capture_end(&co);
    assert_string_equal(out, "{\"nodes\":6,\"solve_ms\":1.5,\"bad1_all_pct\":2.25,"
                             "\"backend\":\"cpu-bk\",\"iou\":0.5,"
                             "\"cycle\":[{\"energy\":-3,\"ms\":null},\"q\\\"\\\\\\u000a\\u0001\"],"
                             "\"open\":{},\"status\":\"ok\"}\n");
    free(out);

    /* A failure: the message of cli_fail, the exit status. */
    set_mode("--json", NULL);
    capture_begin(&co, 1);
    capture ce;
    capture_begin(&ce, 2);
    cli_put_int("nodes", 2);
    gcut_graph *g = NULL;
    assert_int_not_equal(gcut_graph_read_dimacs("/nonexistent/x.max", &g, NULL), GCUT_OK);
    assert_int_equal(cli_finish(cli_fail()), 1);
    char *err = capture_end(&ce);
    out = capture_end(&co);
    assert_non_null(strstr(err, "tool: gcut_graph_read_dimacs: "));
    static const char head[] =
        "{\"nodes\":2,\"status\":\"error\",\"exit\":1,\"error\":\"gcut_graph_read_dimacs: ";
    assert_memory_equal(out, head, sizeof head - 1);
    assert_non_null(strstr(out, "x.max"));
    assert_string_equal(out + strlen(out) - 2, "}\n");
    free(out);
    free(err);

    /* Without --json: the text lines. */
    set_mode("-q", NULL);
    capture_begin(&co, 1);
    cli_put_int("nodes", 6);
    cli_put_ms("solve", 1.5, 2);
    cli_put_pct("bad1-all", 2.25, 2);
    cli_json_int("hidden", 1);
    assert_int_equal(cli_finish(0), 0);
    out = capture_end(&co);
    assert_string_equal(out, "nodes: 6\nsolve: 1.50 ms\nbad1-all: 2.25 %\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),        cmocka_unit_test(test_parse_forms),
        cmocka_unit_test(test_parse_errors), cmocka_unit_test(test_progress_bar),
        cmocka_unit_test(test_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
