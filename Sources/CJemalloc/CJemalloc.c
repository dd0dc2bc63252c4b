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

/* Process-wide allocation counting through jemalloc's experimental hooks (jemalloc >= 5.1): every thread's
   allocations, tcache hits included, exactly. Layout of hooks_t as in jemalloc's include/jemalloc/internal/hook.h. */
#include <stdatomic.h>
typedef void (*cjemalloc_hook_alloc)(void *extra, int type, void *result, uintptr_t result_raw, uintptr_t args_raw[3]);
typedef void (*cjemalloc_hook_dalloc)(void *extra, int type, void *address, uintptr_t args_raw[3]);
typedef void (*cjemalloc_hook_expand)(void *extra, int type, void *address, size_t old_usize, size_t new_usize,
                                      uintptr_t result_raw, uintptr_t args_raw[4]);
typedef struct {
    cjemalloc_hook_alloc alloc_hook;
    cjemalloc_hook_dalloc dalloc_hook;
    cjemalloc_hook_expand expand_hook;
    void *extra;
} cjemalloc_hooks_t;

static _Atomic uint64_t cjemalloc_hooked_allocations;
static void *cjemalloc_hook_handle;

static void cjemalloc_count_alloc(void *extra, int type, void *result, uintptr_t result_raw, uintptr_t args_raw[3]) {
    (void)extra; (void)type; (void)result; (void)result_raw; (void)args_raw;
    atomic_fetch_add_explicit(&cjemalloc_hooked_allocations, 1, memory_order_relaxed);
}

int cjemalloc_count_all_threads_begin(void) {
    cjemalloc_mallctl_fn mallctl = cjemalloc_find_mallctl();
    if (!mallctl) return ENOENT;
    if (cjemalloc_hook_handle) return EBUSY;
    cjemalloc_hooks_t hooks = { cjemalloc_count_alloc, NULL, NULL, NULL };
    size_t size = sizeof(cjemalloc_hook_handle);
    atomic_store(&cjemalloc_hooked_allocations, 0);
    return mallctl("experimental.hooks.install", &cjemalloc_hook_handle, &size, &hooks, sizeof(hooks));
}

int cjemalloc_count_all_threads_end(uint64_t *allocations) {
    cjemalloc_mallctl_fn mallctl = cjemalloc_find_mallctl();
    if (!mallctl || !cjemalloc_hook_handle) return ENOENT;
    int rc = mallctl("experimental.hooks.remove", NULL, NULL, &cjemalloc_hook_handle, sizeof(cjemalloc_hook_handle));
    cjemalloc_hook_handle = NULL;
    *allocations = atomic_load(&cjemalloc_hooked_allocations);
    return rc;
}
