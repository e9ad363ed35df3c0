/*
 * python/gcut/_gcut.c - the CPython extension under the gcut package.
 *
 * A thin layer over libgcut's C API (docs/python.md says why the CPython C
 * API and not ctypes or cffi). It takes arrays through the buffer protocol
 * only: the Python layer (python/gcut/__init__.py) validates dtypes and
 * shapes with numpy and hands over C-contiguous int32 buffers, which are
 * read here in place (no copy). Results export their cut through the buffer
 * protocol, so numpy views of a cut cost nothing and keep the result alive.
 *
 * Threads: every solve runs with the GIL released. A grid that a thread is
 * solving is marked busy (under the GIL); any other use of it from another
 * thread meanwhile raises RuntimeError instead of racing (the C library
 * leaves that serialisation to its caller: grid.h). Graphs are immutable
 * once built, and the library solves one unchanged graph from several
 * threads at once.
 * gcut_last_error() is thread-local and read on the thread that failed.
 */
#define PY_SSIZE_T_CLEAN
/* the multi-view API (gcut/vision/mvs.h) is experimental: so are its Python
 * entry points (gcut.multi_baseline, gcut.plane_sweep; docs/python.md) */
#define GCUT_ALLOW_EXPERIMENTAL 1
#include <Python.h>

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "gcut/gcut.h"
#ifdef GCUT_PY_HAVE_VISION
#include "gcut/vision/image.h"
#include "gcut/vision/mrf.h"
#include "gcut/vision/mvs.h"
#include "gcut/vision/segment.h"
#include "gcut/vision/stereo.h"
#endif

/* ------------------------------------------------------------------ errors */

/* The exception class of every gcut_status, registered by the Python layer
 * (_register_errors): index = status code. */
static PyObject *error_classes = NULL;

/* Raise the exception of \p st with gcut_last_error()'s message (or \p what). */
static PyObject *raise_status(gcut_status st, const char *what)
{
    const char *msg = gcut_last_error();
    if (msg == NULL || msg[0] == '\0')
        msg = what ? what : gcut_status_string(st);
    PyObject *cls = NULL;
    const int code = (int)st;
    if (error_classes && PyTuple_Check(error_classes) && code >= 0 &&
        code < PyTuple_GET_SIZE(error_classes))
        cls = PyTuple_GET_ITEM(error_classes, code);
    if (cls == NULL || cls == Py_None)
        cls = PyExc_RuntimeError;
    /* one argument, the message: the classes that are also OSError would read
     * two as (errno, strerror); the status is a class attribute */
    PyObject *text = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
    if (text == NULL)
        return NULL;
    PyObject *exc = PyObject_CallOneArg(cls, text);
    Py_DECREF(text);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

static PyObject *py_register_errors(PyObject *self, PyObject *arg)
{
    if (!PyTuple_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "_register_errors expects a tuple of classes");
        return NULL;
    }
    Py_INCREF(arg);
    Py_XSETREF(error_classes, arg);
    Py_RETURN_NONE;
}

/* ----------------------------------------------------------------- buffers */

/* A read-only 4-byte buffer of exactly \p count entries (count < 0: any),
 * C-contiguous, of numpy type \p kind: "int32" (format i or l) or
 * "float32" (format f). None gives an empty view (buf NULL) when
 * \p optional. */
static int get_buf(PyObject *obj, Py_buffer *view, Py_ssize_t count, const char *name,
                   int optional, const char *kind)
{
    memset(view, 0, sizeof(*view));
    if (obj == Py_None) {
        if (optional)
            return 0;
        PyErr_Format(PyExc_TypeError, "%s: a%s %s array is required, not None", name,
                     kind[0] == 'i' ? "n" : "", kind);
        return -1;
    }
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (f[0] == '=' || f[0] == '<' || f[0] == '@')
        f++;
    const int ok = kind[0] == 'i' ? strcmp(f, "i") == 0 || strcmp(f, "l") == 0
                                  : strcmp(f, "f") == 0;
    if (view->itemsize != 4 || !ok) {
        PyErr_Format(PyExc_TypeError, "%s: expected a C-contiguous %s buffer, got format '%s'",
                     name, kind, view->format ? view->format : "B");
        PyBuffer_Release(view);
        return -1;
    }
    if (count >= 0 && view->len / 4 != count) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd entries, got %zd", name, count,
                     view->len / 4);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int get_i32(PyObject *obj, Py_buffer *view, Py_ssize_t count, const char *name, int optional)
{
    return get_buf(obj, view, count, name, optional, "int32");
}

static void release(Py_buffer *view)
{
    if (view->obj)
        PyBuffer_Release(view);
}

#ifdef GCUT_PY_HAVE_F32
static int get_f32(PyObject *obj, Py_buffer *view, Py_ssize_t count, const char *name, int optional)
{
    return get_buf(obj, view, count, name, optional, "float32");
}

static PyObject *quantization_dict(const gcut_quantization *q)
{
    return Py_BuildValue("{sdsdsdsLsd}", "scale", q->scale, "offset", q->offset, "bound", q->bound,
                         "terms", (long long)q->terms, "energy", q->energy);
}
#endif /* GCUT_PY_HAVE_F32 */

/* ------------------------------------------------------------------ Result */

/* PyObject_HEAD is a field list clang-format cannot read */
/* clang-format off */
typedef struct {
    PyObject_HEAD
    gcut_result *res;
    int64_t num_edges; /* edges of the solved graph (for the flows); 0 for grids */
} ResultObject;
/* clang-format on */

static PyTypeObject ResultType;

static void result_dealloc(ResultObject *self)
{
    gcut_result_free(self->res);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static ResultObject *result_create(void)
{
    ResultObject *r = PyObject_New(ResultObject, &ResultType);
    if (r == NULL)
        return NULL;
    r->res = NULL;
    r->num_edges = 0;
    gcut_status st = gcut_result_new(&r->res);
    if (st != GCUT_OK) {
        Py_DECREF(r);
        return (ResultObject *)raise_status(st, NULL);
    }
    return r;
}

/* The cut through the buffer protocol: read-only, num_nodes bytes. */
static int result_getbuffer(ResultObject *self, Py_buffer *view, int flags)
{
    const uint8_t *cut = gcut_result_cut(self->res);
    Py_ssize_t n = gcut_result_num_nodes(self->res);
    static uint8_t empty;
    return PyBuffer_FillInfo(view, (PyObject *)self, (void *)(cut ? cut : &empty), cut ? n : 0, 1,
                             flags);
}

static PyBufferProcs result_as_buffer = {(getbufferproc)result_getbuffer, NULL};

static PyObject *result_flow(ResultObject *self, void *c)
{
    return PyLong_FromLongLong(gcut_result_flow(self->res));
}

static PyObject *result_backend(ResultObject *self, void *c)
{
    const char *s = gcut_result_backend(self->res);
    return PyUnicode_FromString(s ? s : "");
}

static PyObject *result_reason(ResultObject *self, void *c)
{
    const char *s = gcut_result_reason(self->res);
    return PyUnicode_FromString(s ? s : "");
}

static PyObject *result_num_nodes(ResultObject *self, void *c)
{
    return PyLong_FromLong(gcut_result_num_nodes(self->res));
}

static PyObject *result_stats(ResultObject *self, void *c)
{
    const gcut_stats *s = gcut_result_stats(self->res);
    if (s == NULL)
        return PyDict_New();
    return Py_BuildValue("{sdsdsdsdsdsdsdsLsLsLsLsLsLsisO}", "build_ms", s->build_ms, "init_ms",
                         s->init_ms, "solve_ms", s->solve_ms, "flow_ms", s->flow_ms, "cut_ms",
                         s->cut_ms, "transfer_ms", s->transfer_ms, "total_ms", s->total_ms,
                         "pushes", (long long)s->pushes, "relabels", (long long)s->relabels,
                         "global_relabels", (long long)s->global_relabels, "gap_nodes",
                         (long long)s->gap_nodes, "augmentations", (long long)s->augmentations,
                         "rounds", (long long)s->rounds, "threads", (int)s->threads, "warm_start",
                         s->warm_start ? Py_True : Py_False);
}

/* Per-edge flows as bytes of int32 (a copy), or None. */
static PyObject *result_flows_bytes(ResultObject *self, void *c)
{
    const int32_t *f = gcut_result_edge_flows(self->res);
    if (f == NULL)
        Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char *)f,
                                     (Py_ssize_t)self->num_edges * (Py_ssize_t)sizeof(int32_t));
}

static PyGetSetDef result_getset[] = {
    {"flow", (getter)result_flow, NULL, "maximum flow value", NULL},
    {"backend", (getter)result_backend, NULL, "back end that solved it", NULL},
    {"reason", (getter)result_reason, NULL, "why that back end", NULL},
    {"num_nodes", (getter)result_num_nodes, NULL, "entries of the cut", NULL},
    {"stats", (getter)result_stats, NULL, "statistics of the solve (a dict)", NULL},
    {"flows_bytes", (getter)result_flows_bytes, NULL, "per-edge flows (int32 bytes) or None", NULL},
    {NULL}};

/* clang-format off */
static PyTypeObject ResultType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gcut._gcut.Result",
    .tp_basicsize = sizeof(ResultObject),
    .tp_dealloc = (destructor)result_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Result of one solve (low level; see gcut.Result).",
    .tp_getset = result_getset,
    .tp_as_buffer = &result_as_buffer,
};
/* clang-format on */

/* --------------------------------------------------------- solve options */

static int fill_options(gcut_solve_options *opt, const char *backend, int want_flows,
                        double time_limit, int threads)
{
    gcut_solve_options_init(opt);
    opt->backend = backend;
    opt->want_flows = want_flows;
    opt->time_limit = time_limit;
    opt->threads = threads;
    return 0;
}

/* ---------------------------------------------------------------- progress */

/* A progress callback of a solve (gcut_solve_options.progress, since 0.3):
 * the solving thread takes the GIL back, checks for signals (Ctrl-C) when
 * asked, and calls the Python callable with a dict; a true return value
 * cancels (GCUT_ERR_INTERRUPTED). An exception (KeyboardInterrupt from a
 * signal, or one the callable raised) cancels too, and is raised by the
 * call instead of gcut.InterruptedError. */
typedef struct {
    PyObject *fn;     /* the callable, or NULL: signals only */
    int signals;      /* PyErr_CheckSignals at every call */
    PyObject *exc[3]; /* the exception that cancelled the solve (type, value, traceback) */
    int64_t calls;
} progress_ctx;

static int progress_trampoline(const gcut_progress *p, void *user)
{
    progress_ctx *c = user;
    PyGILState_STATE g = PyGILState_Ensure();
    int stop = 0;
    c->calls++;
    if (c->signals && PyErr_CheckSignals() != 0)
        stop = 1;
    if (!stop && c->fn) {
        PyObject *d =
            Py_BuildValue("{szszsdsLsLsLszsd}", "operation", p->operation, "phase", p->phase,
                          "fraction", p->fraction, "step", (long long)p->step, "steps",
                          (long long)p->steps, "remaining", (long long)p->remaining,
                          "remaining_what", p->remaining_what, "elapsed_ms", p->elapsed_ms);
        PyObject *r = d ? PyObject_CallOneArg(c->fn, d) : NULL;
        Py_XDECREF(d);
        if (r == NULL)
            stop = 1;
        else {
            const int truth = PyObject_IsTrue(r);
            Py_DECREF(r);
            stop = truth != 0; /* -1 (an exception) stops too */
        }
    }
    if (stop && PyErr_Occurred() && c->exc[0] == NULL)
        PyErr_Fetch(&c->exc[0], &c->exc[1], &c->exc[2]);
    PyErr_Clear();
    PyGILState_Release(g);
    return stop;
}

/* Set up \p c and \p opt for \p fn (None: no callable) and \p signals. */
static void progress_setup(progress_ctx *c, gcut_solve_options *opt, PyObject *fn, int signals,
                           double interval_ms)
{
    memset(c, 0, sizeof *c);
    c->fn = fn == Py_None ? NULL : fn;
    c->signals = signals;
    if (c->fn || c->signals) {
        opt->progress = progress_trampoline;
        opt->progress_user = c;
        opt->progress_interval_ms = interval_ms;
    }
}

/* After a failed solve: the callback's exception if it cancelled the
 * solve, else the library's error. */
static PyObject *progress_fail(progress_ctx *c, gcut_status st)
{
    if (c->exc[0] != NULL) {
        PyErr_Restore(c->exc[0], c->exc[1], c->exc[2]);
        memset(c->exc, 0, sizeof c->exc);
        return NULL;
    }
    return raise_status(st, NULL);
}

