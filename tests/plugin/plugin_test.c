/*
 * plugin_test.c - the registry and the chooser with plugins other than the
 * CUDA one (tests/plugin/fake_plugin.c), one case per process (the registry
 * is set up once per process), named by $GCUT_TEST_PLUGIN_CASE:
 *   ok     a good plugin: named built-in back ends and automatic choices
 *          that a built-in engine settles never load it; its back end and
 *          extension are found; the expected CUDA back ends it does not
 *          provide are listed as unavailable with the reason, and naming
 *          one fails with GCUT_ERR_UNAVAILABLE;
 *   old    a plugin of the 0.1 ABI: refused with the reason;
 *   future a plugin of a newer ABI: refused with the reason;
 *   env    $GCUT_BACKEND names the back end of "auto", read once;
 *   check  the checks before dlopen on crafted files (a truncated copy of
 *          the good plugin, junk, a wrong ELF type, machine or class, a
 *          FIFO, a folder, a broken link, an unreadable file);
 *   truncated / fifo
 *          a truncated copy of the good plugin / a FIFO (named alone and in
 *          a folder) in $GCUT_PLUGIN_PATH, set here: the list, "auto" and
 *          a named built-in back end still work, the stand-ins say why.
 * The good plugin is $GCUT_FAKE_PLUGIN for the last three.
 */
#include <elf.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gcut/gcut.h"
#include "gcut/plugin.h"
#include "core/core_internal.h"
#include "graph/graph_internal.h"
#include "solve/solve_internal.h"

static const char *test_case(void)
{
    const char *c = getenv("GCUT_TEST_PLUGIN_CASE");
    return c ? c : "";
}

static int entered(void) { return getenv("GCUT_FAKE_PLUGIN_ENTERED") != NULL; }

/* A small vision-like graph: every node has a terminal link. */
static gcut_graph *small_graph(void)
{
    gcut_graph *g;
    assert_int_equal(gcut_graph_new(&g, 4, 4), GCUT_OK);
    for (int32_t v = 0; v < 4; v++)
        assert_int_equal(gcut_graph_add_tweights(g, v, v + 1, 4 - v), GCUT_OK);
    for (int32_t v = 0; v + 1 < 4; v++)
        assert_int_equal(gcut_graph_add_edge(g, v, v + 1, 2, 2), GCUT_OK);
    return g;
}

static int32_t find(const char *name)
{
    int32_t i = -1;
    assert_int_equal(gcut_backend_find(name, &i), GCUT_OK);
    return i;
}

static int64_t g_seen_remaining;

static int stop_at_solve(const gcut_progress *p, void *user)
{
    (void)user;
    if (strcmp(p->phase, "solve") != 0 || p->remaining < 0)
        return 0;
    g_seen_remaining = p->remaining;
    assert_string_equal(p->remaining_what, "fake units");
    return 1;
}

