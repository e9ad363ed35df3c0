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
static _Thread_local gcut_i_call *tl_call; /* see gcut_i_call_begin */

static void *(*g_malloc)(size_t) = malloc;
static void *(*g_realloc)(void *, size_t) = realloc;
static void (*g_free)(void *) = free;
/* Set at the first allocation: the allocator is then fixed. Atomic because
 * engines allocate from several threads at once. */
static atomic_int g_allocated;

static gcut_log_fn g_log_fn;
static _Atomic size_t g_max_memory; /* gcut_set_max_memory */
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
    gcut_i_call *c = tl_call;
    if (c && c->over_bytes > 0) {
        /* An allocation of this call passed its budget (gcut_i_malloc):
         * the engine's "cannot allocate ..." says why. */
        if (status == GCUT_ERR_NOMEM && !strstr(tl_message, "memory budget")) {
            len = (int)strlen(tl_message);
            snprintf(tl_message + len, sizeof tl_message - (size_t)len,
                     ": over the memory budget of %.1f MiB (gcut_solve_options.max_memory / "
                     "gcut_set_max_memory)",
                     (double)c->budget / 1048576.0);
        }
        c->over_bytes = 0;
    }
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

/* A fresh block of `size` bytes for the current call: within its budget? */
static int call_fits(size_t size)
{
    gcut_i_call *c = tl_call;
    if (!c) {
        const size_t budget = gcut_max_memory();
        return !budget || size <= budget;
    }
    if (!c->budget)
        return 1;
    if (size > c->budget || c->used > c->budget - size) {
        c->over_bytes = (double)size;
        return 0;
    }
    c->used += size;
    return 1;
}

