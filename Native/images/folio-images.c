// folio's image codec, built as a plugin (folio-images.so, by scripts/build-grammars.sh) and
// loaded by folio on the first image it shows: decoding (libpng, libjpeg-turbo, giflib,
// libwebp, librsvg) and drawing for the terminal (libchafa) pull in some twenty shared
// libraries (glib, cairo, pango, ...), which would otherwise load at every start of every
// folio, images or not. A folio without the plugin shows images as their placeholder.
//
// The one exported symbol is folio_images_api(): a table whose layout is
// Sources/C/CImages/include/CImages.h (the version says which).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <stdio.h>

#include <png.h>
#include <jpeglib.h>
#include <gif_lib.h>
#include <webp/decode.h>
#include <librsvg/rsvg.h>
#include <cairo.h>
#include <chafa.h>

#include "../../Sources/C/CImages/include/CImages.h"

// ---- decoding: bytes -> RGBA8 (straight alpha), refused above max_pixels ----

static unsigned char *decode_png(const unsigned char *b, size_t n, long max, int *w, int *h) {
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&img, b, n)) return NULL;
    if ((long)img.width * (long)img.height > max || img.width == 0 || img.height == 0) { png_image_free(&img); return NULL; }
    img.format = PNG_FORMAT_RGBA;
    unsigned char *px = malloc(PNG_IMAGE_SIZE(img));
    if (!px) { png_image_free(&img); return NULL; }
    if (!png_image_finish_read(&img, NULL, px, 0, NULL)) { free(px); png_image_free(&img); return NULL; }
    *w = (int)img.width; *h = (int)img.height;
    return px;
}

struct jpeg_fail { struct jpeg_error_mgr mgr; jmp_buf jump; };
static void jpeg_fail_exit(j_common_ptr c) { longjmp(((struct jpeg_fail *)c->err)->jump, 1); }
static void jpeg_quiet(j_common_ptr c) { (void)c; }

static unsigned char *decode_jpeg(const unsigned char *b, size_t n, long max, int *w, int *h) {
    struct jpeg_decompress_struct d;
    struct jpeg_fail fail;
    unsigned char *volatile px = NULL;
    d.err = jpeg_std_error(&fail.mgr);
    fail.mgr.error_exit = jpeg_fail_exit;
    fail.mgr.output_message = jpeg_quiet;
    if (setjmp(fail.jump)) { jpeg_destroy_decompress(&d); free(px); return NULL; }
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, b, (unsigned long)n);
    jpeg_read_header(&d, TRUE);
    if ((long)d.image_width * (long)d.image_height > max) { jpeg_destroy_decompress(&d); return NULL; }
    d.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&d);
    int W = (int)d.output_width, H = (int)d.output_height;
    px = malloc((size_t)W * H * 4);
    if (!px) { jpeg_destroy_decompress(&d); return NULL; }
    while (d.output_scanline < d.output_height) {
        JSAMPROW row = px + (size_t)d.output_scanline * W * 4;
        jpeg_read_scanlines(&d, &row, 1);
    }
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    *w = W; *h = H;
    return px;
}

struct gif_src { const unsigned char *b; size_t n, at; };
static int gif_read(GifFileType *g, GifByteType *out, int want) {
    struct gif_src *s = g->UserData;
    size_t k = (size_t)want;
    if (k > s->n - s->at) k = s->n - s->at;
    memcpy(out, s->b + s->at, k);
    s->at += k;
    return (int)k;
}

