#ifndef CSWIFT_RUNTIME_HOOKS_H
#define CSWIFT_RUNTIME_HOOKS_H
/// The address of the Swift runtime's global-enqueue hook variable (`swift_task_enqueueGlobal_hook`), resolved when the
/// program is linked: a statically linked executable (`--static-swift-stdlib`) exports no dynamic symbols, so
/// `dlsym` finds nothing there. NULL where the runtime linked in has no such variable.
void *_Nullable *_Nullable schedulerkit_enqueue_global_hook_address(void);

/// The message the Swift runtime keeps for a crash report (every `swift_reportError` of the process so far, run
/// together: a dropped `CheckedContinuation` adds one, and each addition leaves the previous copy allocated), or NULL
/// where the runtime has none or keeps no such message.
const char *_Nullable schedulerkit_runtime_crash_message(void);

/// Puts `previous` back as the runtime's crash message if the message is still `current`; false if another report
/// came between, or the runtime keeps no such message. The strings are never freed: a crashing thread may be reading
/// one.
_Bool schedulerkit_restore_runtime_crash_message(const char *_Nullable current, const char *_Nullable previous);

#include <stdint.h>

/// Takes `n` strong references to a Swift object in one atomic add (the runtime's `swift_retain_n`); returns it.
void *_Nonnull schedulerkit_retain_n(void *_Nonnull object, uint32_t n);

/// Gives back `n` strong references to a Swift object in one atomic subtraction (the runtime's `swift_release_n`).
void schedulerkit_release_n(void *_Nonnull object, uint32_t n);

/// The task running on this thread (the runtime's `swift_task_getCurrent`), or NULL outside every task.
void *_Nullable schedulerkit_current_task(void);

#endif
