/*
 * image_jpeg.c - JPEG reader on libjpeg (libjpeg-turbo or any IJG v6b+ API).
 *
 * Format: ITU-T T.81 | ISO/IEC 10918-1 (baseline, extended, progressive,
 * arithmetic coding; libjpeg decodes them all) in JFIF or Adobe files.
 * Colour: gray stays one channel, YCbCr and RGB become RGB, and CMYK or
 * YCCK (which libjpeg turns into CMYK) are converted to RGB here. Adobe
 * applications store CMYK inverted (0 = full ink) and mark such files with
 * an APP14 "Adobe" segment; files with that segment are read as inverted
 * and others as plain CMYK, the rule most decoders follow. The conversion
 * is the naive one, R = (1 - C)(1 - K) etc., since no colour profile is
 * applied anywhere in gcut.
 *
 * Error handling. libjpeg reports fatal errors through error_exit, which
 * must not return: ours records the message code and text and longjmps to
 * the setjmp in jpeg_run(). As in image_png.c, everything that must survive
 * the jump (the decompressor, the image, the scratch row) lives in a
 * context owned by the caller of jpeg_run(), and jpeg_destroy_decompress()
 * releases libjpeg's own memory whatever state it was left in.
 *
 * libjpeg is lenient by default: when data runs out it warns and pads
 * with an EOI marker, and on corrupt entropy data it warns and fills
 * blocks with gray. Here the warnings that mean lost pixel data are fatal
 * (JWRN_HIT_MARKER: the decoder needed bits past the end of a segment,
 * JWRN_HUFF_BAD_CODE ...); harmless ones (extraneous bytes before a marker,
 * bogus ICC data ...) only go to the log. The data source still pads with
 * EOI when the file ends, because the Huffman decoder reads ahead of what
 * it needs: failing on the first read past the end would refuse files
 * whose pixels are all present and which lack only the final EOI. A file
 * that really is cut short then fails through JWRN_HIT_MARKER when a
 * pixel needs the missing bits, and is reported as truncated. Two kinds of
 * file give no such warning, so for them running out of data before every
 * scanline is out is an error by itself: files with several scans
 * (progressive), read whole by jpeg_start_decompress, where a scan can be
 * missing entirely; and arithmetic-coded files, whose decoder silently
 * feeds zeros after a marker.
 *
 * Denial-of-service guards: the size is checked against gcut's limits
 * before decoding starts; libjpeg's working memory (whole-image coefficient
 * buffers for progressive files) is capped through max_memory_to_use; and
 * a progress monitor stops files with absurdly many progressive scans,
 * each of which costs a pass over the whole image.
 */
#include <limits.h>
#include <setjmp.h>
#include <string.h>

#include "image/image_internal.h"

#ifdef GCUT_HAVE_JPEG

#include <jpeglib.h>
#include <jerror.h>

/* More scans than any real encoder writes (a full successive-approximation
 * progression of three components is a few dozen). */
#define JPEG_MAX_SCANS 500

typedef struct jpeg_ctx {
    struct jpeg_error_mgr err;
    struct jpeg_source_mgr src;
    struct jpeg_progress_mgr progress;
    struct jpeg_decompress_struct cinfo;
    jmp_buf jump;
    int created;   /* jpeg_create_decompress was called: destroy is owed */
    int finishing; /* every scanline is out */
    int ran_dry;   /* the data source was asked for bytes past the end */
    int too_many_scans;
    int code; /* libjpeg's message code of the failure */
    const char *func, *name;
    const uint8_t *buf;
    size_t size;
    gcut_image *img;
    uint8_t *row; /* one CMYK scanline */
    char msg[JMSG_LENGTH_MAX];
} jpeg_ctx;

static jpeg_ctx *jpeg_context(j_common_ptr c) { return (jpeg_ctx *)c->client_data; }

static void jpeg_on_error(j_common_ptr c)
{
    jpeg_ctx *j = jpeg_context(c);
    j->code = c->err->msg_code;
    (*c->err->format_message)(c, j->msg);
    longjmp(j->jump, 1);
}

/* Warnings that mean pixels were lost or made up. */
static int jpeg_fatal_warning(int code)
{
    return code == JWRN_HIT_MARKER || code == JWRN_HUFF_BAD_CODE || code == JWRN_MUST_RESYNC ||
           code == JWRN_ARITH_BAD_CODE;
}

static void jpeg_on_message(j_common_ptr c, int level)
{
    if (level >= 0) /* trace messages */
        return;
    jpeg_ctx *j = jpeg_context(c);
    if (jpeg_fatal_warning(c->err->msg_code))
        jpeg_on_error(c);
    /* Log the first warning only: corrupt files can produce thousands. */
    if (c->err->num_warnings++ == 0) {
        char text[JMSG_LENGTH_MAX];
        (*c->err->format_message)(c, text);
        gcut_i_log(NULL, GCUT_LOG_WARN, "%s: %s: libjpeg warning: %s", j->func, j->name, text);
    }
}