/* After a successful solve: an exception the callback raised at its last
 * call (after which the library finished anyway) is raised all the same. */
static int progress_done(progress_ctx *c)
{
    if (c->exc[0] == NULL)
        return 0;
    PyErr_Restore(c->exc[0], c->exc[1], c->exc[2]);
    memset(c->exc, 0, sizeof c->exc);
    return -1;
}

/* ------------------------------------------------------------------- Graph */

/* A graph never changes after its construction (tp_init refuses a second
 * call), so several threads may solve it at once: the library allows
 * concurrent solves of one unchanged graph (solve.h, since 0.2). */
/* PyObject_HEAD is a field list clang-format cannot read */
/* clang-format off */
typedef struct {
    PyObject_HEAD
    gcut_graph *g;
} GraphObject;
/* clang-format on */

static PyTypeObject GraphType;

static int graph_check(GraphObject *self)
{
    if (self->g == NULL) {
        PyErr_SetString(PyExc_ValueError, "gcut: graph not initialised");
        return -1;
    }
    return 0;
}

static void graph_dealloc(GraphObject *self)
{
    gcut_graph_free(self->g);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Graph(n, src, dst, cap, rev_cap, tsrc, tsink): everything validated by
 * the library before anything is kept. */
static int graph_init(GraphObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"n", "src", "dst", "cap", "rev_cap", "tsrc", "tsink", NULL};
    long long n;
    PyObject *osrc, *odst, *ocap, *orev = Py_None, *ots = Py_None, *ott = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LOOO|OOO", kwlist, &n, &osrc, &odst, &ocap, &orev,
                                     &ots, &ott))
        return -1;
    if (self->g != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "gcut: a graph is initialised once");
        return -1;
    }
    if (n < 0 || n > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "n: %lld nodes is out of range [0, %d]", n, INT32_MAX);
        return -1;
    }
    Py_buffer src, dst, cap, rev, ts, tt;
    memset(&dst, 0, sizeof dst);
    memset(&cap, 0, sizeof cap);
    memset(&rev, 0, sizeof rev);
    memset(&ts, 0, sizeof ts);
    memset(&tt, 0, sizeof tt);
    int rc = -1;
    gcut_graph *g = NULL;
    if (get_i32(osrc, &src, -1, "src", 0) != 0)
        return -1;
    Py_ssize_t m = src.len / 4;
    if (get_i32(odst, &dst, m, "dst", 0) != 0 || get_i32(ocap, &cap, m, "cap", 0) != 0 ||
        get_i32(orev, &rev, m, "rev_cap", 1) != 0 || get_i32(ots, &ts, (Py_ssize_t)n, "tsrc", 1) ||
        get_i32(ott, &tt, (Py_ssize_t)n, "tsink", 1))
        goto done;
    gcut_status st = gcut_graph_new(&g, (int32_t)n, (int64_t)m);
    if (st == GCUT_OK && m > 0)
        st = gcut_graph_add_edges(g, (int64_t)m, src.buf, dst.buf, cap.buf, rev.buf);
    if (st == GCUT_OK && n > 0 && (ts.buf || tt.buf))
        st = gcut_graph_add_tweights_bulk(g, 0, (int32_t)n, ts.buf, tt.buf);
    if (st != GCUT_OK) {
        gcut_graph_free(g);
        raise_status(st, NULL);
        goto done;
    }
    self->g = g;
    rc = 0;
done:
    release(&src);
    release(&dst);
    release(&cap);
    release(&rev);
    release(&ts);
    release(&tt);
    return rc;
}

static PyObject *graph_solve(GraphObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"backend",  "want_flows", "time_limit",  "threads",
                             "progress", "signals",    "interval_ms", NULL};
    const char *backend = "auto";
    int want_flows = 0, threads = 0, signals = 0;
    double time_limit = 0, interval_ms = 0;
    PyObject *fn = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|zpdiOpd", kwlist, &backend, &want_flows,
                                     &time_limit, &threads, &fn, &signals, &interval_ms))
        return NULL;
    if (graph_check(self) != 0)
        return NULL;
    ResultObject *r = result_create();
    if (r == NULL)
        return NULL;
    gcut_solve_options opt;
    fill_options(&opt, backend, want_flows, time_limit, threads);
    progress_ctx pc;
    progress_setup(&pc, &opt, fn, signals, interval_ms);
    gcut_status st;
    { /* the GIL released */
        PyThreadState *save = PyEval_SaveThread();
        st = gcut_solve(self->g, &opt, r->res);
        PyEval_RestoreThread(save);
    }
    if (st != GCUT_OK) {
        Py_DECREF(r);
        return progress_fail(&pc, st);
    }
    if (progress_done(&pc) != 0) {
        Py_DECREF(r);
        return NULL;
    }
    r->num_edges = gcut_graph_num_edges(self->g);
    return (PyObject *)r;
}

/* check_flow(flow, flows=None, cut=None): raises CheckError or returns None. */
static PyObject *graph_check_flow(GraphObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"flow", "flows", "cut", NULL};
    long long flow;
    PyObject *oflows = Py_None, *ocut = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L|OO", kwlist, &flow, &oflows, &ocut))
        return NULL;
    if (graph_check(self) != 0)
        return NULL;
    Py_buffer fl, cut;
    memset(&cut, 0, sizeof cut);
    if (get_i32(oflows, &fl, (Py_ssize_t)gcut_graph_num_edges(self->g), "flows", 1) != 0)
        return NULL;
    if (ocut != Py_None) {
        if (PyObject_GetBuffer(ocut, &cut, PyBUF_C_CONTIGUOUS) != 0) {
            release(&fl);
            return NULL;
        }
        if (cut.itemsize != 1 || cut.len != gcut_graph_num_nodes(self->g)) {
            PyErr_Format(PyExc_ValueError, "cut: expected %d bytes (uint8), got %zd",
                         (int)gcut_graph_num_nodes(self->g), cut.len);
            release(&fl);
            release(&cut);
            return NULL;
        }
    }
    gcut_status st;
    { /* the GIL released */
        PyThreadState *save = PyEval_SaveThread();
        st = gcut_check_flow(self->g, (int64_t)flow, fl.buf, cut.buf);
        PyEval_RestoreThread(save);
    }
    release(&fl);
    release(&cut);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    Py_RETURN_NONE;
}

static PyObject *graph_write_dimacs(GraphObject *self, PyObject *args)
{
    PyObject *opath;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &opath))
        return NULL;
    if (graph_check(self) != 0) {
        Py_DECREF(opath);
        return NULL;
    }
    gcut_status st;
    { /* the GIL released */
        PyThreadState *save = PyEval_SaveThread();
        st = gcut_graph_write_dimacs(self->g, PyBytes_AS_STRING(opath));
        PyEval_RestoreThread(save);
    }
    Py_DECREF(opath);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    Py_RETURN_NONE;
}

/* The edges as four int32 bytes objects (src, dst, cap, rev_cap) and the
 * terminal capacities as two (tsrc, tsink). */
static PyObject *graph_arrays(GraphObject *self, PyObject *unused)
{
    if (graph_check(self) != 0)
        return NULL;
    int64_t m = gcut_graph_num_edges(self->g);
    int32_t n = gcut_graph_num_nodes(self->g);
    PyObject *b[6] = {NULL};
    Py_ssize_t sizes[6] = {m, m, m, m, n, n};
    for (int i = 0; i < 6; i++) {
        b[i] = PyBytes_FromStringAndSize(NULL, sizes[i] * 4);
        if (b[i] == NULL)
            goto fail;
    }
    int32_t *p[6];
    for (int i = 0; i < 6; i++)
        p[i] = (int32_t *)PyBytes_AS_STRING(b[i]);
    for (int64_t e = 0; e < m; e++)
        gcut_graph_get_edge(self->g, e, &p[0][e], &p[1][e], &p[2][e], &p[3][e]);
    for (int32_t v = 0; v < n; v++)
        gcut_graph_get_tweights(self->g, v, &p[4][v], &p[5][v]);
    return Py_BuildValue("(NNNNNN)", b[0], b[1], b[2], b[3], b[4], b[5]);
fail:
    for (int i = 0; i < 6; i++)
        Py_XDECREF(b[i]);
    return NULL;
}

static PyObject *graph_num_nodes(GraphObject *self, void *c)
{
    return PyLong_FromLong(self->g ? gcut_graph_num_nodes(self->g) : 0);
}

static PyObject *graph_num_edges(GraphObject *self, void *c)
{
    return PyLong_FromLongLong(self->g ? gcut_graph_num_edges(self->g) : 0);
}

#ifdef GCUT_PY_HAVE_F32
/* quantization(flow) -> dict (a graph built from floats; StateError otherwise). */
static PyObject *graph_quantization(GraphObject *self, PyObject *args)
{
    long long flow;
    if (!PyArg_ParseTuple(args, "L", &flow))
        return NULL;
    if (graph_check(self) != 0)
        return NULL;
    gcut_quantization q;
    gcut_status st = gcut_graph_quantization(self->g, (int64_t)flow, &q);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    return quantization_dict(&q);
}

/* graph_f32(n, src, dst, cap, rev_cap, tsrc, tsink, scale) -> (Graph, quantization) */
static PyObject *py_graph_f32(PyObject *mod, PyObject *args)
{
    long long n;
    double scale;
    PyObject *osrc, *odst, *ocap, *orev, *ots, *ott;
    if (!PyArg_ParseTuple(args, "LOOOOOOd", &n, &osrc, &odst, &ocap, &orev, &ots, &ott, &scale))
        return NULL;
    if (n < 0 || n > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "n: %lld nodes is out of range [0, %d]", n, INT32_MAX);
        return NULL;
    }
    Py_buffer src, dst, cap, rev, ts, tt;
    memset(&dst, 0, sizeof dst);
    memset(&cap, 0, sizeof cap);
    memset(&rev, 0, sizeof rev);
    memset(&ts, 0, sizeof ts);
    memset(&tt, 0, sizeof tt);
    PyObject *ret = NULL;
    if (get_i32(osrc, &src, -1, "src", 0) != 0)
        return NULL;
    Py_ssize_t m = src.len / 4;
    if (get_i32(odst, &dst, m, "dst", 0) != 0 || get_f32(ocap, &cap, m, "cap", 0) != 0 ||
        get_f32(orev, &rev, m, "rev_cap", 1) != 0 || get_f32(ots, &ts, (Py_ssize_t)n, "tsrc", 1) ||
        get_f32(ott, &tt, (Py_ssize_t)n, "tsink", 1))
        goto done;
    gcut_graph *g = NULL;
    gcut_quantization q;
    gcut_status st = gcut_graph_new_f32(&g, (int32_t)n, (int64_t)m, src.buf, dst.buf, cap.buf,
                                        rev.buf, ts.buf, tt.buf, scale, &q);
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        goto done;
    }
    GraphObject *go = (GraphObject *)GraphType.tp_alloc(&GraphType, 0);
    if (go == NULL) {
        gcut_graph_free(g);
        goto done;
    }
    go->g = g;
    ret = Py_BuildValue("(NN)", go, quantization_dict(&q));
done:
    release(&src);
    release(&dst);
    release(&cap);
    release(&rev);
    release(&ts);
    release(&tt);
    return ret;
}
#endif /* GCUT_PY_HAVE_F32 */

static PyMethodDef graph_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))graph_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(backend='auto', want_flows=False, time_limit=0.0, threads=0) -> Result"},
    {"check_flow", (PyCFunction)(void (*)(void))graph_check_flow, METH_VARARGS | METH_KEYWORDS,
     "check_flow(flow, flows=None, cut=None): raise CheckError if invalid"},
    {"write_dimacs", (PyCFunction)graph_write_dimacs, METH_VARARGS, "write_dimacs(path)"},
    {"arrays", (PyCFunction)graph_arrays, METH_NOARGS,
     "arrays() -> (src, dst, cap, rev_cap, tsrc, tsink) as int32 bytes"},
#ifdef GCUT_PY_HAVE_F32
    {"quantization", (PyCFunction)graph_quantization, METH_VARARGS,
     "quantization(flow) -> dict (scale, offset, bound, terms, energy)"},
#endif
    {NULL}};

static PyGetSetDef graph_getset[] = {
    {"num_nodes", (getter)graph_num_nodes, NULL, "number of nodes", NULL},
    {"num_edges", (getter)graph_num_edges, NULL, "number of edges", NULL},
    {NULL}};