// The first frame, drawn on a transparent canvas of the logical screen's size.
static unsigned char *decode_gif(const unsigned char *b, size_t n, long max, int *w, int *h) {
    struct gif_src src = { b, n, 0 };
    int err = 0;
    GifFileType *g = DGifOpen(&src, gif_read, &err);
    if (!g) return NULL;
    unsigned char *px = NULL;
    if ((long)g->SWidth * (long)g->SHeight > max || g->SWidth <= 0 || g->SHeight <= 0) goto done;
    // Reads records up to the first image only (DGifSlurp would decode every frame).
    GifRecordType rec;
    int transparent = -1;
    do {
        if (DGifGetRecordType(g, &rec) == GIF_ERROR) goto done;
        if (rec == EXTENSION_RECORD_TYPE) {
            int code; GifByteType *ext;
            if (DGifGetExtension(g, &code, &ext) == GIF_ERROR) goto done;
            while (ext) {
                if (code == GRAPHICS_EXT_FUNC_CODE && ext[0] >= 4 && (ext[1] & 1)) transparent = ext[4];
                if (DGifGetExtensionNext(g, &ext) == GIF_ERROR) goto done;
            }
        } else if (rec == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(g) == GIF_ERROR) goto done;
            GifImageDesc *im = &g->Image;
            ColorMapObject *map = im->ColorMap ? im->ColorMap : g->SColorMap;
            if (!map || im->Width <= 0 || im->Height <= 0 || (long)im->Width * im->Height > max) goto done;
            GifByteType *idx = malloc((size_t)im->Width * im->Height);
            if (!idx) goto done;
            int ok = 1;
            if (im->Interlace) {
                static const int start[] = {0, 4, 2, 1}, step[] = {8, 8, 4, 2};
                for (int p = 0; p < 4 && ok; p++)
                    for (int y = start[p]; y < im->Height && ok; y += step[p])
                        ok = DGifGetLine(g, idx + (size_t)y * im->Width, im->Width) != GIF_ERROR;
            } else {
                for (int y = 0; y < im->Height && ok; y++)
                    ok = DGifGetLine(g, idx + (size_t)y * im->Width, im->Width) != GIF_ERROR;
            }
            if (!ok) { free(idx); goto done; }
            px = calloc((size_t)g->SWidth * g->SHeight, 4);
            if (px) {
                for (int y = 0; y < im->Height; y++) {
                    int sy = im->Top + y;
                    if (sy < 0 || sy >= g->SHeight) continue;
                    for (int x = 0; x < im->Width; x++) {
                        int sx = im->Left + x;
                        if (sx < 0 || sx >= g->SWidth) continue;
                        int c = idx[(size_t)y * im->Width + x];
                        if (c == transparent || c >= map->ColorCount) continue;
                        unsigned char *o = px + ((size_t)sy * g->SWidth + sx) * 4;
                        o[0] = map->Colors[c].Red; o[1] = map->Colors[c].Green; o[2] = map->Colors[c].Blue; o[3] = 255;
                    }
                }
                *w = g->SWidth; *h = g->SHeight;
            }
            free(idx);
            goto done;
        }
    } while (rec != TERMINATE_RECORD_TYPE);
done:
    DGifCloseFile(g, &err);
    return px;
}

static unsigned char *decode_webp(const unsigned char *b, size_t n, long max, int *w, int *h) {
    int W = 0, H = 0;
    if (!WebPGetInfo(b, n, &W, &H) || (long)W * H > max) return NULL;
    uint8_t *webp = WebPDecodeRGBA(b, n, &W, &H);
    if (!webp) return NULL;
    // Copied into malloc's memory: every image is freed with one free().
    unsigned char *px = malloc((size_t)W * H * 4);
    if (px) memcpy(px, webp, (size_t)W * H * 4);
    WebPFree(webp);
    *w = W; *h = H;
    return px;
}

// An SVG at its own size (96 dpi); without one, 512 pixels on its longer side.
static unsigned char *decode_svg(const unsigned char *b, size_t n, long max, int *w, int *h) {
    GError *err = NULL;
    RsvgHandle *svg = rsvg_handle_new_from_data(b, n, &err);
    if (!svg) { if (err) g_error_free(err); return NULL; }
    rsvg_handle_set_dpi(svg, 96);
    double dw = 0, dh = 0;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(svg, &dw, &dh) || dw < 1 || dh < 1) {
        RsvgRectangle ink, logical;
        if (rsvg_handle_get_geometry_for_element(svg, NULL, &ink, &logical, NULL) && logical.width >= 1 && logical.height >= 1) {
            double k = 512.0 / (logical.width > logical.height ? logical.width : logical.height);
            dw = logical.width * k; dh = logical.height * k;
        } else { dw = 512; dh = 512; }
    }
    if (dw > 16384) { dh = dh * 16384 / dw; dw = 16384; }
    if (dh > 16384) { dw = dw * 16384 / dh; dh = 16384; }
    int W = (int)(dw + 0.5), H = (int)(dh + 0.5);
    if (W < 1) W = 1;
    if (H < 1) H = 1;
    unsigned char *px = NULL;
    if ((long)W * H > max) goto out;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create(surface);
    RsvgRectangle viewport = { 0, 0, W, H };
    gboolean drawn = rsvg_handle_render_document(svg, cr, &viewport, NULL);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    if (drawn && cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS) {
        px = malloc((size_t)W * H * 4);
        const unsigned char *src = cairo_image_surface_get_data(surface);
        int stride = cairo_image_surface_get_stride(surface);
        for (int y = 0; px && y < H; y++) {
            const uint32_t *row = (const uint32_t *)(src + (size_t)y * stride);
            for (int x = 0; x < W; x++) {
                uint32_t p = row[x];  // premultiplied ARGB in native order
                unsigned a = p >> 24, r = (p >> 16) & 255, g = (p >> 8) & 255, bl = p & 255;
                unsigned char *o = px + ((size_t)y * W + x) * 4;
                if (a == 0) { o[0] = o[1] = o[2] = o[3] = 0; continue; }
                o[0] = (unsigned char)(r * 255 / a); o[1] = (unsigned char)(g * 255 / a);
                o[2] = (unsigned char)(bl * 255 / a); o[3] = (unsigned char)a;
            }
        }
    }
    cairo_surface_destroy(surface);
