#include "CMalloc.h"
#include <stdlib.h>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int folio_malloc_can_trim(void) {
#if defined(__GLIBC__)
    return 1;
#else
    return 0;
#endif
}

int folio_malloc_trim(unsigned long pad) {
#if defined(__GLIBC__)
    return malloc_trim(pad);
#else
    (void)pad;
    return 0;
#endif
}

int folio_malloc_set_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

int folio_malloc_stats(void) {
#if defined(__GLIBC__)
    malloc_stats();
    return 1;
#else
    return 0;
#endif
}