/* clang-format off */
static PyTypeObject GraphType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gcut._gcut.Graph",
    .tp_basicsize = sizeof(GraphObject),
    .tp_dealloc = (destructor)graph_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A gcut_graph built from int32 arrays (low level; see gcut.Network).",
    .tp_methods = graph_methods,
    .tp_getset = graph_getset,
    .tp_init = (initproc)graph_init,
    .tp_new = PyType_GenericNew,
};
/* clang-format on */

/* read_dimacs(path) -> (Graph, source, sink, arcs, dropped) */
static PyObject *py_read_dimacs(PyObject *mod, PyObject *args)
{
    PyObject *opath;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &opath))
        return NULL;
    gcut_graph *g = NULL;
    gcut_dimacs_info info;
    gcut_status st;
    { /* the GIL released */
        PyThreadState *save = PyEval_SaveThread();
        st = gcut_graph_read_dimacs(PyBytes_AS_STRING(opath), &g, &info);
        PyEval_RestoreThread(save);
    }
    Py_DECREF(opath);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    GraphObject *go = (GraphObject *)GraphType.tp_alloc(&GraphType, 0);
    if (go == NULL) {
        gcut_graph_free(g);
        return NULL;
    }
    go->g = g;
    return Py_BuildValue("(NiiLL)", go, (int)info.source, (int)info.sink, (long long)info.arcs,
                         (long long)info.dropped);
}

/* -------------------------------------------------------------------- Grid */

/* PyObject_HEAD is a field list clang-format cannot read */
/* clang-format off */
typedef struct {
    PyObject_HEAD
    gcut_grid *g;
    int busy;
} GridObject;
/* clang-format on */

static int grid_check(GridObject *self)
{
    if (self->g == NULL) {
        PyErr_SetString(PyExc_ValueError, "gcut: grid not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "gcut: this grid is being solved by another thread; use one object "
                        "per thread or serialise the calls");
        return -1;
    }
    return 0;
}

static void grid_dealloc(GridObject *self)
{
    gcut_grid_free(self->g);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int grid_init(GridObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"width", "height", "depth", "connectivity", NULL};
    int w, h, d, c;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiii", kwlist, &w, &h, &d, &c))
        return -1;
    if (self->g != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "gcut: a grid is initialised once");
        return -1;
    }
    gcut_status st = gcut_grid_new(&self->g, w, h, d, c);
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        return -1;
    }
    return 0;
}

/* set_caps(what, caps): a direction or GCUT_GRID_SOURCE_LINK / SINK_LINK. */
static PyObject *grid_set_caps(GridObject *self, PyObject *args)
{
    int what;
    PyObject *o;
    if (!PyArg_ParseTuple(args, "iO", &what, &o))
        return NULL;
    if (grid_check(self) != 0)
        return NULL;
    Py_buffer b;
    if (get_i32(o, &b, gcut_grid_num_nodes(self->g), "caps", 0) != 0)
        return NULL;
    gcut_status st = gcut_grid_set_caps(self->g, what, b.buf);
    release(&b);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    Py_RETURN_NONE;
}

static PyObject *grid_set_terminals(GridObject *self, PyObject *args)
{
    PyObject *os, *ot;
    if (!PyArg_ParseTuple(args, "OO", &os, &ot))
        return NULL;
    if (grid_check(self) != 0)
        return NULL;
    Py_buffer s, t;
    int32_t n = gcut_grid_num_nodes(self->g);
    if (get_i32(os, &s, n, "source", 1) != 0)
        return NULL;
    if (get_i32(ot, &t, n, "sink", 1) != 0) {
        release(&s);
        return NULL;
    }
    gcut_status st = gcut_grid_set_terminal_caps(self->g, s.buf, t.buf);
    release(&s);
    release(&t);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    Py_RETURN_NONE;
}

/* set_tweights_at(nodes, source, sink): replace the terminal capacities of
 * the listed nodes. All ids and capacities are checked before any change. */
static PyObject *grid_set_tweights_at(GridObject *self, PyObject *args)
{
    PyObject *on, *os, *ot;
    if (!PyArg_ParseTuple(args, "OOO", &on, &os, &ot))
        return NULL;
    if (grid_check(self) != 0)
        return NULL;
    Py_buffer nb, sb, tb;
    if (get_i32(on, &nb, -1, "nodes", 0) != 0)
        return NULL;
    Py_ssize_t k = nb.len / 4;
    if (get_i32(os, &sb, k, "source", 0) != 0) {
        release(&nb);
        return NULL;
    }
    if (get_i32(ot, &tb, k, "sink", 0) != 0) {
        release(&nb);
        release(&sb);
        return NULL;
    }
    const int32_t *ids = nb.buf, *s = sb.buf, *t = tb.buf;
    int32_t n = gcut_grid_num_nodes(self->g);
    PyObject *ret = Py_None;
    for (Py_ssize_t i = 0; i < k; i++) {
        if (ids[i] < 0 || ids[i] >= n) {
            PyErr_Format(PyExc_IndexError, "set_tweights: node %d (entry %zd) out of range [0, %d)",
                         (int)ids[i], i, (int)n);
            ret = NULL;
            goto done;
        }
        if (s[i] < 0 || t[i] < 0) {
            PyErr_Format(PyExc_ValueError, "set_tweights: negative capacity at node %d (entry %zd)",
                         (int)ids[i], i);
            ret = NULL;
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        gcut_status st = gcut_grid_set_terminal_cap(self->g, ids[i], s[i], t[i]);
        if (st != GCUT_OK) {
            ret = raise_status(st, NULL);
            goto done;
        }
    }
    Py_INCREF(ret);
done:
    release(&nb);
    release(&sb);
    release(&tb);
    return ret;
}

static PyObject *grid_solve(GridObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"backend", "time_limit",  "threads", "progress", "signals",
                             "interval_ms", "regions", "params", NULL};
    const char *backend = "auto", *params = NULL;
    int threads = 0, signals = 0, regions = 0;
    double time_limit = 0, interval_ms = 0;
    PyObject *fn = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|zdiOpdiz", kwlist, &backend, &time_limit,
                                     &threads, &fn, &signals, &interval_ms, &regions, &params))
        return NULL;
    if (regions < 0) {
        PyErr_Format(PyExc_ValueError, "regions must be >= 0 (got %d)", regions);
        return NULL;
    }
    if (grid_check(self) != 0)
        return NULL;
    ResultObject *r = result_create();
    if (r == NULL)
        return NULL;
    gcut_solve_options opt;
    fill_options(&opt, backend, 0, time_limit, threads);
    opt.params = params;
    progress_ctx pc;
    progress_setup(&pc, &opt, fn, signals, interval_ms);
    gcut_status st;
    self->busy = 1;
    { /* the GIL released; regions > 0: as slabs (gcut_grid_solve_partitioned) */
        PyThreadState *save = PyEval_SaveThread();
        st = regions > 0 ? gcut_grid_solve_partitioned(self->g, regions, NULL, &opt, r->res)
                         : gcut_grid_solve(self->g, &opt, r->res);
        PyEval_RestoreThread(save);
    }
    self->busy = 0;
    if (st != GCUT_OK) {
        Py_DECREF(r);
        return progress_fail(&pc, st);
    }
    if (progress_done(&pc) != 0) {
        Py_DECREF(r);
        return NULL;
    }
    return (PyObject *)r;
}

static PyObject *grid_set_warm_start(GridObject *self, PyObject *args)
{
    int on;
    if (!PyArg_ParseTuple(args, "p", &on))
        return NULL;
    if (grid_check(self) != 0)
        return NULL;
    gcut_status st = gcut_grid_set_warm_start(self->g, on);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    Py_RETURN_NONE;
}

/* get_caps(what) -> int32 bytes (a copy). */
static PyObject *grid_get_caps(GridObject *self, PyObject *args)
{
    int what;
    if (!PyArg_ParseTuple(args, "i", &what))
        return NULL;
    if (grid_check(self) != 0)
        return NULL;
    const int32_t *c = gcut_grid_caps(self->g, what);
    if (c == NULL) {
        PyErr_Format(PyExc_ValueError, "get_caps: no array %d in this grid", what);
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)c, (Py_ssize_t)gcut_grid_num_nodes(self->g) * 4);
}

#ifdef GCUT_PY_HAVE_F32
/* set_energy_f32(cost_fg, cost_bg, pairs, scale) -> quantization dict;
 * pairs: None or a sequence of connectivity / 2 float32 buffers (or None). */
static PyObject *grid_set_energy_f32(GridObject *self, PyObject *args)
{
    PyObject *ofg, *obg, *opairs;
    double scale;
    if (!PyArg_ParseTuple(args, "OOOd", &ofg, &obg, &opairs, &scale))
        return NULL;
    if (grid_check(self) != 0)
        return NULL;
    const int32_t n = gcut_grid_num_nodes(self->g);
    const int npairs = gcut_grid_connectivity(self->g) / 2;
    Py_buffer fg, bg, pb[GCUT_GRID_MAX_DIRS / 2];
    const float *pairs[GCUT_GRID_MAX_DIRS / 2];
    memset(pb, 0, sizeof pb);
    memset(&bg, 0, sizeof bg);
    PyObject *ret = NULL, *seq = NULL;
    if (get_f32(ofg, &fg, n, "cost_fg", 0) != 0)
        return NULL;
    if (get_f32(obg, &bg, n, "cost_bg", 0) != 0)
        goto done;
    if (opairs != Py_None) {
        seq = PySequence_Fast(opairs, "pairs: expected a sequence of arrays");
        if (seq == NULL)
            goto done;
        if (PySequence_Fast_GET_SIZE(seq) != npairs) {
            PyErr_Format(PyExc_ValueError, "pairs: expected %d arrays, got %zd", npairs,
                         PySequence_Fast_GET_SIZE(seq));
            goto done;
        }
        for (int j = 0; j < npairs; j++) {
            if (get_f32(PySequence_Fast_GET_ITEM(seq, j), &pb[j], n, "pairs", 1) != 0)
                goto done;
            pairs[j] = pb[j].buf;
        }
    }
    gcut_quantization q;
    gcut_status st = gcut_grid_set_energy_dirs_f32(self->g, fg.buf, bg.buf,
                                                   opairs == Py_None ? NULL : pairs, scale, &q);
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        goto done;
    }
    ret = quantization_dict(&q);
done:
    release(&fg);
    release(&bg);
    for (int j = 0; j < GCUT_GRID_MAX_DIRS / 2; j++)
        release(&pb[j]);
    Py_XDECREF(seq);
    return ret;
}

/* set_unary_f32(cost_fg, cost_bg) -> quantization dict (same scale, n-links kept). */
static PyObject *grid_set_unary_f32(GridObject *self, PyObject *args)
{
    PyObject *ofg, *obg;
    if (!PyArg_ParseTuple(args, "OO", &ofg, &obg))
        return NULL;
    if (grid_check(self) != 0)
        return NULL;
    const int32_t n = gcut_grid_num_nodes(self->g);
    Py_buffer fg, bg;
    if (get_f32(ofg, &fg, n, "cost_fg", 0) != 0)
        return NULL;
    if (get_f32(obg, &bg, n, "cost_bg", 0) != 0) {
        release(&fg);
        return NULL;
    }
    gcut_quantization q;
    gcut_status st = gcut_grid_set_unary_f32(self->g, fg.buf, bg.buf, &q);
    release(&fg);
    release(&bg);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    return quantization_dict(&q);
}

/* quantization(flow) -> dict (after a float setter; StateError otherwise). */
static PyObject *grid_quantization(GridObject *self, PyObject *args)
{
    long long flow;
    if (!PyArg_ParseTuple(args, "L", &flow))
        return NULL;
    if (grid_check(self) != 0)
        return NULL;
    gcut_quantization q;
    gcut_status st = gcut_grid_quantization(self->g, (int64_t)flow, &q);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    return quantization_dict(&q);
}
#endif /* GCUT_PY_HAVE_F32 */

