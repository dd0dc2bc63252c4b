// The races ThreadSanitizer must not report from the test binary (ThreadSanitizerSuppressions.c says which, and why).
// Nothing to call: the runtime finds the function by its name. TestSupport depends on this target so that every test
// binary links it.
#ifndef THREAD_SANITIZER_SUPPRESSIONS_H
#define THREAD_SANITIZER_SUPPRESSIONS_H
const char *__tsan_default_suppressions(void);
#endif
