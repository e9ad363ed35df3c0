/*
 * error.c - per-thread last error, allocator hooks, log sink, clocks.
 *
 * The only global state of libgcut besides the back-end registry: the
 * allocator (set once, before first use) and the global log sink.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/sysinfo.h>
#endif

#include "core/core_internal.h"

#define GCUT_I_MSG_MAX 1024

static _Thread_local gcut_status tl_status = GCUT_OK;
static _Thread_local char tl_message[GCUT_I_MSG_MAX];
static _Thread_local const char *tl_entry; /* see GCUT_ENTRY */

static void *(*g_malloc)(size_t) = malloc;
static void *(*g_realloc)(void *, size_t) = realloc;
static void (*g_free)(void *) = free;
/* Set at the first allocation: the allocator is then fixed. Atomic because
 * engines allocate from several threads at once. */
static atomic_int g_allocated;

static gcut_log_fn g_log_fn;
static void *g_log_user;

const char *gcut_status_string(gcut_status status)
{
    switch (status) {
    case GCUT_OK: return "ok";
    case GCUT_ERR_NOMEM: return "out of memory";
    case GCUT_ERR_INVALID: return "invalid argument";
    case GCUT_ERR_PARSE: return "parse error";
    case GCUT_ERR_IO: return "I/O error";
    case GCUT_ERR_OVERFLOW: return "overflow";
    case GCUT_ERR_UNAVAILABLE: return "back end unavailable";
    case GCUT_ERR_NOT_FOUND: return "not found";
    case GCUT_ERR_STATE: return "invalid state";
    case GCUT_ERR_TIMEOUT: return "time limit reached";
    case GCUT_ERR_INTERRUPTED: return "interrupted";
    case GCUT_ERR_DEVICE: return "device error";
    case GCUT_ERR_DEVICE_NOMEM: return "out of device memory";
    case GCUT_ERR_UNSUPPORTED: return "unsupported";
    case GCUT_ERR_CHECK: return "check failed";
    case GCUT_ERR_INTERNAL: return "internal error";
    }
    return "unknown status";
}

const char *gcut_last_error(void) { return tl_message; }

gcut_status gcut_last_status(void) { return tl_status; }

void gcut_clear_error(void)
{
    tl_status = GCUT_OK;
    tl_message[0] = '\0';
}

const char *gcut_i_enter(const char *name)
{
    const char *prev = tl_entry;
    if (!prev)
        tl_entry = name;
    return prev;
}

void gcut_i_leave(const char **prev) { tl_entry = *prev; }

gcut_status gcut_i_vfail(gcut_status status, const char *where, const char *fmt, va_list ap)
{
    int len;
    if (tl_entry && where && where != tl_entry && strchr(where, '-'))
        /* a back end's name (no function has a '-'): keep it after the entry */
        len = snprintf(tl_message, sizeof tl_message, "%s: %s: ", tl_entry, where);
    else
        len = snprintf(tl_message, sizeof tl_message, "%s: ",
                       tl_entry ? tl_entry
                       : where  ? where
                                : "gcut");
    if (len < 0 || len >= (int)sizeof tl_message)
        len = 0;
    vsnprintf(tl_message + len, sizeof tl_message - (size_t)len, fmt, ap);
    tl_status = status;
    return status;
}

gcut_status gcut_i_fail(gcut_status status, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gcut_i_vfail(status, where, fmt, ap);
    va_end(ap);
    return status;
}

gcut_status gcut_set_allocator(void *(*malloc_fn)(size_t), void *(*realloc_fn)(void *, size_t),
                               void (*free_fn)(void *))
{
    if (!malloc_fn || !realloc_fn || !free_fn)
        return GCUT_FAIL(GCUT_ERR_INVALID, "all three allocator functions must be given");
    if (atomic_load_explicit(&g_allocated, memory_order_relaxed))
        return GCUT_FAIL(GCUT_ERR_STATE, "the allocator must be set before gcut allocates");
    g_malloc = malloc_fn;
    g_realloc = realloc_fn;
    g_free = free_fn;
    return GCUT_OK;
}

void *gcut_i_malloc(size_t size)
{
    atomic_store_explicit(&g_allocated, 1, memory_order_relaxed);
    return g_malloc(size ? size : 1);
}

