/*
 * backend.c - the back-end registry (DESIGN.md section 3).
 *
 * A NULL-terminated static array of the CPU back ends compiled into
 * libgcut, followed by the back ends of plugins loaded with dlopen the
 * first time the registry is used beyond the built-in ones
 * (gcut_i_backend_builtin). A plugin that is absent or broken never
 * makes anything fail: the back ends it would have provided are listed as
 * unavailable, with the reason. Probes run lazily, once per back end.
 */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph_internal.h"
#include "solvers/solvers_internal.h"
#include "solve/solve_internal.h"

#define MAX_BACKENDS 32
#define REASON_MAX 384

static const gcut_backend *const cpu_backends[] = {
    &gcut_i_backend_bk, &gcut_i_backend_hipr, &gcut_i_backend_prsn, &gcut_i_backend_grid_pr,
    &gcut_i_backend_ref, NULL,
};

/* Back ends we know a plugin should provide, listed when it is missing. */
static const char *const plugin_names[] = {"cuda-csr", NULL};

typedef struct entry {
    const gcut_backend *be;  /* NULL for a stand-in of a missing plugin back end */
    const char *name;
    int probed;
    int available;
    char reason[REASON_MAX];
} entry;

static entry g_entries[MAX_BACKENDS];
static int32_t g_count;
static int32_t g_builtin; /* the first g_builtin entries are cpu_backends */
static pthread_once_t g_builtin_once = PTHREAD_ONCE_INIT;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t g_probe_lock = PTHREAD_MUTEX_INITIALIZER;
static char g_plugin_note[REASON_MAX] = "plugin libgcut_cuda.so not found";
static const gcut_plugin_matcher *const *g_matchers; /* of the first plugin that has some */
static int32_t g_num_matchers;
static const gcut_mrf_plugin *const *g_mrf; /* device-side moves of the first plugin with some */
static int32_t g_num_mrf;
static const gcut_seg_plugin *const *g_seg; /* device-side energies of the first plugin with some */
static int32_t g_num_seg;

static void add_entry(const gcut_backend *be, const char *name)
{
    if (g_count >= MAX_BACKENDS)
        return;
    for (int32_t i = 0; i < g_count; i++)
        if (strcmp(g_entries[i].name, name) == 0) {
            if (!g_entries[i].be && be) /* a loaded back end replaces its stand-in */
                g_entries[i].be = be;
            return;
        }
    g_entries[g_count].be = be;
    g_entries[g_count].name = name;
    g_count++;
}

/* Load one plugin file. Returns 1 if it provided back ends. */
static int load_plugin(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *err = dlerror();
        snprintf(g_plugin_note, sizeof g_plugin_note, "plugin %s failed to load: %s", path,
                 err ? err : "unknown error");
        return 0;
    }
    gcut_plugin_entry_fn entry_fn;
    *(void **)&entry_fn = dlsym(h, GCUT_PLUGIN_ENTRY_SYMBOL);
    const gcut_backend *const *list = NULL;
    int32_t count = 0;
    if (!entry_fn || entry_fn(gcut_i_host_api(), &list, &count) != GCUT_OK || !list) {
        snprintf(g_plugin_note, sizeof g_plugin_note, "plugin %s: no usable %s entry point", path,
                 GCUT_PLUGIN_ENTRY_SYMBOL);
        dlclose(h);
        return 0;
    }
    int added = 0;
    for (int32_t i = 0; i < count; i++) {
        if (!list[i] || list[i]->abi_version != GCUT_BACKEND_ABI_VERSION || !list[i]->name)
            continue;
        add_entry(list[i], list[i]->name);
        added = 1;
    }
    if (!added) {
        snprintf(g_plugin_note, sizeof g_plugin_note,
                 "plugin %s: ABI version mismatch (core has %d)", path, GCUT_BACKEND_ABI_VERSION);
        dlclose(h);
    }
    /* A plugin that registered back ends stays loaded for the process; its
     * optional matchers (gcut/match.h) are collected from the same handle. */
    if (added && g_num_mrf == 0) {
        gcut_plugin_mrf_fn mrf_fn;
        *(void **)&mrf_fn = dlsym(h, GCUT_PLUGIN_MRF_SYMBOL);
        const gcut_mrf_plugin *const *ml = NULL;
        int32_t mc = 0;
        if (mrf_fn && mrf_fn(gcut_i_host_api(), &ml, &mc) == GCUT_OK && ml && mc > 0) {
            g_mrf = ml;
            g_num_mrf = mc;
        }
    }
    if (added && g_num_seg == 0) {
        gcut_plugin_seg_fn seg_fn;
        *(void **)&seg_fn = dlsym(h, GCUT_PLUGIN_SEG_SYMBOL);
        const gcut_seg_plugin *const *sl = NULL;
        int32_t sc = 0;
        if (seg_fn && seg_fn(gcut_i_host_api(), GCUT_SEG_PLUGIN_VERSION, &sl, &sc) == GCUT_OK &&
            sl && sc > 0) {
            g_seg = sl;
            g_num_seg = sc;
        }
    }
    if (added && g_num_matchers == 0) {
        gcut_plugin_matchers_fn match_fn;
        *(void **)&match_fn = dlsym(h, GCUT_PLUGIN_MATCHERS_SYMBOL);
        const gcut_plugin_matcher *const *ml = NULL;
        int32_t mc = 0;
        if (match_fn && match_fn(gcut_i_host_api(), &ml, &mc) == GCUT_OK && ml && mc > 0) {
            g_matchers = ml;
            g_num_matchers = mc;
        }
    }
    return added;
}

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

