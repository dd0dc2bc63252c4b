#include "CSchedulerKitThreadLocal.h"

_Thread_local void *_Nullable schedulerkit_thread_state = 0;
