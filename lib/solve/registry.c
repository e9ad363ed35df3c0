/*
 * registry.c - the back-end registry (docs/design.md section 3).
 *
 * One table, k_known, lists every back end gcut knows: the CPU engines
 * compiled into libgcut and the ones a plugin is expected to provide, with
 * the capabilities of the latter (for their stand-ins when the plugin is
 * missing) and the automatic choice's preferences (the GCUT_BACKEND_AUTO_*
 * bits, added to the engine's own capabilities). Adding an engine means
 * adding its row.
 *
 * The registry's entries are the built-in engines (registered without
 * loading anything), then the back ends of the plugins (plugin.c loads them
 * the first time an entry past the built-in ones is asked for), then a
 * stand-in for every expected back end that no plugin provided, listed as
 * unavailable with the reason. Entries are only ever appended, so readers
 * of the built-in ones need not wait for the plugins. Probes run lazily,
 * once per back end, under a lock.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/solvers_internal.h"
#include "solve/solve_internal.h"

#define MAX_BACKENDS 32
#define MAX_EXTENSIONS 16
#define REASON_MAX 384

typedef struct known_backend {
    const char *name;
    const gcut_backend *builtin; /* NULL: a plugin's */
    uint32_t caps;               /* of the stand-in (plugin back ends) */
    uint32_t auto_bits;          /* GCUT_BACKEND_AUTO_*: the automatic choice's preferences */
    const char *description;     /* of the stand-in */
} known_backend;

/* Every back end gcut knows, built-in ones first, in the order the
 * automatic choice tries them. */
static const known_backend k_known[] = {
    {"cpu-bk", &gcut_i_backend_bk, 0, GCUT_BACKEND_AUTO_VISION, NULL},
    {"cpu-hipr", &gcut_i_backend_hipr, 0, GCUT_BACKEND_AUTO_GENERAL, NULL},
    {"cpu-prsn", &gcut_i_backend_prsn, 0, 0, NULL},
    {"cpu-grid-pr", &gcut_i_backend_grid_pr, 0, 0, NULL},
    {"cpu-hpf", &gcut_i_backend_hpf, 0, GCUT_BACKEND_AUTO_DENSE, NULL},
    {"cpu-eibfs", &gcut_i_backend_eibfs, 0, GCUT_BACKEND_AUTO_HUBS, NULL},
    {"cpu-ref", &gcut_i_backend_ref, 0, 0, NULL},
    {"cuda-csr", NULL,
     GCUT_BACKEND_GRAPH | GCUT_BACKEND_FLOWS | GCUT_BACKEND_GPU | GCUT_BACKEND_NEEDS_RCSR |
         GCUT_BACKEND_LAYS_OUT,
     GCUT_BACKEND_AUTO_LARGE, "GPU push-relabel on CSR graphs (plugin libgcut_cuda.so)"},
    {"cuda-grid", NULL, GCUT_BACKEND_GRID | GCUT_BACKEND_GPU, 0,
     "GPU push-relabel on grids (plugin libgcut_cuda.so)"},
};
#define NUM_KNOWN ((int32_t)(sizeof k_known / sizeof k_known[0]))

typedef struct entry {
    const gcut_backend *be; /* NULL for a stand-in of a missing plugin back end */
    const char *name;
    const char *description;
    uint32_t caps;
    int probed;
    int available;
    char reason[REASON_MAX];
} entry;

static entry g_entries[MAX_BACKENDS];
static int32_t g_count;
static int32_t g_builtin; /* the first g_builtin entries are the built-in engines */
static pthread_once_t g_builtin_once = PTHREAD_ONCE_INIT;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t g_probe_lock = PTHREAD_MUTEX_INITIALIZER;
static char g_plugin_note[REASON_MAX] = "plugin libgcut_cuda.so not found";
static const gcut_plugin_matcher *const *g_matchers; /* of the first plugin that has some */
static int32_t g_num_matchers;
static gcut_plugin_extension g_ext[MAX_EXTENSIONS];
static int32_t g_num_ext;

static const known_backend *known(const char *name)
{
    for (int32_t i = 0; i < NUM_KNOWN; i++)
        if (strcmp(k_known[i].name, name) == 0)
            return &k_known[i];
    return NULL;
}

/* Append an entry (a loaded back end replaces its stand-in). */
static void add_entry(const gcut_backend *be, const known_backend *k, const char *name)
{
    if (g_count >= MAX_BACKENDS)
        return;
    for (int32_t i = 0; i < g_count; i++)
        if (strcmp(g_entries[i].name, name) == 0)
            return;
    entry *e = &g_entries[g_count];
    e->be = be;
    e->name = name;
    e->description = be ? be->description : k->description;
    e->caps = (be ? be->caps : k->caps) | (k ? k->auto_bits : 0);
    g_count++;
}

void gcut_i_registry_add(const gcut_backend *be)
{
    add_entry(be, known(be->name), be->name);
}

void gcut_i_registry_note(const char *note)
{
    snprintf(g_plugin_note, sizeof g_plugin_note, "%s", note);
}