void *gcut_i_malloc(size_t size)
{
    atomic_store_explicit(&g_allocated, 1, memory_order_relaxed);
    if (!call_fits(size))
        return NULL;
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
    if (!ptr && !call_fits(size))
        return NULL;
    /* A growing block: its old size is unknown here, so only a block that
     * alone passes the budget is refused. */
    const size_t budget = ptr ? gcut_i_budget() : 0;
    if (budget && size > budget) {
        if (tl_call)
            tl_call->over_bytes = (double)size;
        return NULL;
    }
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

/* "16.0 GiB", "12 bytes" */
static void format_bytes(char *out, size_t cap, double bytes)
{
    static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int k = 0;
    while (bytes >= 1024.0 && k < 6) {
        bytes /= 1024.0;
        k++;
    }
    if (k == 0)
        snprintf(out, cap, "%.0f bytes", bytes);
    else
        snprintf(out, cap, "%.1f %s", bytes, unit[k]);
}

static gcut_status vfail_alloc(double bytes, size_t budget, const char *where, const char *fmt,
                               va_list ap)
{
    char what[400], amount[64], limit[64];
    vsnprintf(what, sizeof what, fmt, ap);
    format_bytes(amount, sizeof amount, bytes);
    if (tl_call)
        tl_call->over_bytes = 0; /* the message below says it all */
    if (!budget)
        return gcut_i_fail(GCUT_ERR_NOMEM, where, "cannot allocate %s for %s", amount, what);
    format_bytes(limit, sizeof limit, (double)budget);
    return gcut_i_fail(GCUT_ERR_NOMEM, where,
                       "cannot allocate %s for %s: over the memory budget of %s "
                       "(gcut_solve_options.max_memory / gcut_set_max_memory)",
                       amount, what, limit);
}

gcut_status gcut_i_alloc_array(void **ptr, int64_t count, size_t size, const char *where,
                               const char *fmt, ...)
{
    const uint64_t limit = machine_bytes();
    const size_t budget = gcut_i_budget();
    void *p = NULL;
    int fits = count >= 0 && (!size || (uint64_t)count <= SIZE_MAX / size);
    int over = fits && budget && (uint64_t)count * size > budget;
    if (fits && !over && (limit == 0 || (uint64_t)count * size <= limit)) {
        p = gcut_i_realloc(*ptr, (size_t)count * size);
        over = !p && tl_call && tl_call->over_bytes > 0;
    }
    if (p) {
        *ptr = p;
        return GCUT_OK;
    }
    /* In double: count * size may not fit in 64 bits. */
    va_list ap;
    va_start(ap, fmt);
    gcut_status st = vfail_alloc((double)count * (double)size, over ? budget : 0, where, fmt, ap);
    va_end(ap);
    return st;
}

gcut_status gcut_i_budget_charge(size_t *used, double bytes, const char *where, const char *fmt,
                                 ...)
{
    const size_t budget = gcut_i_budget();
    const double have = used ? (double)*used : 0.0;
    if (!budget || have + bytes <= (double)budget) {
        if (used)
            *used += (size_t)bytes;
        return GCUT_OK;
    }
    va_list ap;
    va_start(ap, fmt);
    gcut_status st = vfail_alloc(bytes, budget, where, fmt, ap);
    va_end(ap);
    return st;
}

void gcut_i_free(void *ptr)
{
    if (ptr)
        g_free(ptr);
}

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

/* ------------------------------------------------------------ call contexts */

void gcut_i_call_begin(gcut_i_call *c, const char *operation, const gcut_solve_options *opt,
                       double t0)
{
    gcut_i_call *prev = tl_call;
    if (!(t0 > 0))
        t0 = gcut_i_now_ms();
    memset(c, 0, sizeof *c);
    c->prev = prev;
    c->operation = operation;
    c->t0 = t0;
    c->deadline = 1e300;
    if (opt && opt->time_limit > 0) {
        c->deadline = t0 + opt->time_limit * 1e3;
        c->limit_s = opt->time_limit;
    }
    if (prev && prev->deadline < c->deadline) {
        c->deadline = prev->deadline;
        c->limit_s = prev->limit_s;
    }
    if (opt) {
        c->fn = opt->progress;
        c->user = opt->progress_user;
        c->interval = opt->progress_interval_ms;
        c->budget = opt->max_memory;
    }
    if (!(c->interval > 0))
        c->interval = 100.0;
    c->next = t0 + c->interval;
    if (!c->budget)
        c->budget = prev ? prev->budget : gcut_max_memory();
    tl_call = c;
}

void gcut_i_call_end(gcut_i_call *c)
{
    if (tl_call == c)
        tl_call = c->prev;
}

gcut_i_call *gcut_i_call_current(void) { return tl_call; }

size_t gcut_i_budget(void) { return tl_call ? tl_call->budget : gcut_max_memory(); }

/* Call c's callback; non-zero: it asked to stop. The callback runs outside
 * the call (like a log callback): what it calls of gcut names itself and
 * starts its own contexts. */
static int report(gcut_i_call *c, double now, const char *phase, int64_t remaining,
                  const char *what)
{
    gcut_progress p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    p.operation = c->operation;
    p.phase = phase;
    p.fraction = -1.0;
    p.remaining = remaining;
    p.remaining_what = remaining >= 0 ? what : NULL;
    p.elapsed_ms = now - c->t0;
    const char *entry = tl_entry;
    gcut_i_call *cur = tl_call;
    tl_entry = NULL;
    tl_call = NULL;
    const int stop = c->fn(&p, c->user);
    tl_entry = entry;
    tl_call = cur;
    return stop;
}

gcut_status gcut_i_poll(const char *phase, int64_t remaining, const char *what)
{
    gcut_i_call *top = tl_call;
    if (!top)
        return GCUT_OK;
    if (top->stopped)
        return top->stopped; /* already recorded */
    const double now = gcut_i_now_ms();
    if (!phase)
        phase = "solve";
    const int changed = !top->phase || (top->phase != phase && strcmp(top->phase, phase) != 0);
    if (changed)
        top->phase = phase;
    gcut_status st = GCUT_OK;
    for (gcut_i_call *c = top; c && st == GCUT_OK; c = c->prev) {
        if (c->stopped)
            st = c->stopped;
        else if (c->fn && (changed || now >= c->next)) {
            c->next = now + c->interval;
            if (report(c, now, phase, remaining, what))
                st = c->stopped = GCUT_ERR_INTERRUPTED;
        }
    }
    if (st == GCUT_OK && now > top->deadline)
        st = GCUT_ERR_TIMEOUT;
    if (st == GCUT_OK)
        return GCUT_OK;
    top->stopped = st;
    if (st == GCUT_ERR_TIMEOUT)
        return gcut_i_fail(st, "gcut_i_poll", "time limit of %g s reached (%s, after %.0f ms)",
                           top->limit_s, phase, now - top->t0);
    return gcut_i_fail(st, "gcut_i_poll",
                       "interrupted by the progress callback (%s, after %.0f ms)", phase,
                       now - top->t0);
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

static gcut_status host_poll(const gcut_solve_options *opt, const char *phase, int64_t remaining,
                             const char *remaining_what)
{
    (void)opt; /* the call's context is this thread's (gcut_i_call_begin) */
    return gcut_i_poll(phase, remaining, remaining_what);
}

/* The services of the core handed to plugins; the settings parser is the
 * one the CPU back ends use (params.c), so every back end accepts the same
 * syntax and rejects mistakes with the same messages. */
static const gcut_host_api host_api = {
    GCUT_PLUGIN_ABI_VERSION, host_fail,        host_log,
    gcut_i_now_ms,           gcut_i_malloc,    gcut_i_free,
    gcut_i_param_next,       gcut_i_param_int, gcut_i_param_double,
    gcut_i_param_unknown,    host_poll,
};

const gcut_host_api *gcut_i_host_api(void) { return &host_api; }