static PyMethodDef grid_methods[] = {
    {"set_caps", (PyCFunction)grid_set_caps, METH_VARARGS, "set_caps(what, caps)"},
    {"set_terminals", (PyCFunction)grid_set_terminals, METH_VARARGS, "set_terminals(source, sink)"},
    {"set_tweights_at", (PyCFunction)grid_set_tweights_at, METH_VARARGS,
     "set_tweights_at(nodes, source, sink)"},
    {"solve", (PyCFunction)(void (*)(void))grid_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(backend='auto', time_limit=0.0, threads=0) -> Result"},
    {"set_warm_start", (PyCFunction)grid_set_warm_start, METH_VARARGS, "set_warm_start(on)"},
    {"get_caps", (PyCFunction)grid_get_caps, METH_VARARGS, "get_caps(what) -> int32 bytes"},
#ifdef GCUT_PY_HAVE_F32
    {"set_energy_f32", (PyCFunction)grid_set_energy_f32, METH_VARARGS,
     "set_energy_f32(cost_fg, cost_bg, pairs, scale) -> quantization"},
    {"set_unary_f32", (PyCFunction)grid_set_unary_f32, METH_VARARGS,
     "set_unary_f32(cost_fg, cost_bg) -> quantization"},
    {"quantization", (PyCFunction)grid_quantization, METH_VARARGS, "quantization(flow) -> dict"},
#endif
    {NULL}};

/* clang-format off */
static PyTypeObject GridType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gcut._gcut.Grid",
    .tp_basicsize = sizeof(GridObject),
    .tp_dealloc = (destructor)grid_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A gcut_grid (low level; see gcut.GridProblem).",
    .tp_methods = grid_methods,
    .tp_init = (initproc)grid_init,
    .tp_new = PyType_GenericNew,
};
/* clang-format on */

/* ---------------------------------------------------------------- matching */

/* match(rows, cols, n_rows, n_cols, backend) -> (cardinality, row_mates,
 * col_mates, cover_rows, cover_cols, backend, total_ms); the matching is
 * checked by gcut_match_check, whose König cover is returned. */
static PyObject *py_match(PyObject *mod, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"rows", "cols", "n_rows", "n_cols", "backend", NULL};
    PyObject *orow, *ocol;
    int nr, nc;
    const char *backend = "auto";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOii|z", kwlist, &orow, &ocol, &nr, &nc, &backend))
        return NULL;
    Py_buffer rb, cb;
    if (get_i32(orow, &rb, -1, "rows", 0) != 0)
        return NULL;
    if (get_i32(ocol, &cb, rb.len / 4, "cols", 0) != 0) {
        release(&rb);
        return NULL;
    }
    gcut_bipartite *b = NULL;
    gcut_match_result *res = NULL;
    PyObject *out[4] = {NULL};
    PyObject *ret = NULL;
    gcut_status st = gcut_bipartite_new(&b, nr, nc, rb.buf, cb.buf, (int64_t)(rb.len / 4));
    release(&rb);
    release(&cb);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    st = gcut_match_result_new(&res);
    if (st != GCUT_OK) {
        gcut_bipartite_free(b);
        return raise_status(st, NULL);
    }
    out[0] = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)nr * 4);
    out[1] = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)nc * 4);
    out[2] = PyBytes_FromStringAndSize(NULL, nr);
    out[3] = PyBytes_FromStringAndSize(NULL, nc);
    if (!out[0] || !out[1] || !out[2] || !out[3])
        goto done;
    gcut_match_options opt;
    gcut_match_options_init(&opt);
    opt.backend = backend;
    { /* the GIL released */
        PyThreadState *save = PyEval_SaveThread();
        st = gcut_match(b, &opt, res);
        if (st == GCUT_OK)
            st = gcut_match_check(
                b, gcut_match_result_row_mates(res), gcut_match_result_col_mates(res),
                gcut_match_result_cardinality(res), (uint8_t *)PyBytes_AS_STRING(out[2]),
                (uint8_t *)PyBytes_AS_STRING(out[3]));
        PyEval_RestoreThread(save);
    }
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        goto done;
    }
    if (nr > 0)
        memcpy(PyBytes_AS_STRING(out[0]), gcut_match_result_row_mates(res), (size_t)nr * 4);
    if (nc > 0)
        memcpy(PyBytes_AS_STRING(out[1]), gcut_match_result_col_mates(res), (size_t)nc * 4);
    const gcut_match_stats *ms = gcut_match_result_stats(res);
    ret = Py_BuildValue("(LOOOOsd)", (long long)gcut_match_result_cardinality(res), out[0], out[1],
                        out[2], out[3], gcut_match_result_backend(res), ms ? ms->total_ms : 0.0);
done:
    for (int i = 0; i < 4; i++)
        Py_XDECREF(out[i]);
    gcut_match_result_free(res);
    gcut_bipartite_free(b);
    return ret;
}

/* ------------------------------------------------------------------ vision */
#ifdef GCUT_PY_HAVE_VISION

static PyObject *seg_stats_dict(const gcut_seg_stats *st);

/* seeds_from_rect(width, height, x, y, w, h) -> bytes (width * height). */
static PyObject *py_seeds_from_rect(PyObject *mod, PyObject *args)
{
    int W, H, x, y, w, h;
    if (!PyArg_ParseTuple(args, "iiiiii", &W, &H, &x, &y, &w, &h))
        return NULL;
    if (W < 1 || H < 1) {
        PyErr_Format(PyExc_ValueError, "seeds_from_rect: image of %d x %d pixels", W, H);
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)W * H);
    if (out == NULL)
        return NULL;
    gcut_status st = gcut_seeds_from_rect(W, H, x, y, w, h, (uint8_t *)PyBytes_AS_STRING(out));
    if (st != GCUT_OK) {
        Py_DECREF(out);
        return raise_status(st, NULL);
    }
    return out;
}

/* segment(image, width, height, channels, depth, seeds, iterations, lambda,
 * connectivity, model, components, backend) -> (mask bytes, stats dict).
 * iterations 0: one cut (gcut_segment), else GrabCut. The image buffer is
 * read in place (C-contiguous rows: stride = width * channels * depth / 8). */
static PyObject *py_segment(PyObject *mod, PyObject *args)
{
    PyObject *oimg, *oseeds;
    int W, H, C, D, iterations, conn, model, components;
    double lambda;
    const char *backend;
    if (!PyArg_ParseTuple(args, "OiiiiOidiiiz", &oimg, &W, &H, &C, &D, &oseeds, &iterations,
                          &lambda, &conn, &model, &components, &backend))
        return NULL;
    if (W < 1 || H < 1 || (C != 1 && C != 3 && C != 4) || (D != 8 && D != 16)) {
        PyErr_SetString(PyExc_ValueError, "segment: bad image geometry");
        return NULL;
    }
    Py_buffer ib, sb;
    if (PyObject_GetBuffer(oimg, &ib, PyBUF_C_CONTIGUOUS) != 0)
        return NULL;
    const Py_ssize_t n = (Py_ssize_t)W * H;
    if (ib.len != n * C * (D / 8)) {
        PyErr_Format(PyExc_ValueError, "segment: image buffer of %zd bytes, expected %zd", ib.len,
                     n * C * (D / 8));
        PyBuffer_Release(&ib);
        return NULL;
    }
    if (PyObject_GetBuffer(oseeds, &sb, PyBUF_C_CONTIGUOUS) != 0) {
        PyBuffer_Release(&ib);
        return NULL;
    }
    PyObject *mask = NULL;
    if (sb.len != n) {
        PyErr_Format(PyExc_ValueError, "segment: %zd seed bytes, expected %zd", sb.len, n);
        goto done;
    }
    mask = PyBytes_FromStringAndSize(NULL, n);
    if (mask == NULL)
        goto done;
    gcut_image img = {W, H, C, D, (size_t)W * (size_t)C * (size_t)(D / 8), ib.buf};
    gcut_seg_options opt;
    gcut_seg_options_init(&opt);
    opt.lambda = lambda;
    opt.connectivity = conn;
    opt.model = (gcut_seg_model)model;
    opt.components = components;
    opt.solve.backend = backend;
    gcut_seg_stats stats;
    memset(&stats, 0, sizeof stats);
    gcut_status st;
    uint8_t *m = (uint8_t *)PyBytes_AS_STRING(mask);
    { /* the GIL released */
        PyThreadState *save = PyEval_SaveThread();
        if (iterations == 0)
            st = gcut_segment(&img, sb.buf, &opt, m, &stats);
        else
            st = gcut_grabcut(&img, sb.buf, iterations, &opt, m, &stats);
        PyEval_RestoreThread(save);
    }
    if (st != GCUT_OK) {
        Py_CLEAR(mask);
        raise_status(st, NULL);
        goto done;
    }
    PyObject *ret = Py_BuildValue("(NN)", mask, seg_stats_dict(&stats));
    PyBuffer_Release(&ib);
    PyBuffer_Release(&sb);
    return ret;
done:
    Py_XDECREF(mask);
    PyBuffer_Release(&ib);
    PyBuffer_Release(&sb);
    return NULL;
}

static PyObject *seg_stats_dict(const gcut_seg_stats *st)
{
    return Py_BuildValue(
        "{sdsdsdsdsdsdsdsLsisOss}", "model_ms", st->model_ms, "build_ms", st->build_ms, "solve_ms",
        st->solve_ms, "total_ms", st->total_ms, "energy", st->energy, "scale", st->scale, "beta",
        st->beta, "flow", (long long)st->flow, "iterations", (int)st->iterations, "warm_start",
        st->warm_start ? Py_True : Py_False, "backend", st->backend ? st->backend : "");
}

/* An interactive segmentation (gcut_seg_session): strokes re-solve warm. */
/* PyObject_HEAD is a field list clang-format cannot read */
/* clang-format off */
typedef struct {
    PyObject_HEAD
    gcut_seg_session *s;
    int32_t num_pixels;
    int busy;
} SessionObject;
/* clang-format on */

static void session_dealloc(SessionObject *self)
{
    gcut_seg_session_free(self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int session_check(SessionObject *self)
{
    if (self->s == NULL) {
        PyErr_SetString(PyExc_ValueError, "gcut: session not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "gcut: this session is being solved by another thread; use one object "
                        "per thread or serialise the calls");
        return -1;
    }
    return 0;
}

/* Session(image, width, height, channels, depth, seeds, lambda, connectivity,
 * model, components, backend): the session copies the image and the seeds. */
static int session_init(SessionObject *self, PyObject *args, PyObject *kw)
{
    PyObject *oimg, *oseeds;
    int W, H, C, D, conn, model, components;
    double lambda;
    const char *backend;
    if (!PyArg_ParseTuple(args, "OiiiiOdiiiz", &oimg, &W, &H, &C, &D, &oseeds, &lambda, &conn,
                          &model, &components, &backend))
        return -1;
    if (self->s != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "gcut: a session is initialised once");
        return -1;
    }
    if (W < 1 || H < 1 || (C != 1 && C != 3 && C != 4) || (D != 8 && D != 16)) {
        PyErr_SetString(PyExc_ValueError, "Session: bad image geometry");
        return -1;
    }
    const Py_ssize_t n = (Py_ssize_t)W * H;
    Py_buffer ib, sb;
    if (PyObject_GetBuffer(oimg, &ib, PyBUF_C_CONTIGUOUS) != 0)
        return -1;
    if (PyObject_GetBuffer(oseeds, &sb, PyBUF_C_CONTIGUOUS) != 0) {
        PyBuffer_Release(&ib);
        return -1;
    }
    int rc = -1;
    if (ib.len != n * C * (D / 8) || sb.len != n) {
        PyErr_Format(PyExc_ValueError, "Session: %zd image bytes and %zd seed bytes for %d x %d",
                     ib.len, sb.len, W, H);
        goto done;
    }
    gcut_image img = {W, H, C, D, (size_t)W * (size_t)C * (size_t)(D / 8), ib.buf};
    gcut_seg_options opt;
    gcut_seg_options_init(&opt);
    opt.lambda = lambda;
    opt.connectivity = conn;
    opt.model = (gcut_seg_model)model;
    opt.components = components;
    opt.solve.backend = backend;
    gcut_status st;
    { /* the GIL released */
        PyThreadState *save = PyEval_SaveThread();
        st = gcut_seg_session_new(&self->s, &img, sb.buf, &opt);
        PyEval_RestoreThread(save);
    }
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        goto done;
    }
    self->num_pixels = (int32_t)n;
    rc = 0;
done:
    PyBuffer_Release(&ib);
    PyBuffer_Release(&sb);
    return rc;
}

static PyObject *session_add_stroke(SessionObject *self, PyObject *args)
{
    int label;
    PyObject *opix;
    if (!PyArg_ParseTuple(args, "iO", &label, &opix))
        return NULL;
    if (session_check(self) != 0)
        return NULL;
    if (label < 0 || label > 2) {
        PyErr_Format(PyExc_ValueError, "add_stroke: label %d is not 0, 1 or 2", label);
        return NULL;
    }
    Py_buffer pb;
    if (get_i32(opix, &pb, -1, "pixels", 0) != 0)
        return NULL;
    if (pb.len / 4 > INT32_MAX) {
        PyBuffer_Release(&pb);
        PyErr_SetString(PyExc_ValueError, "add_stroke: too many pixels");
        return NULL;
    }
    gcut_status st =
        gcut_seg_session_add_stroke(self->s, (uint8_t)label, pb.buf, (int32_t)(pb.len / 4));
    PyBuffer_Release(&pb);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    Py_RETURN_NONE;
}