/* A data source over the whole file in memory (jpeg_mem_src is not in every
 * libjpeg, and this one decides what running dry means). */
static void jpeg_src_init(j_decompress_ptr c) { (void)c; }
static void jpeg_src_term(j_decompress_ptr c) { (void)c; }

/* Past the end: pad with an EOI marker, as libjpeg's own sources do (see
 * the file comment for why this is not an error by itself). */
static boolean jpeg_src_fill(j_decompress_ptr c)
{
    static const JOCTET eoi[2] = {0xff, JPEG_EOI};
    jpeg_ctx *j = jpeg_context((j_common_ptr)c);
    j->ran_dry = 1;
    if (j->finishing)
        WARNMS(c, JWRN_JPEG_EOF);
    c->src->next_input_byte = eoi;
    c->src->bytes_in_buffer = 2;
    return TRUE;
}

static void jpeg_src_skip(j_decompress_ptr c, long n)
{
    if (n <= 0)
        return;
    struct jpeg_source_mgr *s = c->src;
    while ((unsigned long)n > s->bytes_in_buffer) {
        n -= (long)s->bytes_in_buffer;
        s->bytes_in_buffer = 0;
        (void)(*s->fill_input_buffer)(c);
    }
    s->next_input_byte += n;
    s->bytes_in_buffer -= (size_t)n;
}

static void jpeg_on_progress(j_common_ptr c)
{
    if (!c->is_decompressor || ((j_decompress_ptr)c)->input_scan_number <= JPEG_MAX_SCANS)
        return;
    jpeg_ctx *j = jpeg_context(c);
    j->too_many_scans = 1;
    longjmp(j->jump, 1);
}

static gcut_status jpeg_failed(jpeg_ctx *j)
{
    const char *func = j->func, *name = j->name;
    if (j->too_many_scans)
        return gcut_i_fail(GCUT_ERR_PARSE, func,
                           "%s: more than %d progressive scans: refused as malformed", name,
                           JPEG_MAX_SCANS);
    if (j->ran_dry)
        return gcut_i_fail(GCUT_ERR_PARSE, func, "%s: truncated (libjpeg: %s)", name, j->msg);
    switch (j->code) {
    case JERR_OUT_OF_MEMORY:
        return gcut_i_fail(GCUT_ERR_NOMEM, func, "%s: out of memory (libjpeg: %s)", name, j->msg);
    case JERR_NO_BACKING_STORE:
    case JERR_IMAGE_TOO_BIG:
    case JERR_WIDTH_OVERFLOW:
        return gcut_i_fail(GCUT_ERR_OVERFLOW, func,
                           "%s: too large to decode within the size limit (libjpeg: %s)", name,
                           j->msg);
    case JERR_BAD_PRECISION:
    case JERR_NOT_COMPILED:
    case JERR_CONVERSION_NOTIMPL:
        return gcut_i_fail(GCUT_ERR_UNSUPPORTED, func, "%s: unsupported JPEG (libjpeg: %s)", name,
                           j->msg);
    default:
        return gcut_i_fail(GCUT_ERR_PARSE, func, "%s: corrupt JPEG (libjpeg: %s)", name, j->msg);
    }
}

/* Inverted (Adobe) CMYK stores 255 - ink, so the value itself is the
 * remaining light: R = C' K' / 255. Plain CMYK: R = (255 - C)(255 - K) / 255. */
static void jpeg_cmyk_to_rgb(const uint8_t *cmyk, uint8_t *rgb, size_t w, int inverted)
{
    for (size_t x = 0; x < w; x++) {
        uint32_t k = cmyk[4 * x + 3];
        if (!inverted)
            k = 255 - k;
        for (size_t i = 0; i < 3; i++) {
            uint32_t c = cmyk[4 * x + i];
            if (!inverted)
                c = 255 - c;
            rgb[3 * x + i] = (uint8_t)((c * k + 127) / 255);
        }
    }
}