static void test_ok(void **unused)
{
    (void)unused;
    gcut_graph *g = small_graph();
    int32_t idx;
    const char *why;
    /* Named built-in back ends and what they settle: no plugin load. */
    assert_int_equal(gcut_backend_choose(g, "cpu-bk", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-bk");
    gcut_solve_options o;
    gcut_solve_options_init(&o);
    o.backend = "cpu-hipr";
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    assert_int_equal(gcut_solve(g, &o, r), GCUT_OK);
    assert_int_equal(gcut_backend_choose(g, "auto", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-bk");
    assert_false(entered());
    /* The list loads the plugins: its back end, then the stand-ins. */
    const int32_t n = gcut_backend_count();
    assert_true(entered());
    const int32_t fake = find("fake-graph");
    assert_true(gcut_backend_available(fake, NULL));
    assert_true(gcut_backend_caps(fake) & GCUT_BACKEND_GRAPH);
    const int32_t csr = find("cuda-csr"), grid = find("cuda-grid");
    assert_true(csr < n && grid < n);
    const char *reason;
    assert_false(gcut_backend_available(grid, &reason));
    assert_non_null(strstr(reason, "libgcut_cuda.so"));
    assert_true(gcut_backend_caps(grid) & GCUT_BACKEND_GRID);
    assert_true(gcut_backend_caps(grid) & GCUT_BACKEND_GPU);
    assert_true(gcut_backend_caps(csr) & GCUT_BACKEND_GRAPH);
    assert_true(gcut_backend_caps(csr) & GCUT_BACKEND_AUTO_LARGE);
    assert_true(gcut_backend_caps(csr) & GCUT_BACKEND_LAYS_OUT);
    /* A back end that lays graphs out itself gets the edges alone, and
     * the core's layout once the graph holds one (fake-lays-out's "flow"
     * says which), until the graph's structure changes. */
    o.backend = "fake-lays-out";
    gcut_graph *g2 = small_graph();
    gcut_result *r2;
    assert_int_equal(gcut_result_new(&r2), GCUT_OK);
    assert_int_equal(gcut_solve(g2, &o, r2), GCUT_OK);
    assert_int_equal(gcut_result_flow(r2), 0);
    const gcut_rcsr *lay = NULL;
    assert_int_equal(gcut_i_graph_rcsr(g2, 1, &lay), GCUT_OK);
    assert_int_equal(gcut_solve(g2, &o, r2), GCUT_OK);
    assert_int_equal(gcut_result_flow(r2), 1);
    assert_int_equal(gcut_graph_add_edge(g2, 0, 1, 1, 0), GCUT_OK);
    assert_int_equal(gcut_solve(g2, &o, r2), GCUT_OK);
    assert_int_equal(gcut_result_flow(r2), 0);
    gcut_result_free(r2);
    gcut_graph_free(g2);
    assert_int_equal(gcut_backend_choose(g, "cuda-grid", &idx, &why), GCUT_ERR_UNAVAILABLE);
    assert_non_null(strstr(gcut_last_error(), "libgcut_cuda.so"));
    o.backend = "cuda-csr";
    assert_int_equal(gcut_solve(g, &o, r), GCUT_ERR_UNAVAILABLE);
    assert_int_equal(gcut_backend_choose(g, "nope", &idx, &why), GCUT_ERR_NOT_FOUND);
    /* Extensions by name, version and back end. */
    const int *t = gcut_i_plugin_extension("test.ext", 1, "fake-graph");
    assert_non_null(t);
    assert_int_equal(*t, 42);
    assert_ptr_equal(gcut_i_plugin_extension("test.ext", 1, NULL), t);
    assert_null(gcut_i_plugin_extension("test.ext", 2, "fake-graph"));
    assert_null(gcut_i_plugin_extension("test.ext", 1, "cpu-bk"));
    assert_null(gcut_i_plugin_extension("other", 1, NULL));
    /* The host's poll (ABI 4): the fake back end polls once; a callback
     * that says stop makes its solve GCUT_ERR_INTERRUPTED, the result
     * unchanged. */
    g_seen_remaining = 0;
    o.backend = "fake-graph";
    assert_int_equal(gcut_solve(g, &o, r), GCUT_ERR_UNSUPPORTED);
    o.progress = stop_at_solve;
    o.progress_interval_ms = 1e-6; /* the engine's poll right after the phase's start */
    assert_int_equal(gcut_solve(g, &o, r), GCUT_ERR_INTERRUPTED);
    assert_non_null(strstr(gcut_last_error(), "gcut_solve: interrupted"));
    assert_int_equal(g_seen_remaining, 7);
    assert_string_equal(gcut_result_backend(r), "cpu-hipr");
    gcut_result_free(r);
    gcut_graph_free(g);
}

/* The back end "auto" picks for a w x h grid (4-connected), with a hint. */
static const char *grid_pick(int32_t w, int32_t h, int hard, int64_t solves, const char **why)
{
    gcut_grid *g;
    assert_int_equal(gcut_grid_new(&g, w, h, 1, 4), GCUT_OK);
    gcut_i_grid_set_hint(g, hard, solves);
    int32_t idx = -1;
    assert_int_equal(gcut_grid_backend_choose(g, NULL, &idx, why), GCUT_OK);
    gcut_grid_free(g);
    return gcut_backend_name(idx);
}

/* "auto" and the GPU for grids (docs/backends.md, "How auto chooses"): by
 * size, image energies, expected solves and whether the device is set up;
 * small grids never load the plugin; a GPU that fails falls back. */
static void test_auto_gpu(void **unused)
{
    (void)unused;
    const char *why;
    assert_false(gcut_i_device_used());
    assert_string_equal(grid_pick(64, 64, 0, 1, &why), "cpu-bk");
    assert_string_equal(grid_pick(1024, 1024, 0, 1, &why), "cpu-bk"); /* 2M edges */
    assert_non_null(strstr(why, "1048576 nodes"));
    assert_false(entered()); /* settled without the plugin */
    assert_string_equal(grid_pick(2048, 1024, 0, 1, &why), "fake-gpu-grid"); /* 4.2M edges */
    assert_true(entered());
    assert_non_null(strstr(why, "repays the device set-up"));
    assert_string_equal(grid_pick(512, 512, 0, 1, &why), "cpu-bk");
    assert_string_equal(grid_pick(512, 512, 1, 1, &why), "fake-gpu-grid"); /* image energies */
    assert_string_equal(grid_pick(256, 256, 1, 1, &why), "cpu-bk");
    assert_string_equal(grid_pick(256, 256, 1, 16, &why), "fake-gpu-grid"); /* 16 labels */
    assert_string_equal(grid_pick(100, 100, 1, 1000, &why), "cpu-bk"); /* too few nodes */
    /* A named back end wins, and a graph choice is unchanged. */
    gcut_grid *g;
    int32_t idx;
    assert_int_equal(gcut_grid_new(&g, 2048, 1024, 1, 4), GCUT_OK);
    assert_int_equal(gcut_grid_backend_choose(g, "cpu-bk", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-bk");
    /* The GPU picked by auto fails (device memory): the CPU solves, and
     * the result says why. */
    gcut_result *r;
    assert_int_equal(gcut_result_new(&r), GCUT_OK);
    assert_int_equal(gcut_grid_solve(g, NULL, r), GCUT_OK);
    assert_string_equal(gcut_result_backend(r), "cpu-bk");
    assert_non_null(strstr(gcut_result_reason(r), "fake-gpu-grid failed"));
    /* Then the grid holds cpu-bk's warm state, which auto keeps. */
    assert_int_equal(gcut_grid_backend_choose(g, NULL, &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-bk");
    assert_non_null(strstr(why, "warm state"));
    gcut_result_free(r);
    gcut_grid_free(g);
    /* Once a device is set up in the process, from 32768 nodes on. */
    assert_false(gcut_i_device_used());
    gcut_i_note_device_used();
    assert_string_equal(grid_pick(128, 128, 0, 1, &why), "cpu-bk");
    assert_string_equal(grid_pick(256, 128, 0, 1, &why), "fake-gpu-grid");
    assert_non_null(strstr(why, "already set up"));
}

/* A refused plugin: nothing of it is listed; the stand-ins say why. */
static void check_refused(const char *words)
{
    assert_int_equal(gcut_backend_find("fake-graph", &(int32_t){0}), GCUT_ERR_NOT_FOUND);
    assert_true(entered());
    const char *reason;
    assert_false(gcut_backend_available(find("cuda-grid"), &reason));
    assert_non_null(strstr(reason, words));
    assert_false(gcut_backend_available(find("cuda-csr"), &reason));
    assert_non_null(strstr(reason, words));
    gcut_graph *g = small_graph();
    int32_t idx;
    assert_int_equal(gcut_backend_choose(g, "cuda-csr", &idx, NULL), GCUT_ERR_UNAVAILABLE);
    assert_non_null(strstr(gcut_last_error(), words));
    gcut_graph_free(g); /* everything else still works */
    int64_t flow = 0;
    g = small_graph();
    assert_int_equal(gcut_graph_maxflow(g, NULL, &flow), GCUT_OK);
    assert_true(flow > 0);
    gcut_graph_free(g);
}

static void test_old(void **unused)
{
    (void)unused;
    check_refused("refused this libgcut, which speaks plugin ABI version 4");
}

static void test_future(void **unused)
{
    (void)unused;
    check_refused("speaks plugin ABI version 5, this libgcut needs version 4");
}

static void test_env(void **unused)
{
    (void)unused;
    gcut_graph *g = small_graph();
    int32_t idx;
    const char *why;
    assert_int_equal(gcut_backend_choose(g, NULL, &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-ref");
    assert_string_equal(why, "named by $GCUT_BACKEND");
    /* Read once: changing it later changes nothing. */
    setenv("GCUT_BACKEND", "cpu-hipr", 1);
    assert_int_equal(gcut_backend_choose(g, "auto", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-ref");
    /* A name given by the caller wins. */
    assert_int_equal(gcut_backend_choose(g, "cpu-bk", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-bk");
    assert_string_equal(why, "named by the caller");
    gcut_grid *gr;
    assert_int_equal(gcut_grid_new(&gr, 4, 3, 1, 4), GCUT_OK);
    assert_int_equal(gcut_grid_backend_choose(gr, "auto", &idx, &why), GCUT_OK);
    assert_string_equal(gcut_backend_name(idx), "cpu-ref");
    assert_string_equal(gcut_i_grid_backend_name(NULL, NULL), "cpu-ref");
    gcut_grid_free(gr);
    gcut_graph_free(g);
}

/* ---- plugins that must not be opened or loaded */

static char g_dir[256];

static const char *tmp_dir(void)
{
    if (!g_dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(g_dir, sizeof g_dir, "%s/gcut-plugin-XXXXXX", base && *base ? base : "/tmp");
        assert_non_null(mkdtemp(g_dir));
    }
    return g_dir;
}

static char *tmp_path(const char *name)
{
    static char buf[8][512];
    static int k;
    char *p = buf[k++ % 8];
    snprintf(p, 512, "%s/%s", tmp_dir(), name);
    return p;
}

/* The bytes of the good plugin. */
static unsigned char *good_plugin(size_t *size)
{
    const char *path = getenv("GCUT_FAKE_PLUGIN");
    assert_non_null(path);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    const long n = ftell(f);
    assert_true(n > (long)sizeof(Elf64_Ehdr));
    rewind(f);
    unsigned char *b = malloc((size_t)n);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return b;
}

static char *write_file(const char *name, const void *data, size_t size)
{
    char *p = tmp_path(name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    return p;
}

/* The truncated copy: the first half of the good plugin. */
static char *truncated_plugin(const char *name)
{
    size_t n;
    unsigned char *b = good_plugin(&n);
    char *p = write_file(name, b, n / 2);
    free(b);
    return p;
}

static void expect_refused(const char *path, const char *words)
{
    char why[256] = "";
    assert_int_equal(gcut_i_plugin_check(path, why, sizeof why), 0);
    if (!strstr(why, words))
        fail_msg("%s: '%s' does not say '%s'", path, why, words);
}

static void test_check(void **unused)
{
    (void)unused;
    char why[256];
    const char *good = getenv("GCUT_FAKE_PLUGIN");
    assert_non_null(good);
    assert_int_equal(gcut_i_plugin_check(good, why, sizeof why), 1);
    size_t n;
    unsigned char *b = good_plugin(&n);
    expect_refused(truncated_plugin("libgcut_half.so"), "truncated");
    expect_refused(write_file("libgcut_short.so", b, 40), "truncated");
    expect_refused(write_file("libgcut_empty.so", b, 0), "truncated or corrupt");
    expect_refused(write_file("libgcut_junk.so", "this is not a shared object\n", 28),
                   "corrupt: not an ELF file");
    /* The headers of the good plugin, edited. */
    Elf64_Ehdr eh;
    memcpy(&eh, b, sizeof eh);
    Elf64_Ehdr e = eh;
    e.e_type = ET_EXEC;
    memcpy(b, &e, sizeof e);
    expect_refused(write_file("libgcut_exec.so", b, n), "not an ELF shared object");
    e = eh;
    e.e_machine = EM_PPC64 == (int)eh.e_machine ? EM_X86_64 : EM_PPC64;
    memcpy(b, &e, sizeof e);
    expect_refused(write_file("libgcut_machine.so", b, n), "another machine");
    e = eh;
    e.e_ident[EI_CLASS] = ELFCLASS32;
    memcpy(b, &e, sizeof e);
    expect_refused(write_file("libgcut_32.so", b, n), "not a 64-bit ELF");
    e = eh;
    e.e_shoff = (Elf64_Off)n; /* section headers past the end */
    memcpy(b, &e, sizeof e);
    expect_refused(write_file("libgcut_shoff.so", b, n), "section headers end past");
    e = eh;
    e.e_phoff = (Elf64_Off)-8; /* an offset that overflows */
    memcpy(b, &e, sizeof e);
    expect_refused(write_file("libgcut_phoff.so", b, n), "program headers end past");
    /* A PT_LOAD segment whose bytes are past the end of the file. */
    e = eh;
    memcpy(b, &e, sizeof e);
    int found = 0;
    for (int i = 0; i < eh.e_phnum && !found; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, b + eh.e_phoff + (size_t)i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_LOAD) {
            ph.p_filesz = (Elf64_Xword)n;
            ph.p_offset = 4096;
            memcpy(b + eh.e_phoff + (size_t)i * sizeof ph, &ph, sizeof ph);
            found = 1;
        }
    }
    assert_true(found);
    expect_refused(write_file("libgcut_load.so", b, n), "segment");
    free(b);
    /* Not regular files: never opened (a FIFO would block). */
    char *fifo = tmp_path("libgcut_fifo.so");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    expect_refused(fifo, "a FIFO");
    char *dir = tmp_path("libgcut_dir.so");
    assert_int_equal(mkdir(dir, 0700), 0);
    expect_refused(dir, "a folder");
    expect_refused("/dev/null", "a device");
    char *link = tmp_path("libgcut_link.so");
    assert_int_equal(symlink(tmp_path("missing"), link), 0);
    expect_refused(link, "broken symbolic link");
    expect_refused(tmp_path("libgcut_absent.so"), "not found");
    /* Unreadable: root reads anything, so only as another user. */
    if (geteuid() != 0) {
        char *locked = truncated_plugin("libgcut_locked.so");
        assert_int_equal(chmod(locked, 0), 0);
        expect_refused(locked, "is unreadable: ");
    }
}

/* After a refused plugin: the back ends of the library all work. */
static void check_survives(const char *words)
{
    gcut_graph *g = small_graph();
    int32_t idx;
    const char *why;
    assert_int_equal(gcut_backend_choose(g, "cpu-bk", &idx, &why), GCUT_OK);
    assert_true(gcut_backend_count() > 0); /* the list loads the plugins */
    assert_int_equal(gcut_backend_find("fake-graph", &(int32_t){0}), GCUT_ERR_NOT_FOUND);
    const char *reason;
    assert_false(gcut_backend_available(find("cuda-csr"), &reason));
    if (!strstr(reason, words))
        fail_msg("the reason '%s' does not say '%s'", reason, words);
    assert_int_equal(gcut_backend_choose(g, "auto", &idx, &why), GCUT_OK);
    int64_t flow = 0;
    assert_int_equal(gcut_graph_maxflow(g, "auto", &flow), GCUT_OK);
    assert_true(flow > 0);
    assert_int_equal(gcut_graph_maxflow(g, "cpu-bk", &flow), GCUT_OK);
    gcut_graph_free(g);
}

static void test_truncated(void **unused)
{
    (void)unused;
    truncated_plugin("libgcut_fake1.so");
    assert_int_equal(setenv("GCUT_PLUGIN_PATH", tmp_dir(), 1), 0);
    check_survives("is truncated or corrupt");
}

static void test_fifo(void **unused)
{
    (void)unused;
    char *fifo = tmp_path("libgcut_fifo.so");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    char path[1200];
    snprintf(path, sizeof path, "%s:%s", tmp_dir(), fifo);
    assert_int_equal(setenv("GCUT_PLUGIN_PATH", path, 1), 0);
    check_survives("a FIFO");
}

static int cleanup(void **unused)
{
    (void)unused;
    if (g_dir[0]) {
        char cmd[640];
        snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' && rm -rf '%s'", g_dir, g_dir);
        if (system(cmd) != 0)
            return 1;
    }
    return 0;
}

int main(void)
{
    const char *c = test_case();
    if (strcmp(c, "ok") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_ok)};
        return cmocka_run_group_tests_name("plugin_ok", t, NULL, NULL);
    }
    if (strcmp(c, "auto") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_auto_gpu)};
        return cmocka_run_group_tests_name("chooser_auto_gpu", t, NULL, NULL);
    }
    if (strcmp(c, "old") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_old)};
        return cmocka_run_group_tests_name("plugin_old_abi", t, NULL, NULL);
    }
    if (strcmp(c, "future") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_future)};
        return cmocka_run_group_tests_name("plugin_future_abi", t, NULL, NULL);
    }
    if (strcmp(c, "env") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_env)};
        return cmocka_run_group_tests_name("chooser_env", t, NULL, NULL);
    }
    if (strcmp(c, "check") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_check)};
        return cmocka_run_group_tests_name("plugin_check", t, NULL, cleanup);
    }
    if (strcmp(c, "truncated") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_truncated)};
        return cmocka_run_group_tests_name("plugin_truncated", t, NULL, cleanup);
    }
    if (strcmp(c, "fifo") == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(test_fifo)};
        return cmocka_run_group_tests_name("plugin_fifo", t, NULL, cleanup);
    }
    return 2;
}