static PyObject *session_set_seeds(SessionObject *self, PyObject *arg)
{
    if (session_check(self) != 0)
        return NULL;
    Py_buffer sb;
    if (PyObject_GetBuffer(arg, &sb, PyBUF_C_CONTIGUOUS) != 0)
        return NULL;
    if (sb.len != self->num_pixels) {
        PyErr_Format(PyExc_ValueError, "set_seeds: %zd bytes, expected %d", sb.len,
                     (int)self->num_pixels);
        PyBuffer_Release(&sb);
        return NULL;
    }
    gcut_status st = gcut_seg_session_set_seeds(self->s, sb.buf);
    PyBuffer_Release(&sb);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    Py_RETURN_NONE;
}

/* solve(iterations=0) -> (mask bytes, stats): a cut (0) or GrabCut iterations. */
static PyObject *session_solve(SessionObject *self, PyObject *args)
{
    int iterations = 0;
    if (!PyArg_ParseTuple(args, "|i", &iterations))
        return NULL;
    if (session_check(self) != 0)
        return NULL;
    PyObject *mask = PyBytes_FromStringAndSize(NULL, self->num_pixels);
    if (mask == NULL)
        return NULL;
    uint8_t *m = (uint8_t *)PyBytes_AS_STRING(mask);
    gcut_seg_stats stats;
    memset(&stats, 0, sizeof stats);
    gcut_status st;
    self->busy = 1;
    { /* the GIL released */
        PyThreadState *save = PyEval_SaveThread();
        if (iterations == 0)
            st = gcut_seg_session_solve(self->s, m, &stats);
        else
            st = gcut_seg_session_grabcut(self->s, iterations, m, &stats);
        PyEval_RestoreThread(save);
    }
    self->busy = 0;
    if (st != GCUT_OK) {
        Py_DECREF(mask);
        return raise_status(st, NULL);
    }
    return Py_BuildValue("(NN)", mask, seg_stats_dict(&stats));
}

static PyMethodDef session_methods[] = {
    {"add_stroke", (PyCFunction)session_add_stroke, METH_VARARGS, "add_stroke(label, pixels)"},
    {"set_seeds", (PyCFunction)session_set_seeds, METH_O, "set_seeds(seeds)"},
    {"solve", (PyCFunction)session_solve, METH_VARARGS,
     "solve(iterations=0) -> (mask bytes, stats)"},
    {NULL}};

/* clang-format off */
static PyTypeObject SessionType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gcut._gcut.Session",
    .tp_basicsize = sizeof(SessionObject),
    .tp_dealloc = (destructor)session_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A gcut_seg_session (low level; see gcut.Segmentation).",
    .tp_methods = session_methods,
    .tp_init = (initproc)session_init,
    .tp_new = PyType_GenericNew,
};
/* clang-format on */

/* mrf(unary, width, height, depth, connectivity, labels_count, kind, lambda,
 * trunc, table, weights, labels, swap, max_cycles, backend) -> (labels bytes,
 * stats): alpha-expansion (swap 0) or alpha-beta swap (1). kind: 0 Potts,
 * 1 truncated linear, 2 truncated quadratic, 3 table. weights: None or a
 * sequence of connectivity / 2 int32 buffers (None entries: all 1). */
static PyObject *py_mrf(PyObject *mod, PyObject *args)
{
    PyObject *ounary, *otable, *oweights, *olabels;
    int W, H, D, conn, L, kind, lambda, trunc, swap, max_cycles;
    const char *backend;
    if (!PyArg_ParseTuple(args, "OiiiiiiiiOOOiiz", &ounary, &W, &H, &D, &conn, &L, &kind, &lambda,
                          &trunc, &otable, &oweights, &olabels, &swap, &max_cycles, &backend))
        return NULL;
    gcut_mrf *m = NULL;
    gcut_status st = gcut_mrf_new(&m, W, H, D, conn, L);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    const Py_ssize_t n = gcut_mrf_num_nodes(m);
    Py_buffer ub, tb, lb, wb;
    memset(&tb, 0, sizeof tb);
    memset(&lb, 0, sizeof lb);
    memset(&wb, 0, sizeof wb);
    PyObject *ret = NULL, *out = NULL, *seq = NULL;
    if (get_i32(ounary, &ub, n * L, "unary", 0) != 0) {
        gcut_mrf_free(m);
        return NULL;
    }
    if (get_i32(otable, &tb, (Py_ssize_t)L * L, "table", 1) != 0 ||
        get_i32(olabels, &lb, n, "labels", 0) != 0)
        goto done;
    st = gcut_mrf_set_unary(m, ub.buf);
    if (st == GCUT_OK) {
        if (kind == 0)
            st = gcut_mrf_set_potts(m, lambda);
        else if (kind == 1)
            st = gcut_mrf_set_trunc_linear(m, lambda, trunc);
        else if (kind == 2)
            st = gcut_mrf_set_trunc_quadratic(m, lambda, trunc);
        else
            st = gcut_mrf_set_table(m, tb.buf);
    }
    if (st == GCUT_OK && oweights != Py_None) {
        seq = PySequence_Fast(oweights, "weights: expected a sequence of arrays");
        if (seq == NULL)
            goto done;
        if (PySequence_Fast_GET_SIZE(seq) != conn / 2) {
            PyErr_Format(PyExc_ValueError, "weights: expected %d arrays, got %zd", conn / 2,
                         PySequence_Fast_GET_SIZE(seq));
            goto done;
        }
        for (int j = 0; j < conn / 2 && st == GCUT_OK; j++) {
            if (get_i32(PySequence_Fast_GET_ITEM(seq, j), &wb, n, "weights", 1) != 0)
                goto done;
            if (wb.buf)
                st = gcut_mrf_set_weights(m, 2 * j, wb.buf);
            release(&wb);
        }
    }
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        goto done;
    }
    out = PyBytes_FromStringAndSize(lb.buf, n * 4);
    if (out == NULL)
        goto done;
    gcut_mrf_options opt;
    gcut_mrf_options_init(&opt);
    opt.max_cycles = max_cycles;
    opt.solve.backend = backend;
    gcut_mrf_stats ms;
    memset(&ms, 0, sizeof ms);
    int32_t *labels = (int32_t *)PyBytes_AS_STRING(out);
    { /* the GIL released */
        PyThreadState *save = PyEval_SaveThread();
        st = swap ? gcut_mrf_swap(m, &opt, labels, &ms) : gcut_mrf_expand(m, &opt, labels, &ms);
        PyEval_RestoreThread(save);
    }
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        goto done;
    }
    ret = Py_BuildValue("(O{sLsLsisisisdsdsdss})", out, "initial_energy",
                        (long long)ms.initial_energy, "energy", (long long)ms.energy, "cycles",
                        (int)ms.cycles, "moves", (int)ms.moves, "moves_accepted",
                        (int)ms.moves_accepted, "build_ms", ms.build_ms, "solve_ms", ms.solve_ms,
                        "total_ms", ms.total_ms, "backend", ms.backend ? ms.backend : "");
done:
    Py_XDECREF(out);
    Py_XDECREF(seq);
    release(&ub);
    release(&tb);
    release(&lb);
    release(&wb);
    gcut_mrf_free(m);
    return ret;
}

/* stereo(left, right, width, height, channels, depth, ndisp, cost, smooth,
 * lambda, trunc, tl_trunc, swap, lr_check, max_cycles, backend) ->
 * (disparities as int32 bytes, stats): gcut_stereo_match on a rectified
 * pair read in place. cost, smooth, lambda, trunc, tl_trunc and lr_check
 * below 0 keep gcut_stereo_options_init's defaults. */
static PyObject *py_stereo(PyObject *mod, PyObject *args)
{
    PyObject *oleft, *oright;
    int W, H, C, D, ndisp, cost, smooth, lambda, trunc, tl_trunc, swap, lr, cycles;
    const char *backend;
    if (!PyArg_ParseTuple(args, "OOiiiiiiiiiiiiiz", &oleft, &oright, &W, &H, &C, &D, &ndisp, &cost,
                          &smooth, &lambda, &trunc, &tl_trunc, &swap, &lr, &cycles, &backend))
        return NULL;
    if (W < 1 || H < 1 || (C != 1 && C != 3 && C != 4) || (D != 8 && D != 16)) {
        PyErr_SetString(PyExc_ValueError, "stereo: bad image geometry");
        return NULL;
    }
    const Py_ssize_t n = (Py_ssize_t)W * H, bytes = n * C * (D / 8);
    Py_buffer lb, rb;
    if (PyObject_GetBuffer(oleft, &lb, PyBUF_C_CONTIGUOUS) != 0)
        return NULL;
    if (PyObject_GetBuffer(oright, &rb, PyBUF_C_CONTIGUOUS) != 0) {
        PyBuffer_Release(&lb);
        return NULL;
    }
    PyObject *out = NULL, *ret = NULL;
    if (lb.len != bytes || rb.len != bytes) {
        PyErr_Format(PyExc_ValueError, "stereo: %zd and %zd image bytes, expected %zd", lb.len,
                     rb.len, bytes);
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, n * 4);
    if (out == NULL)
        goto done;
    const size_t stride = (size_t)W * (size_t)C * (size_t)(D / 8);
    gcut_image left = {W, H, C, D, stride, lb.buf}, right = {W, H, C, D, stride, rb.buf};
    gcut_stereo_options p;
    gcut_stereo_options_init(&p);
    p.ndisp = ndisp;
    if (cost >= 0)
        p.cost = (gcut_stereo_cost)cost;
    if (smooth >= 0)
        p.smooth = (gcut_stereo_smooth)smooth;
    if (lambda >= 0)
        p.lambda = lambda;
    if (trunc >= 0)
        p.trunc = trunc;
    if (tl_trunc >= 0)
        p.tl_trunc = tl_trunc;
    p.use_swap = swap;
    if (lr >= 0)
        p.lr_check = lr;
    p.mrf.max_cycles = cycles;
    p.mrf.solve.backend = backend;
    gcut_mrf_stats ms;
    memset(&ms, 0, sizeof ms);
    gcut_status st;
    { /* the GIL released */
        PyThreadState *save = PyEval_SaveThread();
        st = gcut_stereo_match(&left, &right, &p, (int32_t *)PyBytes_AS_STRING(out), &ms);
        PyEval_RestoreThread(save);
    }
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        goto done;
    }
    ret = Py_BuildValue("(O{sLsLsisisdsdss})", out, "initial_energy", (long long)ms.initial_energy,
                        "energy", (long long)ms.energy, "cycles", (int)ms.cycles, "moves",
                        (int)ms.moves, "solve_ms", ms.solve_ms, "total_ms", ms.total_ms, "backend",
                        ms.backend ? ms.backend : "");
done:
    Py_XDECREF(out);
    PyBuffer_Release(&lb);
    PyBuffer_Release(&rb);
    return ret;
}

/* ------------------------------------------------------------- multi-view */

/* The statistics dict of a multi-label solve. */
static PyObject *mrf_stats_dict(const gcut_mrf_stats *ms)
{
    return Py_BuildValue("{sLsLsisisdsdss}", "initial_energy", (long long)ms->initial_energy,
                         "energy", (long long)ms->energy, "cycles", (int)ms->cycles, "moves",
                         (int)ms->moves, "solve_ms", ms->solve_ms, "total_ms", ms->total_ms,
                         "backend", ms->backend ? ms->backend : "");
}

/* A list of images given as (buffer, width, height, channels, depth)
 * tuples: views into the buffers (held in bufs, released by the caller). */
static int image_list(PyObject *list, Py_ssize_t count, gcut_image *imgs, Py_buffer *bufs,
                      const char *what)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *t = PyList_GET_ITEM(list, i), *obj;
        int W, H, C, D;
        if (!PyArg_ParseTuple(t, "Oiiii", &obj, &W, &H, &C, &D))
            return -1;
        if (W < 1 || H < 1 || (C != 1 && C != 3 && C != 4) || (D != 8 && D != 16)) {
            PyErr_Format(PyExc_ValueError, "%s[%zd]: bad image geometry", what, i);
            return -1;
        }
        if (PyObject_GetBuffer(obj, &bufs[i], PyBUF_C_CONTIGUOUS) != 0)
            return -1;
        const size_t stride = (size_t)W * (size_t)C * (size_t)(D / 8);
        if (bufs[i].len != (Py_ssize_t)(stride * (size_t)H)) {
            PyErr_Format(PyExc_ValueError, "%s[%zd]: %zd bytes, expected %zu", what, i,
                         bufs[i].len, stride * (size_t)H);
            return -1;
        }
        gcut_image im = {W, H, C, D, stride, bufs[i].buf};
        imgs[i] = im;
    }
    return 0;
}

