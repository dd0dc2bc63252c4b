#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include "CJemalloc.h"

cjemalloc_mallctl_fn cjemalloc_find_mallctl(void) {
    return (cjemalloc_mallctl_fn)dlsym(RTLD_DEFAULT, "mallctl");
}

int cjemalloc_read_u64(const char *name, uint64_t *value) {
    cjemalloc_mallctl_fn mallctl = cjemalloc_find_mallctl();
    if (!mallctl) return ENOENT;
    size_t length = sizeof(*value);
    return mallctl(name, value, &length, NULL, 0);
}

int cjemalloc_read_bool(const char *name, bool *value) {
    cjemalloc_mallctl_fn mallctl = cjemalloc_find_mallctl();
    if (!mallctl) return ENOENT;
    size_t length = sizeof(*value);
    return mallctl(name, value, &length, NULL, 0);
}

int cjemalloc_write_bool(const char *name, bool value) {
    cjemalloc_mallctl_fn mallctl = cjemalloc_find_mallctl();
    if (!mallctl) return ENOENT;
    return mallctl(name, NULL, NULL, &value, sizeof(value));
}

int cjemalloc_advance_epoch(void) {
    cjemalloc_mallctl_fn mallctl = cjemalloc_find_mallctl();
    if (!mallctl) return ENOENT;
    uint64_t epoch = 1;
    size_t length = sizeof(epoch);
    return mallctl("epoch", &epoch, &length, &epoch, length);
}

int cjemalloc_poke(const char *name) {
    cjemalloc_mallctl_fn mallctl = cjemalloc_find_mallctl();
    if (!mallctl) return ENOENT;
    return mallctl(name, NULL, NULL, NULL, 0);
}

const char *cjemalloc_version(void) {
    cjemalloc_mallctl_fn mallctl = cjemalloc_find_mallctl();
    if (!mallctl) return NULL;
    const char *version = NULL;
    size_t length = sizeof(version);
    return mallctl("version", &version, &length, NULL, 0) == 0 ? version : NULL;
}

void cjemalloc_system_trim(void) {
    malloc_trim(0);
}

uint64_t cjemalloc_counted_bytes_of_malloc(size_t size) {
    uint64_t before = 0, after = 0;
    if (cjemalloc_read_u64("thread.allocated", &before) != 0) return 0;
    void *volatile block = malloc(size);  /* volatile: the pair must not be optimised away */
    cjemalloc_read_u64("thread.allocated", &after);
    free(block);
    return after - before;
}

/* Reads one counter of a numbered size class; the name is built on the stack, because a heap-allocated name would
   be counted by the very statistics it reads. */
static int read_class(cjemalloc_mallctl_fn mallctl, const char *format, unsigned index, void *value, size_t length) {
    char name[96];
    snprintf(name, sizeof(name), format, index);
    return mallctl(name, value, &length, NULL, 0);
}

int cjemalloc_arena_totals(uint64_t *allocations, uint64_t *size_class_bytes) {
    cjemalloc_mallctl_fn mallctl = cjemalloc_find_mallctl();
    if (!mallctl) return ENOENT;
    int error = cjemalloc_advance_epoch();
    if (error) return error;
    uint64_t small = 0, large = 0;
    if ((error = cjemalloc_read_u64("stats.arenas.4096.small.nmalloc", &small))) return error;
    if ((error = cjemalloc_read_u64("stats.arenas.4096.large.nmalloc", &large))) return error;
    unsigned bins = 0, extents = 0;
    size_t length = sizeof(unsigned);
    if ((error = mallctl("arenas.nbins", &bins, &length, NULL, 0))) return error;
    if ((error = mallctl("arenas.nlextents", &extents, &length, NULL, 0))) return error;
    uint64_t counted = 0, bytes = 0;
    for (unsigned index = 0; index < bins + extents; index++) {
        int isBin = index < bins;
        unsigned class = isBin ? index : index - bins;
        size_t size = 0;
        uint64_t made = 0;
        if ((error = read_class(mallctl, isBin ? "arenas.bin.%u.size" : "arenas.lextent.%u.size", class, &size, sizeof(size)))) return error;
        if ((error = read_class(mallctl, isBin ? "stats.arenas.4096.bins.%u.nmalloc" : "stats.arenas.4096.lextents.%u.nmalloc",
                                class, &made, sizeof(made)))) return error;
        counted += made;
        bytes += made * size;
    }
    /* The per-class counts must add up to the totals, or the two readings describe different states. */
    if (counted != small + large) return EPROTO;
    *allocations = counted;
    *size_class_bytes = bytes;
    return 0;
}

void cjemalloc_malloc_and_free(size_t size, size_t count) {
    for (size_t index = 0; index < count; index++) {
        void *volatile block = malloc(size);  /* volatile: the calls must not be optimised away */
        free(block);
    }
}
