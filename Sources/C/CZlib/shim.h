#ifndef FOLIO_CZLIB_SHIM_H
#define FOLIO_CZLIB_SHIM_H
#include <zlib.h>

/// zlib's `inflateInit2` is a macro (it passes the header's version and the stream's size,
/// which the library checks), so Swift cannot call it: this is it as a function. Window bits
/// 15 + 32: the largest window, and a gzip or zlib header recognised by itself.
static inline int folio_inflate_init(z_stream *stream) {
    return inflateInit2(stream, 15 + 32);
}
#endif
