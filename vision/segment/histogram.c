/*
 * histogram.c - colour histogram models for segmentation.
 *
 * Y. Boykov, M.-P. Jolly, "Interactive graph cuts for optimal boundary &
 * region segmentation of objects in N-D images", ICCV 2001, section 3:
 * the regional term of a pixel is -ln Pr(I_p | class), with the class
 * distributions taken from the intensity histograms of the seeds. We use
 * colour: each channel is cut into `bins` equal bins over [0, 256), giving
 * bins^3 cells.
 *
 * Invariants:
 *  - the probability of a cell is (count + 1) / (total + cells) (add-one,
 *    Laplace smoothing), so a colour no seed has is unlikely but possible
 *    and every cost is finite;
 *  - the cost is a density (per unit of RGB volume), so it does not depend
 *    on the number of bins beyond the model itself: -ln P(cell) + ln V,
 *    V = (256 / bins)^3 the volume of a cell.
 */
#include <math.h>
#include <string.h>

#include "segment/segment_internal.h"

gcut_status gcut_i_hist_fit(gcut_i_hist *h, int32_t bins, const float *rgb, int64_t n,
                            const uint8_t *select, uint8_t want)
{
    if (bins < 2 || bins > 64)
        return GCUT_FAIL(GCUT_ERR_INVALID, "histogram bins %d outside 2..64", (int)bins);
    const int32_t cells = bins * bins * bins;
    int64_t *count = gcut_i_calloc((size_t)cells, sizeof *count);
    float *nll = gcut_i_malloc_array(cells, sizeof *nll);
    if (!count || !nll) {
        gcut_i_free(count);
        gcut_i_free(nll);
        return GCUT_FAIL(GCUT_ERR_NOMEM, "out of memory (%d histogram cells)", (int)cells);
    }
    int64_t total = 0;
    for (int64_t p = 0; p < n; p++)
        if (select[p] == want) {
            count[gcut_i_hist_cell(bins, rgb + 3 * p)]++;
            total++;
        }
    if (total == 0) {
        gcut_i_free(count);
        gcut_i_free(nll);
        return GCUT_FAIL(GCUT_ERR_INVALID, "no pixel of class %u to learn a colour model from",
                         (unsigned)want);
    }
    const double log_volume = 3.0 * log(256.0 / bins);
    const double log_norm = log((double)total + (double)cells);
    for (int32_t c = 0; c < cells; c++)
        nll[c] = (float)(log_norm - log((double)count[c] + 1.0) + log_volume);
    gcut_i_free(count);
    gcut_i_hist_free(h);
    h->bins = bins;
    h->cells = cells;
    h->nll = nll;
    return GCUT_OK;
}

float gcut_i_hist_nll(const gcut_i_hist *h, const float *x)
{
    return h->nll[gcut_i_hist_cell(h->bins, x)];
}

void gcut_i_hist_free(gcut_i_hist *h)
{
    if (!h)
        return;
    gcut_i_free(h->nll);
    h->nll = NULL;
    h->bins = h->cells = 0;
}
