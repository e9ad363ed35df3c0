/*
 * eval.c - agreement of a segmentation with a ground truth: the error rate
 * of the interactive-segmentation benchmarks (Blake, Rother, Brown, Perez,
 * Torr, ECCV 2004: misclassified pixels over the pixels counted, with the
 * ground truth's unlabelled boundary band left out) and the intersection
 * over union of the foregrounds.
 */
#include "segment/segment_internal.h"

gcut_status gcut_seg_evaluate(const uint8_t *mask, const uint8_t *truth, const uint8_t *seeds,
                              int64_t count, gcut_seg_eval *out)
{
    GCUT_ENTRY();
    if (!mask || !truth || !out)
        return GCUT_FAIL(GCUT_ERR_INVALID, "NULL argument");
    if (count < 0)
        return GCUT_FAIL(GCUT_ERR_INVALID, "count %lld < 0", (long long)count);
    gcut_seg_eval r = {0};
    for (int64_t p = 0; p < count; p++) {
        const uint8_t t = truth[p];
        if (t != 0 && t != 255)
            continue; /* unlabelled in the ground truth */
        if (seeds && seeds[p] != GCUT_SEED_UNKNOWN)
            continue; /* outside the region asked for */
        const int fg_t = t == 255, fg_m = mask[p] != 0;
        r.counted++;
        r.errors += fg_t != fg_m;
        r.intersection += fg_t && fg_m;
        r.union_ += fg_t || fg_m;
    }
    r.error_rate = r.counted ? (double)r.errors / (double)r.counted : 0.0;
    r.iou = r.union_ ? (double)r.intersection / (double)r.union_ : 1.0;
    *out = r;
    return GCUT_OK;
}
