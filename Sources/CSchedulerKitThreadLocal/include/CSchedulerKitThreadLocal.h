#ifndef CSCHEDULERKIT_THREAD_LOCAL_H
#define CSCHEDULERKIT_THREAD_LOCAL_H
/// SchedulerKit's per-thread state pointer as a C11 thread-local variable.
///
/// Swift has no thread-local storage of its own: `pthread_getspecific` costs a call into libc (some 17 instructions)
/// on every read of the current scheduler, which is most of what the immediate scheduler does. A `_Thread_local` read
/// through these static inline functions compiles into SchedulerKit as one load relative to the thread pointer.
/// The pointer is owned by SchedulerKit's `ThreadState`, which still registers a pthread key so that a thread's state
/// is freed when the thread exits; the key's destructor clears this slot first.

extern _Thread_local void *_Nullable schedulerkit_thread_state;

static inline void *_Nullable schedulerkit_thread_state_get(void) { return schedulerkit_thread_state; }

static inline void schedulerkit_thread_state_set(void *_Nullable state) { schedulerkit_thread_state = state; }

#endif