static int load_from_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int any = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *nm = de->d_name;
        size_t len = strlen(nm);
        if (strncmp(nm, "libgcut_", 8) == 0 && len > 3 && strcmp(nm + len - 3, ".so") == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, nm);
            any |= load_plugin(path);
        }
    }
    closedir(d);
    return any;
}

static void load_plugins(void)
{
    int any = 0;
    const char *env = getenv("GCUT_PLUGIN_PATH");
    if (env && *env) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", env);
        char *save = NULL;
        for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
            DIR *d = opendir(tok);
            if (d) {
                closedir(d);
                any |= load_from_dir(tok);
            } else if (file_exists(tok)) {
                any |= load_plugin(tok);
            }
        }
    }
    if (!any) {
        /* Next to libgcut (or the program, when linked statically), then a
         * lib/ folder beside the program's bin/, then the install libdir. */
        Dl_info info;
        char dir[4096] = "";
        if (dladdr((void *)&load_plugins, &info) && info.dli_fname) {
            snprintf(dir, sizeof dir, "%s", info.dli_fname);
            char *slash = strrchr(dir, '/');
            if (slash)
                *slash = '\0';
            else
                snprintf(dir, sizeof dir, ".");
        }
        const char *cands[] = {"%s/libgcut_cuda.so", "%s/../lib/libgcut_cuda.so",
                               "%s/../" GCUT_INSTALL_LIBDIR "/libgcut_cuda.so"};
        for (size_t i = 0; i < sizeof cands / sizeof cands[0] && !any; i++) {
            char path[4200];
            snprintf(path, sizeof path, cands[i], dir);
            if (file_exists(path))
                any |= load_plugin(path);
        }
    }
    for (int i = 0; plugin_names[i]; i++)
        add_entry(NULL, plugin_names[i]);
}

static void builtin_init(void)
{
    for (int i = 0; cpu_backends[i]; i++)
        add_entry(cpu_backends[i], cpu_backends[i]->name);
    g_builtin = g_count;
}

static void ensure_builtin(void) { pthread_once(&g_builtin_once, builtin_init); }

/* Entries are only ever appended (a static array), so readers of the
 * built-in ones need not wait for the plugins. */
static void registry_init(void)
{
    ensure_builtin();
    load_plugins();
}

static void ensure_init(void) { pthread_once(&g_once, registry_init); }

/* What entry i needs: the built-in ones are there without the plugins.
 * The accessors test i < g_builtin before i < g_count, so that a reader of
 * a built-in entry never reads g_count while a plugin load appends. */
static void ensure_for(int32_t i)
{
    ensure_builtin();
    if (i < 0 || i >= g_builtin)
        ensure_init();
}

const gcut_mrf_plugin *gcut_i_plugin_mrf(const char *backend)
{
    if (!backend)
        return NULL;
    ensure_init();
    for (int32_t i = 0; i < g_num_mrf; i++)
        if (g_mrf[i] && g_mrf[i]->abi_version == GCUT_BACKEND_ABI_VERSION && g_mrf[i]->expand &&
            g_mrf[i]->backend && strcmp(g_mrf[i]->backend, backend) == 0) {
            int32_t idx;
            if (gcut_backend_find(backend, &idx) != GCUT_OK || !gcut_backend_available(idx, NULL))
                return NULL;
            return g_mrf[i];
        }
    return NULL;
}

