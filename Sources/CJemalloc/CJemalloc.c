#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
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
