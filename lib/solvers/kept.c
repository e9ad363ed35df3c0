/*
 * kept.c - the engines whose records the graph keeps with its cached
 * layouts (solvers_internal.h, gcut_i_kept_engine): one row per slot of
 * the graph (GCUT_I_KEPT_SLOTS, graph/graph_internal.h).
 */
#include "graph/graph_internal.h"
#include "solvers/solvers_internal.h"

const gcut_i_kept_engine gcut_i_kept_engines[GCUT_I_KEPT_SLOTS] = {
    {&gcut_i_backend_bk, gcut_i_bk_layout, gcut_i_bk_solve_kept, gcut_i_bk_free},
    {&gcut_i_backend_eibfs, gcut_i_eibfs_layout, gcut_i_eibfs_solve_kept, gcut_i_eibfs_free},
};

int gcut_i_kept_slot(const gcut_backend *be)
{
    for (int i = 0; i < GCUT_I_KEPT_SLOTS; i++)
        if (gcut_i_kept_engines[i].backend == be)
            return i;
    return -1;
}
