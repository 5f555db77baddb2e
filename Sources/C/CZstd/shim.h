#ifndef FOLIO_CZSTD_SHIM_H
#define FOLIO_CZSTD_SHIM_H
#include <zstd.h>
#endif
