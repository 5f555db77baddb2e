#ifndef FOLIO_CIMAGES_H
#define FOLIO_CIMAGES_H
// The image codec plugin's interface (Native/images/folio-images.c, built into folio-images.so
// beside the grammars): one table of functions, found with one dlsym. A change to the table
// changes the version; a plugin of another version is not used.
#include <stddef.h>
#include <stdint.h>

#define FOLIO_IMAGES_API_VERSION 2

typedef struct {
    int version;
    /// An image file's bytes (PNG, JPEG, GIF's first frame, WebP, SVG) as RGBA8 with straight
    /// alpha, or NULL (not an image, damaged, or more than max_pixels). Free with `free`.
    unsigned char *(*decode)(const unsigned char *bytes, size_t length, long max_pixels, int *width, int *height);
    /// The image drawn as cols x rows cells of block elements (chafa's symbol mode, 24-bit
    /// colour, transparent parts blended over bg, 0xRRGGBB): a code point and a foreground and
    /// background colour per cell (0xRRGGBB, or -1: none). 0 on failure.
    int (*symbols)(const unsigned char *rgba, int width, int height, int cols, int rows, uint32_t bg,
                   uint32_t *chars, int32_t *fg, int32_t *bgs);
    /// The image as sixel data filling cols x rows cells of cell_w x cell_h pixels (chafa's
    /// sixel mode), NUL-terminated, or NULL. Free with `free`.
    char *(*sixel)(const unsigned char *rgba, int width, int height, int cols, int rows, int cell_w, int cell_h,
                   uint32_t bg, size_t *length);
    void (*free)(void *);
    /// The image resampled to new_width x new_height (cairo's good filter), RGBA8 straight
    /// alpha, or NULL. Free with `free`.
    unsigned char *(*scale)(const unsigned char *rgba, int width, int height, int new_width, int new_height);
    /// The image as a PNG file (libpng), or NULL. Free with `free`.
    unsigned char *(*png)(const unsigned char *rgba, int width, int height, size_t *length);
} FolioImagesAPI;

/// Loads the plugin at `path` (dlopen, dlsym of `folio_images_api`, the version checked):
/// the table, or NULL with a reason in `problem` (a static or thread-local string).
const FolioImagesAPI *folio_images_load(const char *path, const char **problem);

#endif