out:
    g_object_unref(svg);
    if (px) { *w = W; *h = H; }
    return px;
}

static int is_svg(const unsigned char *b, size_t n) {
    size_t k = n < 4096 ? n : 4096;
    for (size_t i = 0; i + 4 <= k; i++) if (memcmp(b + i, "<svg", 4) == 0) return 1;
    return 0;
}

static unsigned char *api_decode(const unsigned char *b, size_t n, long max_pixels, int *w, int *h) {
    *w = *h = 0;
    if (!b || n < 12) return NULL;
    if (memcmp(b, "\x89PNG", 4) == 0) return decode_png(b, n, max_pixels, w, h);
    if (b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) return decode_jpeg(b, n, max_pixels, w, h);
    if (memcmp(b, "GIF8", 4) == 0) return decode_gif(b, n, max_pixels, w, h);
    if (memcmp(b, "RIFF", 4) == 0 && memcmp(b + 8, "WEBP", 4) == 0) return decode_webp(b, n, max_pixels, w, h);
    if (is_svg(b, n)) return decode_svg(b, n, max_pixels, w, h);
    return NULL;
}

// ---- drawing with chafa ----

static ChafaCanvas *canvas_for(ChafaPixelMode mode, int cols, int rows, int cell_w, int cell_h, uint32_t bg) {
    ChafaCanvasConfig *cfg = chafa_canvas_config_new();
    chafa_canvas_config_set_geometry(cfg, cols, rows);
    chafa_canvas_config_set_canvas_mode(cfg, CHAFA_CANVAS_MODE_TRUECOLOR);
    chafa_canvas_config_set_pixel_mode(cfg, mode);
    if (cell_w > 0 && cell_h > 0) chafa_canvas_config_set_cell_geometry(cfg, cell_w, cell_h);
    chafa_canvas_config_set_bg_color(cfg, bg);
    if (mode == CHAFA_PIXEL_MODE_SYMBOLS) {
        // Block elements only: every terminal font has them, each one column wide.
        ChafaSymbolMap *map = chafa_symbol_map_new();
        chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_SOLID | CHAFA_SYMBOL_TAG_HALF | CHAFA_SYMBOL_TAG_QUAD);
        chafa_canvas_config_set_symbol_map(cfg, map);
        chafa_symbol_map_unref(map);
    }
    ChafaCanvas *canvas = chafa_canvas_new(cfg);
    chafa_canvas_config_unref(cfg);
    return canvas;
}

static int api_symbols(const unsigned char *rgba, int w, int h, int cols, int rows, uint32_t bg,
                       uint32_t *chars, int32_t *fg_out, int32_t *bg_out) {
    if (!rgba || w <= 0 || h <= 0 || cols <= 0 || rows <= 0) return 0;
    ChafaCanvas *canvas = canvas_for(CHAFA_PIXEL_MODE_SYMBOLS, cols, rows, 0, 0, bg);
    if (!canvas) return 0;
    chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, rgba, w, h, w * 4);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            gint fg = -1, bgc = -1;
            chars[y * cols + x] = chafa_canvas_get_char_at(canvas, x, y);
            chafa_canvas_get_colors_at(canvas, x, y, &fg, &bgc);
            fg_out[y * cols + x] = fg; bg_out[y * cols + x] = bgc;
        }
    chafa_canvas_unref(canvas);
    return 1;
}

