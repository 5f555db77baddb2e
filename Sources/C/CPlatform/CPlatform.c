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

#if defined(__linux__)
#include <stdint.h>
#include <sys/mman.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  /* Linux 5.14 */
#endif
/* The executable's zero-initialised data (.bss), from the linker's symbols. */
extern char __bss_start[] __attribute__((weak));
extern char _end[] __attribute__((weak));

/* Before anything else runs (the Swift runtime's own initialisers included), the executable's
 * .bss is mapped writable in one call. About two thirds of its pages are used in a first
 * screen: the runtime's and the program's lazy caches (metadata, witness tables, `swift_once`
 * tokens, globals) are read and then written there. Each page otherwise costs up to two page
 * faults, and once the second thread runs, the second (write after read) also stops the other
 * core to flush its TLB, which in a virtual machine is the most costly fault of all. (Figures
 * in docs/benchmarks.md, "Start-up".) Kernels before 5.14 refuse the advice; nothing changes
 * there. */
__attribute__((constructor(101))) static void folio_populate_bss(void) {
    if (!__bss_start || !_end || _end <= __bss_start) return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) return;
    uintptr_t start = (uintptr_t)__bss_start & ~(uintptr_t)(page - 1);
    uintptr_t end = ((uintptr_t)_end + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1);
    (void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
}
#endif
