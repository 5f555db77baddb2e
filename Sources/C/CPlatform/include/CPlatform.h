#ifndef FOLIO_CMALLOC_H
#define FOLIO_CMALLOC_H
// The C library's heap controls that folio uses (glibc's <malloc.h>), called by name: where
// the C library is not glibc, each is a no-op that says so. Swift reaches them through
// `Threads.Platform`.

// Whether the heap can give its free pages back (`folio_malloc_trim` does something).
int folio_malloc_can_trim(void);

// Gives the heap's free pages back to the system, keeping `pad` bytes at the top of the
// main heap (glibc's `malloc_trim`); 1 when memory was given back, 0 otherwise.
int folio_malloc_trim(unsigned long pad);

// Blocks of at least `bytes` are mapped on their own from now on (glibc's
// `mallopt(M_MMAP_THRESHOLD, bytes)`); 1 on success, 0 otherwise.
int folio_malloc_set_mmap_threshold(int bytes);

// Writes the heap's statistics to standard error (glibc's `malloc_stats`); 0 where there are
// none, 1 otherwise.
int folio_malloc_stats(void);

#endif
