#include "CSwiftRuntimeHooks.h"

// Weak, so that a runtime without the variable still links (the address is then NULL). Declared here, not in the
// header, so that Swift never sees it as a global of its own: the runtime's real type is a function pointer with the
// Swift calling convention, and only its address is used.
extern void *swift_task_enqueueGlobal_hook __attribute__((weak));

void **schedulerkit_enqueue_global_hook_address(void) { return &swift_task_enqueueGlobal_hook; }
