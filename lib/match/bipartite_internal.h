/*
 * bipartite_internal.h - the bipartite graph object shared by the reader,
 * the matchers and the checker. Never installed.
 */
#ifndef GCUT_BIPARTITE_INTERNAL_H
#define GCUT_BIPARTITE_INTERNAL_H

#include "core/core_internal.h"
#include "gcut/match.h"

/* Both adjacencies are kept: push-relabel and Hopcroft-Karp scan rows, the
 * global relabel and Karp-Sipser scan columns. Each row's columns are
 * distinct and in input order (first occurrence); likewise for columns. */
struct gcut_bipartite {
    int32_t nr, nc;
    int64_t m;       /* distinct edges */
    int64_t entries; /* entries given, duplicates included */
    int64_t *rptr;   /* nr + 1 */
    int32_t *radj;   /* m: columns of each row */
    int64_t *cptr;   /* nc + 1 */
    int32_t *cadj;   /* m: rows of each column */
};

/* Build from an edge list already checked to be in range (0-based). */
GCUT_HIDDEN gcut_status gcut_i_bipartite_build(gcut_bipartite **out, int32_t nr, int32_t nc,
                                               const int32_t *row, const int32_t *col,
                                               int64_t edges, int64_t entries);

#endif /* GCUT_BIPARTITE_INTERNAL_H */
