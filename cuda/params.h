/*
 * params.h - parsing of the "key=value,key=value" settings string
 * (gcut_solve_options.params) for the plugin's back ends. The plugin does
 * not link libgcut, so it cannot use the core's parser; this one follows
 * the same rules: items separated by commas, empty items ignored, every
 * item needs a value, numbers must be whole and in range.
 */
#ifndef GCUT_CU_PARAMS_H
#define GCUT_CU_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "cuda_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One item of a settings string. */
typedef struct gcut_cu_param {
    const char *key;
    size_t key_len;
    const char *value;
    size_t value_len;
} gcut_cu_param;

/* Take the next item of *cursor (NULL or "" at the end): returns 1 with
 * *item filled and *cursor advanced, 0 at the end, -1 when an item has no
 * '=' (the item is still filled, value empty, so the caller can name it). */
GCUT_CU_HIDDEN int gcut_cu_param_next(const char **cursor, gcut_cu_param *item);

/* Whether the item's key is `key`. */
GCUT_CU_HIDDEN int gcut_cu_param_is(const gcut_cu_param *item, const char *key);

/* Whether the item's value is `word`. */
GCUT_CU_HIDDEN int gcut_cu_param_value_is(const gcut_cu_param *item, const char *word);

/* The item's value as a whole number in [lo, hi]: 0 on success. */
GCUT_CU_HIDDEN int gcut_cu_param_int(const gcut_cu_param *item, int64_t lo, int64_t hi,
                                     int64_t *out);

/* The item's value as a number in (0, 1e9]: 0 on success. */
GCUT_CU_HIDDEN int gcut_cu_param_double(const gcut_cu_param *item, double *out);

#ifdef __cplusplus
}
#endif

#endif /* GCUT_CU_PARAMS_H */
