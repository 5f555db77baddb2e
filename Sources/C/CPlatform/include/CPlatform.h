#ifndef FOLIO_CPLATFORM_H
#define FOLIO_CPLATFORM_H
// What folio asks of the C library that Swift's Glibc module does not show: the heap's
// controls (glibc's <malloc.h>) and where a new thread starts (GNU's affinity calls), called
// by name: where the C library is not glibc, each is a no-op that says so. Swift reaches them
// through `Threads` only.

#include <pthread.h>

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

// Binds `attr` (a thread about to be created) to the cores this process may use other than
// the calling thread's; 1 when bound, 0 when nothing was changed (one core allowed, or no
// way to know). A thread so created calls `folio_thread_unbind` first.
int folio_thread_attr_other_core(pthread_attr_t *attr);

// Lets the calling thread run on every core the process's main thread may use.
void folio_thread_unbind(void);

#endif
