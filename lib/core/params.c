/*
 * params.c - the "key=value,key=value" settings of gcut_solve_options.params,
 * parsed in one place for every CPU back end so that they accept the same
 * syntax and reject mistakes with the same messages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"

int gcut_i_param_next(const char **cursor, const char *who, gcut_i_param *out)
{
    const char *s = *cursor;
    if (!s || !*s)
        return 0;
    const char *end = strchr(s, ',');
    if (!end)
        end = s + strlen(s);
    const char *eq = memchr(s, '=', (size_t)(end - s));
    if (!eq || eq == s || end == eq + 1 || (size_t)(eq - s) >= sizeof out->key ||
        (size_t)(end - eq - 1) >= sizeof out->value) {
        gcut_i_fail(GCUT_ERR_INVALID, who, "malformed parameter '%.*s' (want key=value)",
                    (int)(end - s), s);
        return -1;
    }
    memcpy(out->key, s, (size_t)(eq - s));
    out->key[eq - s] = '\0';
    memcpy(out->value, eq + 1, (size_t)(end - eq - 1));
    out->value[end - eq - 1] = '\0';
    *cursor = *end ? end + 1 : end;
    return 1;
}

gcut_status gcut_i_param_int(const gcut_i_param *p, const char *who, int64_t lo, int64_t hi,
                             int64_t *out)
{
    char *stop;
    errno = 0;
    const long long x = strtoll(p->value, &stop, 10);
    if (*stop || errno || x < lo || x > hi)
        return gcut_i_fail(GCUT_ERR_INVALID, who, "%s=%s is not an integer in [%lld, %lld]", p->key,
                           p->value, (long long)lo, (long long)hi);
    *out = x;
    return GCUT_OK;
}

gcut_status gcut_i_param_double(const gcut_i_param *p, const char *who, double lo, double *out)
{
    char *stop;
    errno = 0;
    const double x = strtod(p->value, &stop);
    if (*stop || errno || !(x >= lo))
        return gcut_i_fail(GCUT_ERR_INVALID, who, "%s=%s is not a number >= %g", p->key, p->value,
                           lo);
    *out = x;
    return GCUT_OK;
}

gcut_status gcut_i_param_unknown(const gcut_i_param *p, const char *who, const char *known)
{
    if (!known || !*known)
        return gcut_i_fail(GCUT_ERR_INVALID, who, "unknown parameter '%s' (it takes none)", p->key);
    return gcut_i_fail(GCUT_ERR_INVALID, who, "unknown parameter '%s' (known: %s)", p->key, known);
}

gcut_status gcut_i_params_none(const char *params, const char *who)
{
    gcut_i_param p;
    const int r = gcut_i_param_next(&params, who, &p);
    if (r < 0)
        return GCUT_ERR_INVALID;
    return r > 0 ? gcut_i_param_unknown(&p, who, NULL) : GCUT_OK;
}
