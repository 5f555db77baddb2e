#define _GNU_SOURCE
#include "CPlatform.h"
#include <sched.h>
#include <unistd.h>
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

int folio_thread_attr_other_core(pthread_attr_t *attr) {
#if defined(__GLIBC__)
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 0;
    int current = sched_getcpu();
    if (current < 0 || current >= CPU_SETSIZE || !CPU_ISSET(current, &allowed)) return 0;
    CPU_CLR(current, &allowed);
    if (CPU_COUNT(&allowed) == 0) return 0;
    return pthread_attr_setaffinity_np(attr, sizeof allowed, &allowed) == 0;
#else
    (void)attr;
    return 0;
#endif
}

void folio_thread_unbind(void) {
#if defined(__GLIBC__)
    cpu_set_t allowed;
    // (On Linux the process's id names its main thread.)
    if (sched_getaffinity(getpid(), sizeof allowed, &allowed) == 0) {
        pthread_setaffinity_np(pthread_self(), sizeof allowed, &allowed);
    }
#endif
}