void gcut_i_registry_add_matchers(const gcut_plugin_matcher *const *list, int32_t count)
{
    if (g_num_matchers == 0 && list && count > 0) {
        g_matchers = list;
        g_num_matchers = count;
    }
}

void gcut_i_registry_add_extensions(const gcut_plugin_extension *list, int32_t count)
{
    for (int32_t i = 0; list && i < count && g_num_ext < MAX_EXTENSIONS; i++)
        if (list[i].name && list[i].table)
            g_ext[g_num_ext++] = list[i];
}

static void builtin_init(void)
{
    for (int32_t i = 0; i < NUM_KNOWN; i++)
        if (k_known[i].builtin)
            add_entry(k_known[i].builtin, &k_known[i], k_known[i].name);
    g_builtin = g_count;
}

static void ensure_builtin(void) { pthread_once(&g_builtin_once, builtin_init); }

static void registry_init(void)
{
    ensure_builtin();
    gcut_i_plugins_load();
    for (int32_t i = 0; i < NUM_KNOWN; i++) /* stand-ins for what is missing */
        if (!k_known[i].builtin)
            add_entry(NULL, &k_known[i], k_known[i].name);
}

static void ensure_init(void) { pthread_once(&g_once, registry_init); }

/* What entry i needs: the built-in ones are there without the plugins.
 * The accessors test i < g_builtin before i < g_count, so that a reader of
 * a built-in entry never reads g_count while a plugin load appends. */
static int valid(int32_t i)
{
    ensure_builtin();
    if (i >= 0 && i < g_builtin)
        return 1;
    ensure_init();
    return i >= 0 && i < g_count;
}

const void *gcut_i_plugin_extension(const char *name, int32_t version, const char *backend)
{
    if (!name)
        return NULL;
    /* Extensions come with plugins, for their back ends: asking for one of
     * a built-in back end (the automatic grid choice, cpu-bk) needs no
     * plugin load. */
    ensure_builtin();
    for (int32_t i = 0; backend && i < g_builtin; i++)
        if (strcmp(g_entries[i].name, backend) == 0)
            return NULL;
    ensure_init();
    for (int32_t i = 0; i < g_num_ext; i++) {
        const gcut_plugin_extension *x = &g_ext[i];
        if (strcmp(x->name, name) != 0 || x->version != version)
            continue;
        if (backend && (!x->backend || strcmp(x->backend, backend) != 0))
            continue;
        if (x->backend) {
            int32_t idx;
            if (gcut_backend_find(x->backend, &idx) != GCUT_OK) {
                gcut_clear_error();
                return NULL;
            }
            if (!gcut_backend_available(idx, NULL))
                return NULL;
        }
        return x->table;
    }
    return NULL;
}

void gcut_i_plugin_matchers(const gcut_plugin_matcher *const **list, int32_t *count)
{
    ensure_init();
    *list = g_matchers;
    *count = g_num_matchers;
}

typedef struct warm {
    pthread_t thread;
    int32_t index;
} warm;

static void *warm_main(void *arg)
{
    warm *w = arg;
    if (gcut_backend_available(w->index, NULL) &&
        (gcut_backend_caps(w->index) & GCUT_BACKEND_GPU))
        gcut_i_note_device_used();
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

const char *gcut_backend_name(int32_t i) { return valid(i) ? g_entries[i].name : NULL; }

const char *gcut_backend_description(int32_t i)
{
    return valid(i) ? g_entries[i].description : NULL;
}

uint32_t gcut_backend_caps(int32_t i) { return valid(i) ? g_entries[i].caps : 0; }

int gcut_backend_available(int32_t i, const char **reason)
{
    if (!valid(i)) {
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
    GCUT_ENTRY();
    if (!name || !index)
        return GCUT_FAIL(GCUT_ERR_INVALID, "name and index must not be NULL");
    ensure_builtin();
    for (int32_t i = 0; i < g_builtin; i++)
        if (strcmp(g_entries[i].name, name) == 0) {
            *index = i;
            return GCUT_OK;
        }
    ensure_init();
    for (int32_t i = g_builtin; i < g_count; i++) /* the plugins' and their stand-ins */
        if (strcmp(g_entries[i].name, name) == 0) {
            *index = i;
            return GCUT_OK;
        }
    char known_names[512] = "";
    for (int32_t i = 0; i < g_count; i++) {
        strncat(known_names, i ? ", " : "", sizeof known_names - strlen(known_names) - 1);
        strncat(known_names, g_entries[i].name, sizeof known_names - strlen(known_names) - 1);
    }
    return GCUT_FAIL(GCUT_ERR_NOT_FOUND, "no back end called '%s' (known: %s, auto)", name,
                     known_names);
}

int32_t gcut_i_backend_builtin_count(void)
{
    ensure_builtin();
    return g_builtin;
}

const gcut_backend *gcut_i_backend_table(int32_t i) { return valid(i) ? g_entries[i].be : NULL; }