/* mbs(images, baselines, ndisp, cost, smooth, lambda, trunc, tl_trunc,
 *     combine, keep, swap, cycles, backend) -> (labels bytes, stats);
 * images[0] is the reference, images[1:] the views. */
static PyObject *py_mbs(PyObject *mod, PyObject *args)
{
    PyObject *olist, *obase;
    int ndisp, cost, smooth, lambda, trunc, tl_trunc, combine, keep, swap, cycles;
    const char *backend;
    if (!PyArg_ParseTuple(args, "O!O!iiiiiiiiiiz", &PyList_Type, &olist, &PyList_Type, &obase,
                          &ndisp, &cost, &smooth, &lambda, &trunc, &tl_trunc, &combine, &keep,
                          &swap, &cycles, &backend))
        return NULL;
    const Py_ssize_t count = PyList_GET_SIZE(olist), nviews = count - 1;
    if (nviews < 1 || nviews > 64 || PyList_GET_SIZE(obase) != nviews) {
        PyErr_SetString(PyExc_ValueError,
                        "multi_baseline: 1 to 64 views, one baseline for each");
        return NULL;
    }
    gcut_image imgs[65];
    Py_buffer bufs[65];
    double base[64];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL, *ret = NULL;
    for (Py_ssize_t i = 0; i < nviews; i++) {
        base[i] = PyFloat_AsDouble(PyList_GET_ITEM(obase, i));
        if (base[i] == -1.0 && PyErr_Occurred())
            return NULL;
    }
    if (image_list(olist, count, imgs, bufs, "images") != 0)
        goto done;
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)imgs[0].width * imgs[0].height * 4);
    if (out == NULL)
        goto done;
    const gcut_image *views[64];
    for (Py_ssize_t i = 0; i < nviews; i++)
        views[i] = &imgs[i + 1];
    gcut_mbs_options p;
    gcut_mbs_options_init(&p);
    p.stereo.ndisp = ndisp;
    p.stereo.cost = (gcut_stereo_cost)cost;
    p.stereo.smooth = (gcut_stereo_smooth)smooth;
    p.stereo.lambda = lambda;
    p.stereo.trunc = trunc;
    p.stereo.tl_trunc = tl_trunc;
    p.stereo.use_swap = swap;
    p.stereo.mrf.max_cycles = cycles;
    p.stereo.mrf.solve.backend = backend;
    p.combine = (gcut_mvs_combine)combine;
    p.keep = keep;
    gcut_mrf_stats ms;
    memset(&ms, 0, sizeof ms);
    gcut_status st;
    {
        PyThreadState *save = PyEval_SaveThread();
        st = gcut_mbs_match(&imgs[0], views, base, (int32_t)nviews, &p,
                            (int32_t *)PyBytes_AS_STRING(out), &ms);
        PyEval_RestoreThread(save);
    }
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        goto done;
    }
    ret = Py_BuildValue("(ON)", out, mrf_stats_dict(&ms));
done:
    Py_XDECREF(out);
    for (Py_ssize_t i = 0; i < count && i < 65; i++)
        release(&bufs[i]);
    return ret;
}

/* sweep(images, cameras, ndepth, znear, zfar, radius, ncc_trunc, keep,
 *       mask_threshold, smooth, lambda, tl_trunc, cycles, backend)
 *   -> (labels bytes, depth bytes, stats); cameras: 21 floats each (K, R, t). */
static PyObject *py_sweep(PyObject *mod, PyObject *args)
{
    PyObject *olist, *ocams;
    int ndepth, radius, ncc_trunc, keep, mask_threshold, smooth, lambda, tl_trunc, cycles;
    double znear, zfar;
    const char *backend;
    if (!PyArg_ParseTuple(args, "O!O!iddiiiiiiiiz", &PyList_Type, &olist, &PyList_Type, &ocams,
                          &ndepth, &znear, &zfar, &radius, &ncc_trunc, &keep, &mask_threshold,
                          &smooth, &lambda, &tl_trunc, &cycles, &backend))
        return NULL;
    const Py_ssize_t count = PyList_GET_SIZE(olist);
    if (count < 2 || count > 64 || PyList_GET_SIZE(ocams) != count) {
        PyErr_SetString(PyExc_ValueError, "plane_sweep: 2 to 64 images, one camera each");
        return NULL;
    }
    gcut_image imgs[64];
    const gcut_image *ptrs[64];
    Py_buffer bufs[64];
    gcut_camera cams[64];
    memset(bufs, 0, sizeof bufs);
    memset(cams, 0, sizeof cams);
    PyObject *labels = NULL, *depth = NULL, *ret = NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *c = PyList_GET_ITEM(ocams, i);
        if (!PyTuple_Check(c) || PyTuple_GET_SIZE(c) != 21) {
            PyErr_Format(PyExc_TypeError, "cameras[%zd]: expected 21 numbers (K, R, t)", i);
            return NULL;
        }
        double *dst[3] = {cams[i].K, cams[i].R, cams[i].t};
        const int len[3] = {9, 9, 3};
        for (int part = 0, k = 0; part < 3; part++)
            for (int j = 0; j < len[part]; j++, k++) {
                dst[part][j] = PyFloat_AsDouble(PyTuple_GET_ITEM(c, k));
                if (dst[part][j] == -1.0 && PyErr_Occurred())
                    return NULL;
            }
    }
    if (image_list(olist, count, imgs, bufs, "images") != 0)
        goto done;
    for (Py_ssize_t i = 0; i < count; i++)
        ptrs[i] = &imgs[i];
    const Py_ssize_t n = (Py_ssize_t)imgs[0].width * imgs[0].height;
    labels = PyBytes_FromStringAndSize(NULL, n * 4);
    depth = PyBytes_FromStringAndSize(NULL, n * 8);
    if (labels == NULL || depth == NULL)
        goto done;
    gcut_sweep_options p;
    gcut_sweep_options_init(&p);
    p.ndepth = ndepth;
    p.znear = znear;
    p.zfar = zfar;
    p.radius = radius;
    p.ncc_trunc = ncc_trunc;
    p.keep = keep;
    p.mask_threshold = mask_threshold;
    p.smooth = (gcut_stereo_smooth)smooth;
    p.lambda = lambda;
    p.tl_trunc = tl_trunc;
    p.mrf.max_cycles = cycles;
    p.mrf.solve.backend = backend;
    gcut_mrf_stats ms;
    memset(&ms, 0, sizeof ms);
    gcut_status st;
    {
        PyThreadState *save = PyEval_SaveThread();
        st = gcut_sweep_depth(ptrs, cams, (int32_t)count, &p, (int32_t *)PyBytes_AS_STRING(labels),
                              (double *)PyBytes_AS_STRING(depth), &ms);
        PyEval_RestoreThread(save);
    }
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        goto done;
    }
    ret = Py_BuildValue("(OON)", labels, depth, mrf_stats_dict(&ms));
done:
    Py_XDECREF(labels);
    Py_XDECREF(depth);
    for (Py_ssize_t i = 0; i < count; i++)
        release(&bufs[i]);
    return ret;
}

/* read_cameras(path) -> [(name, 21 floats)] */
static PyObject *py_read_cameras(PyObject *mod, PyObject *args)
{
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path))
        return NULL;
    gcut_camera *cams = NULL;
    int32_t count = 0;
    gcut_status st;
    Py_BEGIN_ALLOW_THREADS
    st = gcut_cameras_load(path, &cams, &count);
    Py_END_ALLOW_THREADS
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    PyObject *list = PyList_New(count);
    for (int32_t i = 0; list && i < count; i++) {
        const gcut_camera *c = &cams[i];
        PyObject *nums = PyTuple_New(21);
        if (nums == NULL) {
            Py_CLEAR(list);
            break;
        }
        for (int j = 0; j < 9; j++) {
            PyTuple_SET_ITEM(nums, j, PyFloat_FromDouble(c->K[j]));
            PyTuple_SET_ITEM(nums, 9 + j, PyFloat_FromDouble(c->R[j]));
        }
        for (int j = 0; j < 3; j++)
            PyTuple_SET_ITEM(nums, 18 + j, PyFloat_FromDouble(c->t[j]));
        PyList_SET_ITEM(list, i, Py_BuildValue("(sN)", c->name, nums));
    }
    gcut_cameras_free(cams);
    return list;
}

/* ------------------------------------------------------------------ images */

/* load_image(path) -> (bytes, width, height, channels, depth): rows packed. */
static PyObject *py_load_image(PyObject *mod, PyObject *args)
{
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path))
        return NULL;
    gcut_image *img = NULL;
    gcut_status st;
    Py_BEGIN_ALLOW_THREADS
    st = gcut_image_load(path, &img);
    Py_END_ALLOW_THREADS
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    const size_t row = (size_t)img->width * (size_t)img->channels * (size_t)(img->depth / 8);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(row * (size_t)img->height));
    if (out != NULL)
        for (int32_t y = 0; y < img->height; y++)
            memcpy(PyBytes_AS_STRING(out) + row * (size_t)y, img->data + img->stride * (size_t)y,
                   row);
    PyObject *ret = out ? Py_BuildValue("(Niiii)", out, (int)img->width, (int)img->height,
                                        (int)img->channels, (int)img->depth)
                        : NULL;
    gcut_image_free(img);
    return ret;
}

/* save_image(path, buffer, width, height, channels, depth) */
static PyObject *py_save_image(PyObject *mod, PyObject *args)
{
    const char *path;
    PyObject *obj;
    int W, H, C, D;
    if (!PyArg_ParseTuple(args, "sOiiii", &path, &obj, &W, &H, &C, &D))
        return NULL;
    Py_buffer b;
    if (PyObject_GetBuffer(obj, &b, PyBUF_C_CONTIGUOUS) != 0)
        return NULL;
    const size_t stride = (size_t)(W > 0 ? W : 0) * (size_t)(C > 0 ? C : 0) * (size_t)(D / 8);
    if (W < 1 || H < 1 || (C != 1 && C != 3 && C != 4) || (D != 8 && D != 16) ||
        b.len != (Py_ssize_t)(stride * (size_t)H)) {
        PyBuffer_Release(&b);
        PyErr_SetString(PyExc_ValueError, "save_image: bad image geometry");
        return NULL;
    }
    gcut_image img = {W, H, C, D, stride, b.buf};
    gcut_status st;
    Py_BEGIN_ALLOW_THREADS
    st = gcut_image_save(&img, path);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    Py_RETURN_NONE;
}
#endif /* GCUT_PY_HAVE_VISION */

/* ------------------------------------------------------------------ module */

/* ----------------------------------------------------------- device arrays */

#ifdef GCUT_PY_HAVE_DEVICE
/* Grids in GPU memory (gcut/device.h). The Python layer (gcut/_cuda.py)
 * reads __cuda_array_interface__ or DLPack and hands raw device pointers
 * here as ints; nothing here touches the arrays. A DeviceSolver keeps
 * cuda-grid's device arrays between solves; like a Grid it is marked busy
 * while a thread solves with it. */

/* clang-format off */
typedef struct {
    PyObject_HEAD
    gcut_device_solver *s;
    int busy;
} DeviceSolverObject;
/* clang-format on */

static PyTypeObject DeviceSolverType;

static void dsolver_dealloc(DeviceSolverObject *self)
{
    gcut_device_solver_free(self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int dsolver_init(DeviceSolverObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"backend", NULL};
    const char *backend = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|z", kwlist, &backend))
        return -1;
    if (self->s != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "gcut: a device solver is initialised once");
        return -1;
    }
    gcut_status st;
    Py_BEGIN_ALLOW_THREADS /* the plugin's first load and the device probe */
    st = gcut_device_solver_new(&self->s, backend);
    Py_END_ALLOW_THREADS
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        return -1;
    }
    return 0;
}

/* A pointer given as a Python int (0 or None: NULL). */
static int get_ptr(PyObject *o, const void **out)
{
    *out = NULL;
    if (o == Py_None)
        return 0;
    const unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = (const void *)(uintptr_t)v;
    return 0;
}

/* solve(shape, connectivity, dtype, cost_fg, cost_bg, pairs, pair_const,
 *       scale, cut, cut_format, stream, time_limit, progress, signals,
 *       interval_ms, params) -> (Result, quantization or None)
 * shape: (width, height, depth); pairs: a tuple of pointers (None: NULL);
 * every pointer an int. */
