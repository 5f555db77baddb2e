#define _GNU_SOURCE
#include "CPlatform.h"
#include <sched.h>
#include <time.h>
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

#if defined(__linux__) && defined(__GLIBC__)
/* The command line as glibc hands it to the executable's constructors, before any other. */
static int command_line_count;
static char **command_line;

__attribute__((constructor(101))) static void folio_keep_command_line(int argc, char **argv, char **envp) {
    (void)envp;
    command_line_count = argc;
    command_line = argv;
}

char **folio_command_line(int *count) {
    static char *none[] = {0};  /* (never NULL: Swift reads a non-optional pointer) */
    *count = command_line ? command_line_count : 0;
    return command_line ? command_line : none;
}

/* The Swift standard library's `CommandLine` asks the runtime for argc and argv through this
 * entry point. Defined here, it is the one a static link uses, and the runtime's own
 * definition (the archive member CommandLine.cpp.o, which defines nothing else anything
 * uses) is not linked: its static initialiser read /proc/self/maps line by line at every
 * start, before `main`, to find argv on the stack (0.04-0.09 ms). glibc passes argc and argv
 * to constructors; these are the same pointers `main` gets. A dynamically linked runtime
 * (debug builds) binds its own definition and never calls this one. The signature is the
 * runtime's (`SWIFT_CC(swift) char **(int *)`, unchanged since Swift 5.0). */
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    return folio_command_line(outArgLen);
}
#else
char **folio_command_line(int *count) {
    static char *none[] = {0};
    *count = 0;
    return none;
}
#endif

int folio_names_markdown(const unsigned char *path, unsigned long length) {
    static const char *const extensions[] = {"md", "markdown", "mdown", "mkd", "mkdn", "mdwn", "mdx"};
    for (unsigned long i = 0; i < length; i++) if (path[i] >= 0x80) return -1;
    unsigned long end = length;
    while (end > 0 && path[end - 1] == '/') end--;  /* (empty components) */
    unsigned long start = end;
    while (start > 0 && path[start - 1] != '/') start--;
    unsigned long dot = end;
    while (dot > start && path[dot - 1] != '.') dot--;
    if (dot <= start + 1) return 0;  /* no dot, or only a leading one */
    unsigned long n = end - dot;
    for (unsigned long k = 0; k < sizeof extensions / sizeof extensions[0]; k++) {
        const char *e = extensions[k];
        unsigned long i = 0;
        while (i < n && e[i] != 0) {
            unsigned char c = path[dot + i];
            if (c >= 'A' && c <= 'Z') c |= 0x20;
            if (c != (unsigned char)e[i]) break;
            i++;
        }
        if (i == n && e[i] == 0) return 1;
    }
    return 0;
}

/* The thread started before `main` for the early preview's parse (`EarlyPreview`). Creating
 * a thread on another core takes about 0.2 ms from the call to its first instruction: started
 * here, while the runtime's own constructors run, it is waiting when `main` hands it the parse.
 * The choice is the one `EarlyPreview.start(argc:argv:)` makes, for ASCII names (a test holds
 * the two to the same answers); any other case starts nothing here. */
static pthread_mutex_t early_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t early_cond = PTHREAD_COND_INITIALIZER;
static int early_state;  /* 0: none, 1: waiting, 2: given work, 3: let go */
static void *(*early_work)(void *);
static void *early_context;
static const char *early_path;  /* the argument it was started for (argv outlives main) */
static long long early_size;

/* The thread spins this long for its work before it sleeps: a sleeping thread on an idle core
 * took 75 us to wake (a virtual machine's halted core), more than `main` takes to hand it the
 * parse. Bounded, so a slow start does not keep a core busy. */
#define EARLY_SPIN_NANOSECONDS 5000000L

static void early_spin(void) {
    struct timespec start, now;
    if (clock_gettime(CLOCK_MONOTONIC, &start) != 0) return;
    for (unsigned i = 1;; i++) {
        if (__atomic_load_n(&early_state, __ATOMIC_ACQUIRE) != 1) return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ volatile("yield");
#endif
        if (i % 1024 == 0) {
            if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return;
            if ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) > EARLY_SPIN_NANOSECONDS) return;
        }
    }
}

static void *early_thread_main(void *unused) {
    (void)unused;
    folio_thread_unbind();
    early_spin();
    pthread_mutex_lock(&early_lock);
    while (early_state == 1) pthread_cond_wait(&early_cond, &early_lock);
    void *(*work)(void *) = early_state == 2 ? early_work : 0;
    void *context = early_context;
    pthread_mutex_unlock(&early_lock);
    return work ? work(context) : 0;
}

static int early_finish(int state, void *(*work)(void *), void *context) {
    pthread_mutex_lock(&early_lock);
    int waiting = early_state == 1;
    if (waiting) {
        early_work = work; early_context = context;
        __atomic_store_n(&early_state, state, __ATOMIC_RELEASE);  /* (read unlocked by early_spin) */
        pthread_cond_signal(&early_cond);
    }
    pthread_mutex_unlock(&early_lock);
    return waiting;
}

int folio_early_thread_give(void *(*work)(void *), void *context) { return early_finish(2, work, context); }

void folio_early_thread_let_go(void) { (void)early_finish(3, 0, 0); }

const char *folio_early_thread_path(long long *size) {
    pthread_mutex_lock(&early_lock);
    const char *path = early_state == 1 ? early_path : 0;
    if (path && size) *size = early_size;
    pthread_mutex_unlock(&early_lock);
    return path;
}

#if defined(__linux__) && defined(__GLIBC__)
#include <string.h>
#include <sys/stat.h>
/* glibc passes the command line to constructors. */
__attribute__((constructor(102))) static void folio_start_early_thread(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 2 || argv == 0 || isatty(1) != 1 || sysconf(_SC_NPROCESSORS_ONLN) < 2) return;
    const char *candidate = 0;
    for (int i = 1; i < argc && argv[i] != 0 && candidate == 0; i++) {
        const char *argument = argv[i];
        if (argument[0] == 0 || argument[0] == '-' || argument[0] == '+') continue;
        int named = folio_names_markdown((const unsigned char *)argument, strlen(argument));
        if (named < 0) return;
        if (named) candidate = argument;
    }
    struct stat info;
    if (candidate == 0 || stat(candidate, &info) != 0 || !S_ISREG(info.st_mode)
        || info.st_size <= FOLIO_EARLY_THREAD_MIN_SIZE) return;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return;
    pthread_attr_setstacksize(&attr, 8 << 20);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    (void)folio_thread_attr_other_core(&attr);
    early_state = 1;
    early_path = candidate;
    early_size = (long long)info.st_size;
    pthread_t thread;
    if (pthread_create(&thread, &attr, early_thread_main, 0) != 0) early_state = 0;
    pthread_attr_destroy(&attr);
}
#endif
