/* dimacs.c - placeholder while the reader is being written. */
#include "graph/graph_internal.h"

gcut_status gcut_graph_read_dimacs(const char *path, gcut_graph **out, gcut_dimacs_info *info)
{
    return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "not implemented yet");
}
gcut_status gcut_graph_read_dimacs_file(FILE *f, const char *name, gcut_graph **out,
                                        gcut_dimacs_info *info)
{
    return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "not implemented yet");
}
gcut_status gcut_graph_write_dimacs(const gcut_graph *g, const char *path)
{
    return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "not implemented yet");
}
gcut_status gcut_graph_write_dimacs_file(const gcut_graph *g, FILE *f, const char *name)
{
    return GCUT_FAIL(GCUT_ERR_UNSUPPORTED, "not implemented yet");
}
