#include "CSwiftRuntimeHooks.h"

#include <stdint.h>

// Weak, so that a runtime without the variable still links (the address is then NULL). Declared here, not in the
// header, so that Swift never sees it as a global of its own: the runtime's real type is a function pointer with the
// Swift calling convention, and only its address is used.
extern void *swift_task_enqueueGlobal_hook __attribute__((weak));

void **schedulerkit_enqueue_global_hook_address(void) { return &swift_task_enqueueGlobal_hook; }

// The runtime's buffer of its crash message: a `std::atomic<const char *>` (a pointer, accessed atomically), exported
// on platforms without Apple's crash reporter. Weak, so that a runtime without it still links.
extern void *swift_getFatalErrorMessageBuffer(void) __attribute__((weak));

const char *schedulerkit_runtime_crash_message(void) {
    if (!swift_getFatalErrorMessageBuffer) return 0;
    const char **buffer = (const char **)swift_getFatalErrorMessageBuffer();
    return buffer ? __atomic_load_n(buffer, __ATOMIC_ACQUIRE) : 0;
}

_Bool schedulerkit_restore_runtime_crash_message(const char *current, const char *previous) {
    if (!swift_getFatalErrorMessageBuffer) return 0;
    const char **buffer = (const char **)swift_getFatalErrorMessageBuffer();
    if (!buffer) return 0;
    return __atomic_compare_exchange_n(buffer, &current, previous, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

// The runtime's entry points that count `n` references at once (what compiled code calls for a run of retains).
extern void *swift_retain_n(void *object, uint32_t n);
extern void swift_release_n(void *object, uint32_t n);

void *schedulerkit_retain_n(void *object, uint32_t n) { return swift_retain_n(object, n); }

void schedulerkit_release_n(void *object, uint32_t n) { swift_release_n(object, n); }

// The concurrency runtime's accessor of the task running on this thread (Swift may not name it directly).
extern void *swift_task_getCurrent(void);

void *schedulerkit_current_task(void) { return swift_task_getCurrent(); }
