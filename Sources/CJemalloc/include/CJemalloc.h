#ifndef CJEMALLOC_H
#define CJEMALLOC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
/// jemalloc's mallctl, found at run time with dlsym (NULL when jemalloc is not loaded).
typedef int (*cjemalloc_mallctl_fn)(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
cjemalloc_mallctl_fn cjemalloc_find_mallctl(void);

/// The helpers below return 0 on success and an errno-style code otherwise (ENOENT when jemalloc is not loaded).
int cjemalloc_read_u64(const char *name, uint64_t *value);
int cjemalloc_read_bool(const char *name, bool *value);
int cjemalloc_write_bool(const char *name, bool value);
/// Refreshes the statistics that `stats.*` reads (jemalloc merges them lazily).
int cjemalloc_advance_epoch(void);
/// Writes nothing to a void control such as "arena.4096.purge" or "thread.tcache.flush".
int cjemalloc_poke(const char *name);
/// jemalloc's version string, or NULL.
const char *cjemalloc_version(void);
/// How far one malloc of `size` bytes moves this thread's thread.allocated counter (0 without jemalloc).
uint64_t cjemalloc_counted_bytes_of_malloc(size_t size);
/// glibc's malloc_trim(0): gives freed memory back to the system (used when jemalloc is not loaded).
void cjemalloc_system_trim(void);
/// Allocation requests served by all arenas (stats.arenas.<all>.{small,large}.nmalloc, after an epoch refresh) and
/// the bytes of their size classes (each bin's and large extent's nmalloc times its size class). Allocates nothing.
/// Counts every thread's requests only when thread caches are off (MALLOC_CONF=tcache:false); EPROTO when the
/// per-class counts do not add up to the totals.
int cjemalloc_arena_totals(uint64_t *allocations, uint64_t *size_class_bytes);
/// `count` malloc/free pairs of `size` bytes (to prove that counts are exact).
void cjemalloc_malloc_and_free(size_t size, size_t count);
#endif
