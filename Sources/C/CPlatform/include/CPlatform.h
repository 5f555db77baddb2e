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

// The thread started before `main` (Linux): when standard output is a terminal, there is
// another core, and an argument names a Markdown file larger than
// FOLIO_EARLY_THREAD_MIN_SIZE (the rule of `EarlyPreview`), a constructor starts a thread on
// another core that waits for its work. `folio_early_thread_give` hands it `work(context)`
// (1), or says there is no such thread or it was given already (0); `folio_early_thread_let_go`
// lets it end unused. Both are for `main`'s first lines, from one thread.
// FOLIO_EARLY_THREAD_MIN_SIZE is also the preview's threshold (`Launch.previewThreshold`):
// larger Markdown files open from a preview of their beginning.
#define FOLIO_EARLY_THREAD_MIN_SIZE (128 * 1024)
int folio_early_thread_give(void *(*work)(void *), void *context);
void folio_early_thread_let_go(void);
// The argument the thread was started for, and its size then (bytes), while it waits for its
// work; NULL when there is no such thread (then `*size` is left alone).
const char *folio_early_thread_path(long long *size);

// Whether a path (its bytes) is named like a Markdown file, by the extension of its last
// component in any ASCII case (as `KindDetector` reads names): 1 or 0, or -1 when the path
// is not ASCII (then the constructor above leaves the choice to Swift).
int folio_names_markdown(const unsigned char *path, unsigned long length);

// The command line (argv, its count in `*count`) as glibc gave it to the executable's
// constructors: what `main` gets, and what the Swift runtime's `CommandLine` reads in a
// static link (see CPlatform.c). An empty list (count 0) without glibc.
char **folio_command_line(int *count);

#endif