/* The part that runs under setjmp: see the file comment. */
static gcut_status jpeg_run(jpeg_ctx *j)
{
    if (setjmp(j->jump))
        return jpeg_failed(j);
    struct jpeg_decompress_struct *c = &j->cinfo;
    j->created = 1;
    jpeg_create_decompress(c);
    /* Coefficient buffers of a progressive image take about two bytes per
     * sample; allow twice that over the pixel limit, then fail cleanly. */
    const uint64_t cap = 4 * GCUT_I_IMAGE_MAX_BYTES;
    c->mem->max_memory_to_use = cap > (uint64_t)LONG_MAX ? LONG_MAX : (long)cap;
    c->src = &j->src;
    c->progress = &j->progress;
    (void)jpeg_read_header(c, TRUE);

    int cmyk = 0;
    int32_t channels = 3;
    switch (c->jpeg_color_space) {
    case JCS_GRAYSCALE:
        c->out_color_space = JCS_GRAYSCALE;
        channels = 1;
        break;
    case JCS_YCbCr:
    case JCS_RGB:
        c->out_color_space = JCS_RGB;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        c->out_color_space = JCS_CMYK;
        cmyk = 1;
        break;
    default:
        return gcut_i_fail(GCUT_ERR_UNSUPPORTED, j->func,
                           "%s: unsupported JPEG colour space (%d components)", j->name,
                           (int)c->num_components);
    }
    gcut_status st = gcut_i_image_check_size(j->func, j->name, c->image_width, c->image_height,
                                             channels, 8, GCUT_ERR_PARSE, NULL);
    if (st != GCUT_OK)
        return st;
    (void)jpeg_start_decompress(c);
    if (j->ran_dry && jpeg_has_multiple_scans(c))
        return gcut_i_fail(GCUT_ERR_PARSE, j->func,
                           "%s: truncated (libjpeg: Premature end of JPEG file)", j->name);
    if (c->output_width != c->image_width || c->output_height != c->image_height ||
        c->output_components != (cmyk ? 4 : channels))
        return gcut_i_fail(GCUT_ERR_INTERNAL, j->func,
                           "%s: libjpeg gave %u x %u x %d for a %u x %u image of %d channels",
                           j->name, (unsigned)c->output_width, (unsigned)c->output_height,
                           c->output_components, (unsigned)c->image_width,
                           (unsigned)c->image_height, (int)channels);
    st = gcut_i_image_alloc(j->func, j->name, c->output_width, c->output_height, channels, 8,
                            GCUT_ERR_PARSE, &j->img);
    if (st != GCUT_OK)
        return st;
    if (cmyk) {
        j->row = gcut_i_malloc_array(c->output_width, 4);
        if (!j->row)
            return gcut_i_fail(GCUT_ERR_NOMEM, j->func, "%s: cannot allocate a scanline",
                               j->name);
    }
    while (c->output_scanline < c->output_height) {
        uint8_t *dst = j->img->data + (size_t)c->output_scanline * j->img->stride;
        JSAMPROW row = cmyk ? j->row : dst;
        if (jpeg_read_scanlines(c, &row, 1) != 1)
            return gcut_i_fail(GCUT_ERR_INTERNAL, j->func, "%s: libjpeg returned no scanline",
                               j->name);
        if (cmyk)
            jpeg_cmyk_to_rgb(j->row, dst, c->output_width, c->saw_Adobe_marker);
    }
    if (j->ran_dry && c->arith_code)
        return gcut_i_fail(GCUT_ERR_PARSE, j->func,
                           "%s: truncated (libjpeg: Premature end of JPEG file)", j->name);
    j->finishing = 1;
    (void)jpeg_finish_decompress(c);
    return GCUT_OK;
}

gcut_status gcut_i_jpeg_decode(const char *func, const char *name, const uint8_t *buf,
                               size_t size, gcut_image **out)
{
    jpeg_ctx j;
    memset(&j, 0, sizeof j);
    j.func = func;
    j.name = name;
    j.buf = buf;
    j.size = size;
    j.cinfo.err = jpeg_std_error(&j.err);
    j.err.error_exit = jpeg_on_error;
    j.err.emit_message = jpeg_on_message;
    j.cinfo.client_data = &j;
    j.src.next_input_byte = buf;
    j.src.bytes_in_buffer = size;
    j.src.init_source = jpeg_src_init;
    j.src.fill_input_buffer = jpeg_src_fill;
    j.src.skip_input_data = jpeg_src_skip;
    j.src.resync_to_restart = jpeg_resync_to_restart;
    j.src.term_source = jpeg_src_term;
    j.progress.progress_monitor = jpeg_on_progress;

    gcut_status st = jpeg_run(&j);
    if (j.created)
        jpeg_destroy_decompress(&j.cinfo);
    gcut_i_free(j.row);
    if (st != GCUT_OK) {
        gcut_image_free(j.img);
        return st;
    }
    *out = j.img;
    return GCUT_OK;
}

#else /* !GCUT_HAVE_JPEG */

gcut_status gcut_i_jpeg_decode(const char *func, const char *name, const uint8_t *buf,
                               size_t size, gcut_image **out)
{
    (void)buf;
    (void)size;
    (void)out;
    return gcut_i_fail(GCUT_ERR_UNSUPPORTED, func,
                       "%s: JPEG support is not built in (libjpeg was not found when gcut was "
                       "configured)",
                       name);
}

#endif /* GCUT_HAVE_JPEG */
