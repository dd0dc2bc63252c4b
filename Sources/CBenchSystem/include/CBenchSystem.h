#ifndef CBENCHSYSTEM_H
#define CBENCHSYSTEM_H
#include <stdint.h>

/// Linux system calls the bench needs and Swift cannot reach on its own (macros, `syscall`, structs with unions).
/// Every function returns 0 (or a count, or a descriptor) on success and -errno on failure.

/// Opens a perf software counter (PERF_TYPE_SOFTWARE, `config` one of PERF_COUNT_SW_*) on the calling thread that
/// is inherited by every thread created after it (their counts add up in this descriptor). Close-on-exec.
int cbench_perf_open_software(uint64_t config);
/// The counter's value (the calling thread and every inheriting thread, live or exited).
int cbench_perf_read(int fd, uint64_t *value);
/// PERF_COUNT_SW_CONTEXT_SWITCHES and PERF_COUNT_SW_CPU_MIGRATIONS, for Swift.
uint64_t cbench_perf_context_switches(void);
uint64_t cbench_perf_cpu_migrations(void);

/// The CPUs thread `tid` (0: the calling thread) may run on, as ascending CPU numbers in `cpus` (at most `capacity`);
/// returns how many.
int cbench_get_affinity(int tid, int *cpus, int capacity);
/// Restricts thread `tid` (0: the calling thread) to the `count` CPUs in `cpus`.
int cbench_set_affinity(int tid, const int *cpus, int count);

/// rename(2) that fails with -EEXIST instead of replacing an existing target (renameat2 RENAME_NOREPLACE).
int cbench_rename_noreplace(const char *from, const char *to);

/// The commit a portable bench was built from (scripts/portable.sh defines SCHEDULERBENCH_PORTABLE_COMMIT); NULL for
/// any other build.
const char *cbench_portable_commit(void);
#endif
