#ifndef FOLIO_CLZMA_SHIM_H
#define FOLIO_CLZMA_SHIM_H
#include <lzma.h>

/// An .xz decoder on `stream` (zeroed, as LZMA_STREAM_INIT leaves it) that takes concatenated
/// .xz streams and their padding as one file, as `xz -d` does, with no memory limit. (The
/// flag is a macro Swift does not import.)
static inline lzma_ret folio_lzma_xz_decoder(lzma_stream *stream) {
    return lzma_stream_decoder(stream, UINT64_MAX, LZMA_CONCATENATED);
}
#endif
