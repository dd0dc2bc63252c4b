#ifndef CSWIFT_RUNTIME_HOOKS_H
#define CSWIFT_RUNTIME_HOOKS_H
/// The address of the Swift runtime's global-enqueue hook variable (`swift_task_enqueueGlobal_hook`), resolved when the
/// program is linked: a statically linked executable (`--static-swift-stdlib`) exports no dynamic symbols, so
/// `dlsym` finds nothing there. NULL where the runtime linked in has no such variable.
void *_Nullable *_Nullable schedulerkit_enqueue_global_hook_address(void);

#endif