const gcut_seg_plugin *gcut_i_plugin_seg(const char *backend)
{
    if (!backend)
        return NULL;
    ensure_init();
    for (int32_t i = 0; i < g_num_seg; i++) {
        const gcut_seg_plugin *sp = g_seg[i];
        if (!sp || sp->abi_version != GCUT_BACKEND_ABI_VERSION ||
            sp->version != GCUT_SEG_PLUGIN_VERSION || !sp->backend ||
            strcmp(sp->backend, backend) != 0 || !sp->create || !sp->destroy ||
            !sp->smoothness || !sp->set_bytes || !sp->gmm_pass || !sp->data || !sp->worst ||
            !sp->links || !sp->terminals || !sp->stats)
            continue;
        int32_t idx;
        if (gcut_backend_find(backend, &idx) != GCUT_OK) {
            gcut_clear_error();
            return NULL;
        }
        return gcut_backend_available(idx, NULL) ? sp : NULL;
    }
    return NULL;
}

typedef struct warm {
    pthread_t thread;
    int32_t index;
} warm;

static void *warm_main(void *arg)
{
    warm *w = arg;
    (void)gcut_backend_available(w->index, NULL);
    return NULL;
}

void *gcut_i_backend_warm_start(const char *name)
{
    int32_t index;
    if (!name || strcmp(name, "auto") == 0)
        return NULL;
    if (gcut_backend_find(name, &index) != GCUT_OK) {
        gcut_clear_error(); /* the solve reports it */
        return NULL;
    }
    warm *w = malloc(sizeof *w);
    if (!w)
        return NULL;
    w->index = index;
    if (pthread_create(&w->thread, NULL, warm_main, w) != 0) {
        free(w);
        return NULL;
    }
    return w;
}

void gcut_i_backend_warm_join(void *handle)
{
    warm *w = handle;
    if (!w)
        return;
    pthread_join(w->thread, NULL);
    free(w);
}

void gcut_i_plugin_matchers(const gcut_plugin_matcher *const **list, int32_t *count)
{
    ensure_init();
    *list = g_matchers;
    *count = g_num_matchers;
}

static void probe_entry(entry *e)
{
    pthread_mutex_lock(&g_probe_lock);
    if (!e->probed) {
        if (!e->be) {
            snprintf(e->reason, sizeof e->reason, "%s", g_plugin_note);
            e->available = 0;
        } else if (!e->be->probe) {
            snprintf(e->reason, sizeof e->reason, "ok");
            e->available = 1;
        } else {
            const char *why = NULL;
            e->available = e->be->probe(&why) == GCUT_OK;
            snprintf(e->reason, sizeof e->reason, "%s",
                     why ? why : (e->available ? "ok" : "unavailable"));
        }
        e->probed = 1;
    }
    pthread_mutex_unlock(&g_probe_lock);
}

int32_t gcut_backend_count(void)
{
    ensure_init();
    return g_count;
}

const char *gcut_backend_name(int32_t i)
{
    ensure_for(i);
    return i >= 0 && (i < g_builtin || i < g_count) ? g_entries[i].name : NULL;
}

const char *gcut_backend_description(int32_t i)
{
    ensure_for(i);
    if (i < 0 || (i >= g_builtin && i >= g_count))
        return NULL;
    return g_entries[i].be ? g_entries[i].be->description : "GPU back end (plugin not loaded)";
}

uint32_t gcut_backend_caps(int32_t i)
{
    ensure_for(i);
    if (i < 0 || (i >= g_builtin && i >= g_count) || !g_entries[i].be)
        return i >= 0 && (i < g_builtin || i < g_count) ? GCUT_BACKEND_GPU : 0;
    return g_entries[i].be->caps;
}

int gcut_backend_available(int32_t i, const char **reason)
{
    ensure_for(i);
    if (i < 0 || (i >= g_builtin && i >= g_count)) {
        if (reason)
            *reason = "no such back end";
        return 0;
    }
    probe_entry(&g_entries[i]);
    if (reason)
        *reason = g_entries[i].reason;
    return g_entries[i].available;
}

gcut_status gcut_backend_find(const char *name, int32_t *index)
{
    if (!name || !index)
        return GCUT_FAIL(GCUT_ERR_INVALID, "name and index must not be NULL");
    ensure_builtin();
    for (int32_t i = 0; i < g_builtin; i++)
        if (strcmp(g_entries[i].name, name) == 0) {
            *index = i;
            return GCUT_OK;
        }
    ensure_init();
    for (int32_t i = g_builtin; i < g_count; i++) /* the plugins' */
        if (strcmp(g_entries[i].name, name) == 0) {
            *index = i;
            return GCUT_OK;
        }
    char known[512] = "";
    for (int32_t i = 0; i < g_count; i++) {
        strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
        strncat(known, g_entries[i].name, sizeof known - strlen(known) - 1);
    }
    return GCUT_FAIL(GCUT_ERR_NOT_FOUND, "no back end called '%s' (known: %s, auto)", name, known);
}

