/*
 * stereo_cli.h - what gcut-stereo and gcut-mvs share: the options of the
 * two-view energy and of the disparity output, the progress bar, the
 * statistics and bad-pixel lines, and the disparity PNGs. Compiled into
 * both tools (demos/CMakeLists.txt); not part of the library. Messages go
 * through common/cli.h (the tool's name from cli_init).
 */
#ifndef GCUT_DEMOS_STEREO_CLI_H
#define GCUT_DEMOS_STEREO_CLI_H

#include <stdint.h>

#include "cli.h"
#include "gcut/gcut.h"
#include "gcut/vision/image.h"
#include "gcut/vision/stereo.h"

/* The shared options as given; -1 (or 0 where 0 is not allowed, NULL for
 * strings) means not given, so that each tool keeps its own defaults. */
typedef struct stereo_cli {
    cli_common c; /* back end, threads, params, limits, verbosity, progress, JSON */
    int32_t ndisp, lambda, trunc, tl_trunc, contrast_threshold, contrast_boost, cycles;
    int cost, smooth;
    const char *out, *gt_path;
    const char *pfm;   /* --pfm FILE (or --out FILE.pfm): float disparities, Middlebury PFM */
    const char *png16; /* --png16 FILE: 16-bit PNG of disparity * png16_scale */
    double scale, gt_scale, png16_scale;
} stereo_cli;

/* Refuse outputs that would overwrite an input (cli_check_outputs): the
 * picture o->out and its 16-bit twin (stereo_cli_path16; one file when
 * o->out ends with .pfm), --pfm, --png16, `extra` (NULL or another output)
 * against the nin paths of ins. o->out cannot be "-" unless it is a PFM
 * (two files are written). 0, or 2 (bad usage) after the message. */
int stereo_cli_check_outputs(const stereo_cli *o, const char *extra, const char *const *ins,
                             size_t nin);

/* Everything not given (gt_scale 1). */
void stereo_cli_init(stereo_cli *o);

/* The shared options as a cli_parse group (user: the stereo_cli): -n, -c,
 * -s, -l, -o and the long ones (--ndisp ... --png16-scale). */
cli_opts stereo_cli_group(stereo_cli *o);

/* cli_parse over the tool's own group and the shared ones, all of
 * cli_common's options into o->c: as cli_parse. */
int stereo_cli_parse(int argc, char **argv, const cli_opts *tool, stereo_cli *o, int *first);

/* 1 when path ends with .pfm (any case). */
int stereo_cli_is_pfm(const char *path);

/* The disparities (or depths) as a Middlebury PFM at path ("-": stdout),
 * through cli_open_output (atomic): "Pf", "W H", "-1.0" (little-endian),
 * then rows of 32-bit floats from the bottom row up; pixels with unknown
 * non-zero (unknown NULL: none) are +inf. 0, or 1 after a message. */
int stereo_cli_write_pfm(const char *path, const float *v, const uint8_t *unknown, int32_t w,
                         int32_t h);

/* The scale of --png16 for ndisp labels: --png16-scale, else
 * floor(65535 / (ndisp - 1)) (the largest disparity near white). */
double stereo_cli_png16_scale(const stereo_cli *o, int32_t ndisp);

/* The outputs of o (--out, --pfm, --png16) of a disparity map; 0, or 1
 * after a message. */
int stereo_cli_save_outputs(const stereo_cli *o, const int32_t *disp, int32_t w, int32_t h,
                            int32_t ndisp);

/* The given energy options into p (ndisp, cost, smoothness, cycles and
 * the max-flow options of the moves, p->mrf.solve; the rest is left as it
 * is). */
void stereo_cli_apply(const stereo_cli *o, gcut_stereo_options *p);

/* Where a parameter struct keeps the smoothness and the moves
 * (gcut_stereo_options, gcut_sweep_options). */
typedef struct stereo_cli_smooth {
    gcut_stereo_smooth *smooth;
    int32_t *lambda, *tl_trunc, *contrast_threshold, *contrast_boost;
    gcut_mrf_options *mrf;
} stereo_cli_smooth;

/* The given smoothness options, cycles and max-flow options (back end,
 * threads, engine settings, time limit: mrf->solve) into s. */
void stereo_cli_apply_smooth(const stereo_cli *o, const stereo_cli_smooth *s);

/* The progress bar of the moves on stderr (gcut_mrf_options::progress),
 * through cli_progress_draw: the share of the cycle's moves done, `cycle
 * K`, the move's label and the energy. */
typedef struct stereo_cli_progress {
    int enabled;
    int32_t labels, done;
} stereo_cli_progress;
void stereo_cli_on_move(void *user, int32_t cycle, int32_t label, int64_t energy, double ms);

/* Turn the bar on for mrf (when cli_progress_on) with labels moves a cycle. */
void stereo_cli_progress_on(gcut_mrf_options *mrf, stereo_cli_progress *bar, int32_t labels);

/* `backend:` to `total:` of the solve, one item per line on stdout. */
void stereo_cli_print_stats(const gcut_mrf_stats *st);

/* A ground truth of another size than the images: reported, 0 returned. */
int stereo_cli_check_gt(const gcut_image *gt, int32_t w, int32_t h, const char *what);

/* `badT-all:` for T = 1, 2 and, with a mask, `badT-nonocc:`. */
gcut_status stereo_cli_print_bad(const int32_t *disp, const gcut_image *gt, double gt_scale,
                                 const gcut_image *mask);

/* FILE.png -> FILE-16.png (any other name: -16.png appended); NULL when
 * out of memory. */
char *stereo_cli_path16(const char *path);

/* A picture at path and its exact 16-bit values at
 * stereo_cli_path16(path). */
gcut_status stereo_cli_save_pair(const gcut_image *pic, const gcut_image *img16, const char *path);

/* The disparities as an 8-bit PNG of disp * scale at path and exactly as a
 * 16-bit PNG at stereo_cli_path16(path). */
gcut_status stereo_cli_save_disp(const int32_t *disp, int32_t w, int32_t h, double scale,
                                 const char *path);

#endif