static char *api_sixel(const unsigned char *rgba, int w, int h, int cols, int rows, int cell_w, int cell_h,
                       uint32_t bg, size_t *len) {
    *len = 0;
    if (!rgba || w <= 0 || h <= 0 || cols <= 0 || rows <= 0) return NULL;
    ChafaCanvas *canvas = canvas_for(CHAFA_PIXEL_MODE_SIXELS, cols, rows, cell_w, cell_h, bg);
    if (!canvas) return NULL;
    chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, rgba, w, h, w * 4);
    ChafaTermInfo *ti = chafa_term_db_get_fallback_info(chafa_term_db_get_default());
    GString *s = chafa_canvas_print(canvas, ti);
    chafa_term_info_unref(ti);
    chafa_canvas_unref(canvas);
    if (!s) return NULL;
    char *out = malloc(s->len + 1);
    if (out) { memcpy(out, s->str, s->len); out[s->len] = 0; *len = s->len; }
    g_string_free(s, TRUE);
    return out;
}

static void api_free(void *p) { free(p); }

// Straight RGBA <-> cairo's premultiplied native-endian ARGB.
static unsigned char *api_scale(const unsigned char *rgba, int w, int h, int nw, int nh) {
    if (!rgba || w <= 0 || h <= 0 || nw <= 0 || nh <= 0 || (long)nw * nh > 100000000L) return NULL;
    cairo_surface_t *src = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_surface_t *dst = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, nw, nh);
    unsigned char *out = NULL;
    if (cairo_surface_status(src) != CAIRO_STATUS_SUCCESS || cairo_surface_status(dst) != CAIRO_STATUS_SUCCESS) goto done;
    cairo_surface_flush(src);
    unsigned char *s = cairo_image_surface_get_data(src);
    int ss = cairo_image_surface_get_stride(src);
    for (int y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(s + (size_t)y * ss);
        for (int x = 0; x < w; x++) {
            const unsigned char *p = rgba + ((size_t)y * w + x) * 4;
            unsigned a = p[3];
            row[x] = (a << 24) | ((p[0] * a / 255) << 16) | ((p[1] * a / 255) << 8) | (p[2] * a / 255);
        }
    }
    cairo_surface_mark_dirty(src);
    cairo_t *cr = cairo_create(dst);
    cairo_scale(cr, (double)nw / w, (double)nh / h);
    cairo_set_source_surface(cr, src, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(dst);
    out = malloc((size_t)nw * nh * 4);
    if (!out) goto done;
    const unsigned char *d = cairo_image_surface_get_data(dst);
    int ds = cairo_image_surface_get_stride(dst);
    for (int y = 0; y < nh; y++) {
        const uint32_t *row = (const uint32_t *)(d + (size_t)y * ds);
        for (int x = 0; x < nw; x++) {
            uint32_t p = row[x];
            unsigned a = p >> 24;
            unsigned char *o = out + ((size_t)y * nw + x) * 4;
            if (a == 0) { o[0] = o[1] = o[2] = o[3] = 0; continue; }
            o[0] = (unsigned char)(((p >> 16) & 255) * 255 / a); o[1] = (unsigned char)(((p >> 8) & 255) * 255 / a);
            o[2] = (unsigned char)((p & 255) * 255 / a); o[3] = (unsigned char)a;
        }
    }
done:
    cairo_surface_destroy(src);
    cairo_surface_destroy(dst);
    return out;
}

static unsigned char *api_png(const unsigned char *rgba, int w, int h, size_t *len) {
    *len = 0;
    if (!rgba || w <= 0 || h <= 0) return NULL;
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)w; img.height = (png_uint_32)h;
    img.format = PNG_FORMAT_RGBA;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&img, NULL, &size, 0, rgba, 0, NULL) || size == 0) return NULL;
    unsigned char *out = malloc(size);
    if (!out) return NULL;
    if (!png_image_write_to_memory(&img, out, &size, 0, rgba, 0, NULL)) { free(out); return NULL; }
    *len = size;
    return out;
}

static const FolioImagesAPI api = {
    .version = FOLIO_IMAGES_API_VERSION,
    .decode = api_decode,
    .symbols = api_symbols,
    .sixel = api_sixel,
    .free = api_free,
    .scale = api_scale,
    .png = api_png,
};

__attribute__((visibility("default"))) const FolioImagesAPI *folio_images_api(void) { return &api; }
