#ifndef FOLIO_CBZIP2_SHIM_H
#define FOLIO_CBZIP2_SHIM_H
#include <bzlib.h>
#endif