int32_t gcut_i_backend_builtin_count(void)
{
    ensure_builtin();
    return g_builtin;
}

const gcut_backend *gcut_i_backend_builtin(int32_t i)
{
    ensure_builtin();
    if (i < 0 || i >= g_builtin)
        return NULL;
    probe_entry(&g_entries[i]);
    return g_entries[i].available ? g_entries[i].be : NULL;
}

const gcut_backend *gcut_i_backend_table(int32_t i)
{
    ensure_for(i);
    return i >= 0 && (i < g_builtin || i < g_count) ? g_entries[i].be : NULL;
}

/* The automatic choice. The thresholds come from bench/results (see
 * docs/backends.md): a GPU pays off once a graph has about a million arcs;
 * on the CPU, BK wins on vision-like graphs (most nodes carry a terminal
 * link, low degree) and highest-label push-relabel elsewhere. */
static int32_t find_available(const char *name)
{
    int32_t i;
    if (gcut_backend_find(name, &i) != GCUT_OK) {
        gcut_clear_error();
        return -1;
    }
    return gcut_backend_available(i, NULL) ? i : -1;
}

static _Thread_local char tl_reason[REASON_MAX];

gcut_status gcut_backend_choose(const gcut_graph *g, const char *name, int32_t *index,
                                const char **reason)
{
    ensure_init();
    if (!index)
        return GCUT_FAIL(GCUT_ERR_INVALID, "index is NULL");
    if (!name || !*name || strcmp(name, "auto") == 0) {
        const char *env = getenv("GCUT_BACKEND");
        if (env && *env && strcmp(env, "auto") != 0) {
            gcut_status st = gcut_backend_choose(g, env, index, NULL);
            if (st != GCUT_OK)
                return st;
            snprintf(tl_reason, sizeof tl_reason, "named by $GCUT_BACKEND");
            if (reason)
                *reason = tl_reason;
            return GCUT_OK;
        }
    } else {
        int32_t i;
        gcut_status st = gcut_backend_find(name, &i);
        if (st != GCUT_OK)
            return st;
        const char *why;
        if (!gcut_backend_available(i, &why))
            return GCUT_FAIL(GCUT_ERR_UNAVAILABLE, "back end '%s' is unavailable: %s", name, why);
        *index = i;
        if (reason)
            *reason = "named by the caller";
        return GCUT_OK;
    }
    const int32_t n = g ? g->n : 0;
    const int64_t m = g ? g->m : 0;
    int64_t terminals = 0;
    for (int32_t v = 0; v < n; v++)
        terminals += (g->cap_source[v] | g->cap_sink[v]) != 0;
    int32_t pick = -1;
    if (m >= 1000000 && (pick = find_available("cuda-csr")) >= 0) {
        snprintf(tl_reason, sizeof tl_reason,
                 "auto: cuda-csr (a GPU is present and the graph is large: %lld edges)",
                 (long long)m);
    } else if (n > 0 && terminals * 4 >= n && m <= 8 * (int64_t)n &&
               (pick = find_available("cpu-bk")) >= 0) {
        snprintf(tl_reason, sizeof tl_reason,
                 "auto: cpu-bk (vision-like graph: %lld of %d nodes have terminal links, "
                 "%.1f edges per node)",
                 (long long)terminals, (int)n, n ? (double)m / n : 0.0);
    } else if ((pick = find_available("cpu-hipr")) >= 0) {
        snprintf(tl_reason, sizeof tl_reason,
                 "auto: cpu-hipr (general graph: %d nodes, %lld edges, %lld with terminal links)",
                 (int)n, (long long)m, (long long)terminals);
    } else {
        for (int32_t i = 0; i < g_count && pick < 0; i++)
            if (g_entries[i].be && (g_entries[i].be->caps & GCUT_BACKEND_GRAPH) &&
                gcut_backend_available(i, NULL))
                pick = i;
        if (pick < 0)
            return GCUT_FAIL(GCUT_ERR_UNAVAILABLE, "no back end is available");
        snprintf(tl_reason, sizeof tl_reason, "auto: %s (the first available)",
                 g_entries[pick].name);
    }
    *index = pick;
    if (reason)
        *reason = tl_reason;
    return GCUT_OK;
}
