#ifndef CSWIFT_RUNTIME_HOOKS_H
#define CSWIFT_RUNTIME_HOOKS_H
/// The address of the Swift runtime's global-enqueue hook variable (`swift_task_enqueueGlobal_hook`), resolved when the
/// program is linked: a statically linked executable (`--static-swift-stdlib`) exports no dynamic symbols, so
/// `dlsym` finds nothing there. NULL where the runtime linked in has no such variable.
void *_Nullable *_Nullable schedulerkit_enqueue_global_hook_address(void);

#include <stdint.h>

/// Takes `n` strong references to a Swift object in one atomic add (the runtime's `swift_retain_n`); returns it.
void *_Nonnull schedulerkit_retain_n(void *_Nonnull object, uint32_t n);

/// Gives back `n` strong references to a Swift object in one atomic subtraction (the runtime's `swift_release_n`).
void schedulerkit_release_n(void *_Nonnull object, uint32_t n);

#endif