static PyObject *dsolver_solve(DeviceSolverObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"shape",  "connectivity", "dtype", "cost_fg",    "cost_bg",
                             "pairs",  "pair_const",   "scale", "cut",        "cut_format",
                             "stream", "time_limit",   "progress", "signals", "interval_ms",
                             "params", NULL};
    int w, h, d, conn, dtype, cut_format = GCUT_DEVICE_CUT_MASK, signals = 0;
    PyObject *o_fg, *o_bg, *o_pairs, *o_cut, *fn = Py_None;
    double pair_const = 0.0, scale = 0.0, time_limit = 0.0, interval_ms = 0.0;
    unsigned long long stream = 0;
    const char *params = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "(iii)iiOOOddO|iKdOpdz", kwlist, &w, &h, &d, &conn,
                                     &dtype, &o_fg, &o_bg, &o_pairs, &pair_const, &scale, &o_cut,
                                     &cut_format, &stream, &time_limit, &fn, &signals,
                                     &interval_ms, &params))
        return NULL;
    if (self->s == NULL) {
        PyErr_SetString(PyExc_ValueError, "gcut: device solver not initialised");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "gcut: this device solver is being used by another thread; use one "
                        "per thread");
        return NULL;
    }
    gcut_device_grid dg = GCUT_DEVICE_GRID_INIT;
    dg.width = w;
    dg.height = h;
    dg.depth = d;
    dg.connectivity = conn;
    dg.dtype = dtype;
    dg.pair_const = pair_const;
    dg.scale = scale;
    dg.cut_format = cut_format;
    dg.stream = (uintptr_t)stream;
    const void *cut;
    if (get_ptr(o_fg, &dg.cost_fg) != 0 || get_ptr(o_bg, &dg.cost_bg) != 0 ||
        get_ptr(o_cut, &cut) != 0)
        return NULL;
    dg.cut = (void *)cut;
    if (o_pairs != Py_None) {
        if (!PyTuple_Check(o_pairs) || PyTuple_GET_SIZE(o_pairs) > 13) {
            PyErr_SetString(PyExc_TypeError, "pairs: a tuple of at most 13 pointers");
            return NULL;
        }
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(o_pairs); j++)
            if (get_ptr(PyTuple_GET_ITEM(o_pairs, j), &dg.pair[j]) != 0)
                return NULL;
    }
    gcut_quantization q;
    memset(&q, 0, sizeof q);
    dg.quant = &q;
    ResultObject *r = result_create();
    if (r == NULL)
        return NULL;
    gcut_solve_options opt;
    fill_options(&opt, NULL, 0, time_limit, 0);
    opt.params = params;
    progress_ctx pc;
    progress_setup(&pc, &opt, fn, signals, interval_ms);
    gcut_status st;
    self->busy = 1;
    {
        PyThreadState *save = PyEval_SaveThread();
        st = gcut_device_solver_solve(self->s, &dg, &opt, r->res);
        PyEval_RestoreThread(save);
    }
    self->busy = 0;
    if (st != GCUT_OK) {
        Py_DECREF(r);
        return progress_fail(&pc, st);
    }
    if (progress_done(&pc) != 0) {
        Py_DECREF(r);
        return NULL;
    }
    if (dtype != GCUT_DTYPE_FLOAT32)
        return Py_BuildValue("(NO)", (PyObject *)r, Py_None);
#ifdef GCUT_PY_HAVE_F32
    return Py_BuildValue("(NN)", (PyObject *)r, quantization_dict(&q));
#else
    return Py_BuildValue("(NO)", (PyObject *)r, Py_None);
#endif
}

static PyMethodDef dsolver_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))dsolver_solve, METH_VARARGS | METH_KEYWORDS,
     "solve a grid in device memory (see gcut/_cuda.py)"},
    {NULL}};

static PyTypeObject DeviceSolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gcut._gcut.DeviceSolver",
    .tp_basicsize = sizeof(DeviceSolverObject),
    .tp_dealloc = (destructor)dsolver_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "DeviceSolver(backend=None): cuda-grid's state for grids in device memory",
    .tp_methods = dsolver_methods,
    .tp_init = (initproc)dsolver_init,
    .tp_new = PyType_GenericNew,
};

static PyObject *py_device_available(PyObject *mod, PyObject *unused)
{
    const char *why = NULL;
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = gcut_device_available(&why);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(Os)", ok ? Py_True : Py_False, why ? why : "");
}

static PyObject *py_device_alloc(PyObject *mod, PyObject *args)
{
    Py_ssize_t bytes;
    if (!PyArg_ParseTuple(args, "n", &bytes))
        return NULL;
    if (bytes < 0) {
        PyErr_SetString(PyExc_ValueError, "device_alloc: negative size");
        return NULL;
    }
    void *p = NULL;
    gcut_status st = gcut_device_alloc((size_t)bytes, &p);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)p);
}

static PyObject *py_device_free(PyObject *mod, PyObject *arg)
{
    const void *p;
    if (get_ptr(arg, &p) != 0)
        return NULL;
    gcut_device_free((void *)p);
    Py_RETURN_NONE;
}

/* device_copy(dst, src, bytes): pointers as ints, or a writable / readable
 * host buffer in place of either. */
static PyObject *py_device_copy(PyObject *mod, PyObject *args)
{
    PyObject *o_dst, *o_src;
    Py_ssize_t bytes;
    if (!PyArg_ParseTuple(args, "OOn", &o_dst, &o_src, &bytes))
        return NULL;
    Py_buffer bd, bs;
    memset(&bd, 0, sizeof bd);
    memset(&bs, 0, sizeof bs);
    const void *dst = NULL, *src = NULL;
    PyObject *ret = NULL;
    if (PyLong_Check(o_dst)) {
        if (get_ptr(o_dst, &dst) != 0)
            return NULL;
    } else if (PyObject_GetBuffer(o_dst, &bd, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) == 0) {
        dst = bd.buf;
    } else {
        return NULL;
    }
    if (PyLong_Check(o_src)) {
        if (get_ptr(o_src, &src) != 0)
            goto out;
    } else if (PyObject_GetBuffer(o_src, &bs, PyBUF_C_CONTIGUOUS) == 0) {
        src = bs.buf;
    } else {
        goto out;
    }
    if (bytes < 0 || (bd.obj && bd.len < bytes) || (bs.obj && bs.len < bytes)) {
        PyErr_SetString(PyExc_ValueError, "device_copy: the size passes a host buffer");
        goto out;
    }
    gcut_status st;
    Py_BEGIN_ALLOW_THREADS
    st = gcut_device_copy((void *)dst, src, (size_t)bytes);
    Py_END_ALLOW_THREADS
    if (st != GCUT_OK) {
        raise_status(st, NULL);
        goto out;
    }
    ret = Py_None;
    Py_INCREF(ret);
out:
    release(&bd);
    release(&bs);
    return ret;
}

/* DLPack: the C ABI of the DLPack specification (dmlc/dlpack, version 0.x
 * "dltensor" capsules), written out from its documented layout. */
typedef struct {
    int32_t device_type; /* 1 CPU, 2 CUDA, 3 CUDA host, 13 CUDA managed */
    int32_t device_id;
} py_dl_device;
typedef struct {
    uint8_t code; /* 0 int, 1 uint, 2 float, 6 bool */
    uint8_t bits;
    uint16_t lanes;
} py_dl_dtype;
typedef struct {
    void *data;
    py_dl_device device;
    int32_t ndim;
    py_dl_dtype dtype;
    int64_t *shape;
    int64_t *strides; /* NULL: compact C order */
    uint64_t byte_offset;
} py_dl_tensor;
typedef struct py_dl_managed {
    py_dl_tensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct py_dl_managed *self);
} py_dl_managed;

/* The owner of an imported tensor: calls the producer's deleter when the
 * last view of the memory goes. */
/* clang-format off */
typedef struct {
    PyObject_HEAD
    py_dl_managed *m;
} DLHolderObject;
/* clang-format on */

static void dlholder_dealloc(DLHolderObject *self)
{
    if (self->m && self->m->deleter)
        self->m->deleter(self->m);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject DLHolderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gcut._gcut.DLPackHolder",
    .tp_basicsize = sizeof(DLHolderObject),
    .tp_dealloc = (destructor)dlholder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "keeps an imported DLPack tensor alive",
};

/* dlpack_import(capsule) -> (holder, pointer, device_type, device_id,
 * (code, bits, lanes), shape, strides or None). Consumes the capsule. */
static PyObject *py_dlpack_import(PyObject *mod, PyObject *cap)
{
    if (!PyCapsule_IsValid(cap, "dltensor")) {
        PyErr_SetString(PyExc_TypeError,
                        "expected an unconsumed DLPack capsule (\"dltensor\"; a capsule is "
                        "consumed once)");
        return NULL;
    }
    py_dl_managed *m = PyCapsule_GetPointer(cap, "dltensor");
    if (m == NULL)
        return NULL;
    DLHolderObject *h = PyObject_New(DLHolderObject, &DLHolderType);
    if (h == NULL)
        return NULL;
    h->m = m;
    if (PyCapsule_SetName(cap, "used_dltensor") != 0) {
        h->m = NULL;
        Py_DECREF(h);
        return NULL;
    }
    const py_dl_tensor *t = &m->dl_tensor;
    PyObject *shape = PyTuple_New(t->ndim), *strides = NULL;
    if (shape == NULL) {
        Py_DECREF(h);
        return NULL;
    }
    for (int32_t i = 0; i < t->ndim; i++)
        PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(t->shape[i]));
    if (t->strides) {
        strides = PyTuple_New(t->ndim);
        if (strides == NULL) {
            Py_DECREF(shape);
            Py_DECREF(h);
            return NULL;
        }
        for (int32_t i = 0; i < t->ndim; i++)
            PyTuple_SET_ITEM(strides, i, PyLong_FromLongLong(t->strides[i]));
    } else {
        strides = Py_None;
        Py_INCREF(strides);
    }
    const unsigned long long ptr =
        (unsigned long long)(uintptr_t)t->data + (unsigned long long)t->byte_offset;
    return Py_BuildValue("(NKii(iii)NN)", (PyObject *)h, ptr, (int)t->device.device_type,
                         (int)t->device.device_id, (int)t->dtype.code, (int)t->dtype.bits,
                         (int)t->dtype.lanes, shape, strides);
}

/* An exported tensor: gcut.DeviceArray's memory, shared with a consumer;
 * manager_ctx is a reference to the owner. */
typedef struct {
    py_dl_managed m;
    int64_t shape[4];
} py_dl_export;

static void dl_export_delete(py_dl_managed *m)
{
    PyGILState_STATE g = PyGILState_Ensure();
    Py_XDECREF((PyObject *)m->manager_ctx);
    PyGILState_Release(g);
    PyMem_RawFree(m);
}

static void dl_capsule_destructor(PyObject *cap)
{
    if (!PyCapsule_IsValid(cap, "dltensor"))
        return; /* consumed: the consumer calls the deleter */
    py_dl_managed *m = PyCapsule_GetPointer(cap, "dltensor");
    if (m && m->deleter)
        m->deleter(m);
}

/* dlpack_export(owner, pointer, shape, (code, bits), device_id) -> capsule */
static PyObject *py_dlpack_export(PyObject *mod, PyObject *args)
{
    PyObject *owner, *o_ptr, *o_shape;
    int code, bits, device_id;
    if (!PyArg_ParseTuple(args, "OOO(ii)i", &owner, &o_ptr, &o_shape, &code, &bits, &device_id))
        return NULL;
    const void *ptr;
    if (get_ptr(o_ptr, &ptr) != 0)
        return NULL;
    if (!PyTuple_Check(o_shape) || PyTuple_GET_SIZE(o_shape) > 4) {
        PyErr_SetString(PyExc_TypeError, "shape: a tuple of at most 4 sizes");
        return NULL;
    }
    py_dl_export *e = PyMem_RawCalloc(1, sizeof *e);
    if (e == NULL)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o_shape); i++) {
        e->shape[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(o_shape, i));
        if (e->shape[i] == -1 && PyErr_Occurred()) {
            PyMem_RawFree(e);
            return NULL;
        }
    }
    e->m.dl_tensor.data = (void *)ptr;
    e->m.dl_tensor.device.device_type = 2; /* CUDA */
    e->m.dl_tensor.device.device_id = device_id;
    e->m.dl_tensor.ndim = (int32_t)PyTuple_GET_SIZE(o_shape);
    e->m.dl_tensor.dtype.code = (uint8_t)code;
    e->m.dl_tensor.dtype.bits = (uint8_t)bits;
    e->m.dl_tensor.dtype.lanes = 1;
    e->m.dl_tensor.shape = e->shape;
    e->m.dl_tensor.strides = NULL;
    Py_INCREF(owner);
    e->m.manager_ctx = owner;
    e->m.deleter = dl_export_delete;
    PyObject *cap = PyCapsule_New(&e->m, "dltensor", dl_capsule_destructor);
    if (cap == NULL) {
        Py_DECREF(owner);
        PyMem_RawFree(e);
    }
    return cap;
}
#endif /* GCUT_PY_HAVE_DEVICE */

