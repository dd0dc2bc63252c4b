#include "CSwiftRuntimeHooks.h"

#include <stdint.h>

// Weak, so that a runtime without the variable still links (the address is then NULL). Declared here, not in the
// header, so that Swift never sees it as a global of its own: the runtime's real type is a function pointer with the
// Swift calling convention, and only its address is used.
extern void *swift_task_enqueueGlobal_hook __attribute__((weak));

void **schedulerkit_enqueue_global_hook_address(void) { return &swift_task_enqueueGlobal_hook; }

// The runtime's entry points that count `n` references at once (what compiled code calls for a run of retains).
extern void *swift_retain_n(void *object, uint32_t n);
extern void swift_release_n(void *object, uint32_t n);

void *schedulerkit_retain_n(void *object, uint32_t n) { return swift_retain_n(object, n); }

void schedulerkit_release_n(void *object, uint32_t n) { swift_release_n(object, n); }