void *gcut_i_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = gcut_i_malloc(count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void *gcut_i_realloc(void *ptr, size_t size)
{
    atomic_store_explicit(&g_allocated, 1, memory_order_relaxed);
    return g_realloc(ptr, size ? size : 1);
}

void *gcut_i_malloc_array(int64_t count, size_t size)
{
    if (count < 0 || (size && (uint64_t)count > SIZE_MAX / size))
        return NULL;
    return gcut_i_malloc((size_t)count * size);
}

/* Memory and swap of the machine in bytes (0: unknown), read once. */
static uint64_t machine_bytes(void)
{
    static _Atomic uint64_t cached = UINT64_MAX;
    uint64_t v = atomic_load_explicit(&cached, memory_order_relaxed);
    if (v != UINT64_MAX)
        return v;
    v = 0;
#ifdef __linux__
    struct sysinfo si;
    if (sysinfo(&si) == 0)
        v = ((uint64_t)si.totalram + (uint64_t)si.totalswap) * (uint64_t)si.mem_unit;
#endif
    atomic_store_explicit(&cached, v, memory_order_relaxed);
    return v;
}

gcut_status gcut_i_alloc_array(void **ptr, int64_t count, size_t size, const char *where,
                               const char *fmt, ...)
{
    const uint64_t limit = machine_bytes();
    void *p = NULL;
    int fits = count >= 0 && (!size || (uint64_t)count <= SIZE_MAX / size);
    if (fits && (limit == 0 || (uint64_t)count * size <= limit))
        p = gcut_i_realloc(*ptr, (size_t)count * size);
    if (p) {
        *ptr = p;
        return GCUT_OK;
    }
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    /* In double: count * size may not fit in 64 bits. */
    double bytes = (double)count * (double)size;
    static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int k = 0;
    while (bytes >= 1024.0 && k < 6) {
        bytes /= 1024.0;
        k++;
    }
    if (k == 0)
        return gcut_i_fail(GCUT_ERR_NOMEM, where, "cannot allocate %.0f bytes for %s", bytes, what);
    return gcut_i_fail(GCUT_ERR_NOMEM, where, "cannot allocate %.1f %s for %s", bytes, unit[k],
                       what);
}

void gcut_i_free(void *ptr)
{
    if (ptr)
        g_free(ptr);
}

static _Atomic size_t g_max_memory;

void gcut_set_max_memory(size_t bytes)
{
    atomic_store_explicit(&g_max_memory, bytes, memory_order_relaxed);
}

size_t gcut_max_memory(void)
{
    return atomic_load_explicit(&g_max_memory, memory_order_relaxed);
}

void gcut_set_log_callback(gcut_log_fn fn, void *user)
{
    g_log_fn = fn;
    g_log_user = user;
}

void gcut_i_log(const gcut_solve_options *opt, gcut_log_level level, const char *fmt, ...)
{
    gcut_log_fn fn = g_log_fn;
    void *user = g_log_user;
    int verbosity = 1;
    if (opt) {
        verbosity = opt->verbosity;
        if (opt->log) {
            fn = opt->log;
            user = opt->log_user;
        }
    }
    if (!fn || (level != GCUT_LOG_ERROR && (int)level > verbosity))
        return;
    char line[GCUT_I_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* The callback may call gcut itself: its failures name what it calls. */
    const char *entry = tl_entry;
    tl_entry = NULL;
    fn(user, level, line);
    tl_entry = entry;
}

double gcut_i_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

double gcut_i_deadline(const gcut_solve_options *opt)
{
    if (!opt || !(opt->time_limit > 0))
        return 1e300;
    return gcut_i_now_ms() + opt->time_limit * 1e3;
}

int32_t gcut_i_num_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > 4096 ? 4096 : (int32_t)n);
}

/* Plugins get these through gcut_host_api so they need not link libgcut. */
static void host_log(const gcut_solve_options *opt, gcut_log_level level, const char *fmt, ...)
{
    char line[GCUT_I_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    gcut_i_log(opt, level, "%s", line);
}

static gcut_status host_fail(gcut_status status, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gcut_i_vfail(status, where, fmt, ap);
    va_end(ap);
    return status;
}

/* The services of the core handed to plugins; the settings parser is the
 * one the CPU back ends use (params.c), so every back end accepts the same
 * syntax and rejects mistakes with the same messages. */
static const gcut_host_api host_api = {
    GCUT_PLUGIN_ABI_VERSION, host_fail,           host_log,          gcut_i_now_ms,
    gcut_i_malloc,           gcut_i_free,         gcut_i_param_next, gcut_i_param_int,
    gcut_i_param_double,     gcut_i_param_unknown,
};

const gcut_host_api *gcut_i_host_api(void) { return &host_api; }
