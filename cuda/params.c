/*
 * params.c - the plugin's parser of "key=value,key=value" settings
 * (params.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"

int gcut_cu_param_next(const char **cursor, gcut_cu_param *item)
{
    const char *p = *cursor;
    if (!p)
        return 0;
    while (*p == ',') /* tolerate ",," and a trailing comma */
        p++;
    if (!*p) {
        *cursor = p;
        return 0;
    }
    const char *end = strchr(p, ',');
    if (!end)
        end = p + strlen(p);
    const char *eq = memchr(p, '=', (size_t)(end - p));
    item->key = p;
    *cursor = *end ? end + 1 : end;
    if (!eq) {
        item->key_len = (size_t)(end - p);
        item->value = end;
        item->value_len = 0;
        return -1;
    }
    item->key_len = (size_t)(eq - p);
    item->value = eq + 1;
    item->value_len = (size_t)(end - eq - 1);
    return 1;
}

int gcut_cu_param_is(const gcut_cu_param *item, const char *key)
{
    return strlen(key) == item->key_len && memcmp(item->key, key, item->key_len) == 0;
}

int gcut_cu_param_value_is(const gcut_cu_param *item, const char *word)
{
    return strlen(word) == item->value_len && memcmp(item->value, word, item->value_len) == 0;
}

/* Copy the value into a terminated buffer; -1 when it does not fit. */
static int value_copy(const gcut_cu_param *item, char *buf, size_t size)
{
    if (item->value_len == 0 || item->value_len >= size)
        return -1;
    memcpy(buf, item->value, item->value_len);
    buf[item->value_len] = '\0';
    return 0;
}

int gcut_cu_param_int(const gcut_cu_param *item, int64_t lo, int64_t hi, int64_t *out)
{
    char buf[32];
    if (value_copy(item, buf, sizeof buf) != 0)
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int gcut_cu_param_double(const gcut_cu_param *item, double *out)
{
    char buf[64];
    if (value_copy(item, buf, sizeof buf) != 0)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (errno || *end || !(v > 0.0) || v > 1e9)
        return -1;
    *out = v;
    return 0;
}
