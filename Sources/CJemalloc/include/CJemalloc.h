#ifndef CJEMALLOC_H
#define CJEMALLOC_H
#include <stddef.h>
/// jemalloc's mallctl, found at run time with dlsym (NULL when jemalloc is not loaded).
typedef int (*cjemalloc_mallctl_fn)(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
cjemalloc_mallctl_fn cjemalloc_find_mallctl(void);
#endif
