#define _GNU_SOURCE
#include <dlfcn.h>
#include "CJemalloc.h"

cjemalloc_mallctl_fn cjemalloc_find_mallctl(void) {
    return (cjemalloc_mallctl_fn)dlsym(RTLD_DEFAULT, "mallctl");
}
