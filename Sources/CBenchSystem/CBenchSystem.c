#define _GNU_SOURCE
#include "CBenchSystem.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

int cbench_perf_open_software(uint64_t config) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = config;
    attr.inherit = 1;  // threads created later count into this descriptor too
    long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : (int)fd;
}

int cbench_perf_read(int fd, uint64_t *value) {
    ssize_t got = read(fd, value, sizeof *value);
    if (got == (ssize_t)sizeof *value) return 0;
    return got < 0 ? -errno : -EIO;
}

uint64_t cbench_perf_context_switches(void) { return PERF_COUNT_SW_CONTEXT_SWITCHES; }
uint64_t cbench_perf_cpu_migrations(void) { return PERF_COUNT_SW_CPU_MIGRATIONS; }

int cbench_get_affinity(int tid, int *cpus, int capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(tid, sizeof set, &set) != 0) return -errno;
    int count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && count < capacity; cpu++) {
        if (CPU_ISSET(cpu, &set)) cpus[count++] = cpu;
    }
    return count;
}

int cbench_set_affinity(int tid, const int *cpus, int count) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int index = 0; index < count; index++) {
        if (cpus[index] < 0 || cpus[index] >= CPU_SETSIZE) return -EINVAL;
        CPU_SET(cpus[index], &set);
    }
    return sched_setaffinity(tid, sizeof set, &set) == 0 ? 0 : -errno;
}

int cbench_rename_noreplace(const char *from, const char *to) {
    long rc = syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
    return rc == 0 ? 0 : -errno;
}

const char *cbench_portable_commit(void) {
#ifdef SCHEDULERBENCH_PORTABLE_COMMIT
    return SCHEDULERBENCH_PORTABLE_COMMIT;
#else
    return 0;
#endif
}