static PyObject *py_version(PyObject *mod, PyObject *unused)
{
    return PyUnicode_FromString(gcut_version());
}

static PyObject *py_backends(PyObject *mod, PyObject *unused)
{
    int32_t count = gcut_backend_count();
    PyObject *list = PyList_New(0);
    if (list == NULL)
        return NULL;
    for (int32_t i = 0; i < count; i++) {
        const char *reason = NULL;
        int ok = gcut_backend_available(i, &reason);
        const char *desc = gcut_backend_description(i);
        PyObject *t =
            Py_BuildValue("(sOssI)", gcut_backend_name(i), ok ? Py_True : Py_False,
                          reason ? reason : "", desc ? desc : "", (unsigned)gcut_backend_caps(i));
        if (t == NULL || PyList_Append(list, t) != 0) {
            Py_XDECREF(t);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(t);
    }
    return list;
}

static PyObject *py_status_string(PyObject *mod, PyObject *args)
{
    int st;
    if (!PyArg_ParseTuple(args, "i", &st))
        return NULL;
    return PyUnicode_FromString(gcut_status_string((gcut_status)st));
}

static PyObject *py_grid_direction(PyObject *mod, PyObject *args)
{
    int conn, dir, dx, dy, dz;
    if (!PyArg_ParseTuple(args, "ii", &conn, &dir))
        return NULL;
    gcut_status st = gcut_grid_direction(conn, dir, &dx, &dy, &dz);
    if (st != GCUT_OK)
        return raise_status(st, NULL);
    return Py_BuildValue("(iii)", dx, dy, dz);
}

/* solve_slabs(width, height, depth, connectivity, slabs, backend, params,
 * time_limit) -> (flow, stats): gcut_grid_solve_slabs. Each slab is a
 * tuple (first, planes, device, source_ptr, sink_ptr, (cap_ptr, ...),
 * cut): pointers as integers (0: none; host or device memory, as
 * `device` says), cut a writable buffer of the slab's nodes. The arrays
 * are the caller's to keep alive (gcut/_grid.py). */
static PyObject *py_solve_slabs(PyObject *mod, PyObject *args)
{
    (void)mod;
    int width, height, conn;
    long long depth;
    PyObject *list;
    const char *backend = NULL, *params = NULL;
    double time_limit = 0;
    if (!PyArg_ParseTuple(args, "iiLiO!zzd", &width, &height, &depth, &conn, &PyList_Type, &list,
                          &backend, &params, &time_limit))
        return NULL;
    const Py_ssize_t k = PyList_GET_SIZE(list);
    if (k < 1 || k > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "solve_slabs: no slabs");
        return NULL;
    }
    gcut_grid_slab *sl = PyMem_Calloc((size_t)k, sizeof *sl);
    Py_buffer *views = PyMem_Calloc((size_t)k, sizeof *views);
    if (!sl || !views) {
        PyMem_Free(sl);
        PyMem_Free(views);
        return PyErr_NoMemory();
    }
    Py_ssize_t got = 0;
    PyObject *out = NULL;
    for (Py_ssize_t i = 0; i < k; i++) {
        long long first;
        int planes, device;
        unsigned long long src, snk;
        PyObject *caps, *cut;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(list, i), "LiiKKO!O", &first, &planes, &device,
                              &src, &snk, &PyTuple_Type, &caps, &cut))
            goto done;
        sl[i].first = first;
        sl[i].planes = planes;
        sl[i].device = device;
        sl[i].cap_source = (const int32_t *)(uintptr_t)src;
        sl[i].cap_sink = (const int32_t *)(uintptr_t)snk;
        const Py_ssize_t nc = PyTuple_GET_SIZE(caps);
        if (nc > 26) {
            PyErr_SetString(PyExc_ValueError, "solve_slabs: more than 26 directions");
            goto done;
        }
        for (Py_ssize_t d = 0; d < nc; d++) {
            const unsigned long long p = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(caps, d));
            if (PyErr_Occurred())
                goto done;
            sl[i].cap[d] = (const int32_t *)(uintptr_t)p;
        }
        if (PyObject_GetBuffer(cut, &views[i], PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) != 0)
            goto done;
        got++;
        const long long plane = conn == 4 || conn == 8 ? width : (long long)width * height;
        if (views[i].len != plane * planes) {
            PyErr_Format(PyExc_ValueError, "solve_slabs: slab %zd's cut has %zd bytes, not %lld", i,
                         views[i].len, plane * planes);
            goto done;
        }
        sl[i].cut = views[i].buf;
    }
    {
        gcut_solve_options opt;
        fill_options(&opt, backend, 0, time_limit, 0);
        opt.params = params;
        int64_t flow = 0;
        gcut_stats stats;
        memset(&stats, 0, sizeof stats);
        PyThreadState *save = PyEval_SaveThread();
        const gcut_status st = gcut_grid_solve_slabs(width, height, (int64_t)depth, conn, sl,
                                                     (int32_t)k, &opt, &flow, &stats);
        PyEval_RestoreThread(save);
        if (st != GCUT_OK) {
            raise_status(st, NULL);
            goto done;
        }
        out = Py_BuildValue("L{sdsdsdsdsL}", (long long)flow, "total_ms", stats.total_ms,
                            "init_ms", stats.init_ms, "solve_ms", stats.solve_ms,
                            "transfer_ms", stats.transfer_ms, "sweeps", (long long)stats.rounds);
    }
done:
    for (Py_ssize_t i = 0; i < got; i++)
        PyBuffer_Release(&views[i]);
    PyMem_Free(views);
    PyMem_Free(sl);
    return out;
}

static PyMethodDef module_methods[] = {
    {"version", py_version, METH_NOARGS, "the library's version string"},
    {"backends", py_backends, METH_NOARGS,
     "[(name, available, reason, description, caps)] of the max-flow back ends"},
    {"status_string", py_status_string, METH_VARARGS, "name of a gcut_status"},
    {"read_dimacs", py_read_dimacs, METH_VARARGS,
     "read_dimacs(path) -> (Graph, source, sink, arcs, dropped)"},
    {"grid_direction", py_grid_direction, METH_VARARGS,
     "grid_direction(connectivity, dir) -> (dx, dy, dz)"},
    {"match", (PyCFunction)(void (*)(void))py_match, METH_VARARGS | METH_KEYWORDS,
     "match(rows, cols, n_rows, n_cols, backend='auto')"},
    {"solve_slabs", py_solve_slabs, METH_VARARGS,
     "solve_slabs(width, height, depth, connectivity, slabs, backend, params, time_limit)"},
    {"_register_errors", py_register_errors, METH_O, "internal"},
#ifdef GCUT_PY_HAVE_DEVICE
    {"device_available", py_device_available, METH_NOARGS,
     "device_available() -> (bool, reason): whether grids in device memory can be solved"},
    {"device_alloc", py_device_alloc, METH_VARARGS, "device_alloc(bytes) -> pointer"},
    {"device_free", py_device_free, METH_O, "device_free(pointer)"},
    {"device_copy", py_device_copy, METH_VARARGS,
     "device_copy(dst, src, bytes): pointers (ints) or host buffers"},
    {"dlpack_import", py_dlpack_import, METH_O,
     "dlpack_import(capsule) -> (holder, pointer, device_type, device_id, dtype, shape, strides)"},
    {"dlpack_export", py_dlpack_export, METH_VARARGS,
     "dlpack_export(owner, pointer, shape, (code, bits), device_id) -> capsule"},
#endif
#ifdef GCUT_PY_HAVE_F32
    {"graph_f32", py_graph_f32, METH_VARARGS,
     "graph_f32(n, src, dst, cap, rev_cap, tsrc, tsink, scale) -> (Graph, quantization)"},
#endif
#ifdef GCUT_PY_HAVE_VISION
    {"seeds_from_rect", py_seeds_from_rect, METH_VARARGS,
     "seeds_from_rect(width, height, x, y, w, h) -> seed bytes"},
    {"mrf", py_mrf, METH_VARARGS,
     "mrf(unary, width, height, depth, connectivity, labels_count, kind, lambda, trunc, table, "
     "weights, labels, swap, max_cycles, backend) -> (labels bytes, stats)"},
    {"stereo", py_stereo, METH_VARARGS,
     "stereo(left, right, width, height, channels, depth, ndisp, cost, smooth, lambda, trunc, "
     "tl_trunc, swap, lr_check, max_cycles, backend) -> (disparity bytes, stats)"},
    {"mbs", py_mbs, METH_VARARGS,
     "mbs(images, baselines, ndisp, cost, smooth, lambda, trunc, tl_trunc, combine, keep, "
     "swap, cycles, backend) -> (labels bytes, stats)"},
    {"sweep", py_sweep, METH_VARARGS,
     "sweep(images, cameras, ndepth, znear, zfar, radius, ncc_trunc, keep, mask_threshold, "
     "smooth, lambda, tl_trunc, cycles, backend) -> (labels bytes, depth bytes, stats)"},
    {"read_cameras", py_read_cameras, METH_VARARGS, "read_cameras(path) -> [(name, numbers)]"},
    {"load_image", py_load_image, METH_VARARGS,
     "load_image(path) -> (bytes, width, height, channels, depth)"},
    {"save_image", py_save_image, METH_VARARGS,
     "save_image(path, buffer, width, height, channels, depth)"},
    {"segment", py_segment, METH_VARARGS,
     "segment(image, width, height, channels, depth, seeds, iterations, lambda, connectivity, "
     "model, components, backend) -> (mask bytes, stats)"},
#endif
    {NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_gcut",
                                        "Low-level bindings of libgcut (use the gcut package).", -1,
                                        module_methods};

PyMODINIT_FUNC PyInit__gcut(void);

PyMODINIT_FUNC PyInit__gcut(void)
{
    if (PyType_Ready(&ResultType) < 0 || PyType_Ready(&GraphType) < 0 ||
        PyType_Ready(&GridType) < 0)
        return NULL;
#ifdef GCUT_PY_HAVE_VISION
    if (PyType_Ready(&SessionType) < 0)
        return NULL;
#endif
#ifdef GCUT_PY_HAVE_DEVICE
    if (PyType_Ready(&DeviceSolverType) < 0 || PyType_Ready(&DLHolderType) < 0)
        return NULL;
#endif
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    Py_INCREF(&ResultType);
    Py_INCREF(&GraphType);
    Py_INCREF(&GridType);
#ifdef GCUT_PY_HAVE_VISION
    Py_INCREF(&SessionType);
#endif
#ifdef GCUT_PY_HAVE_DEVICE
    Py_INCREF(&DeviceSolverType);
#endif
    if (PyModule_AddObject(m, "Result", (PyObject *)&ResultType) < 0 ||
        PyModule_AddObject(m, "Graph", (PyObject *)&GraphType) < 0 ||
        PyModule_AddObject(m, "Grid", (PyObject *)&GridType) < 0 ||
        PyModule_AddIntConstant(m, "SOURCE_LINK", GCUT_GRID_SOURCE_LINK) < 0 ||
#ifdef GCUT_PY_HAVE_VISION
        PyModule_AddObject(m, "Session", (PyObject *)&SessionType) < 0 ||
#endif
#ifdef GCUT_PY_HAVE_DEVICE
        PyModule_AddObject(m, "DeviceSolver", (PyObject *)&DeviceSolverType) < 0 ||
        PyModule_AddIntConstant(m, "HAVE_DEVICE", 1) < 0 ||
#else
        PyModule_AddIntConstant(m, "HAVE_DEVICE", 0) < 0 ||
#endif
        PyModule_AddIntConstant(m, "SINK_LINK", GCUT_GRID_SINK_LINK) < 0 ||
#ifdef GCUT_PY_HAVE_F32
        PyModule_AddIntConstant(m, "HAVE_F32", 1) < 0 ||
#else
        PyModule_AddIntConstant(m, "HAVE_F32", 0) < 0 ||
#endif
#ifdef GCUT_PY_HAVE_VISION
        PyModule_AddIntConstant(m, "HAVE_VISION", 1) < 0) {
#else
        PyModule_AddIntConstant(m, "HAVE_VISION", 0) < 0) {
#endif
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
