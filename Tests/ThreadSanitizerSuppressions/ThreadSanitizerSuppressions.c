#include "ThreadSanitizerSuppressions.h"

// The races ThreadSanitizer must not report from the test binary: each one a peer's, found here, named exactly, and
// documented where users read about that peer. Our own code gets no entry: a race of ours fails the TSan run.
//
// ThreadSanitizer's runtime calls this function (it defines a weak, empty one) while it starts, before any thread
// exists, so `swift test --sanitize=thread` needs no TSAN_OPTIONS, and the conformance checks' child processes (the same
// binary) get the same list. It is C, not Swift, because it runs before the runtime can take an instrumented call:
// a Swift version crashed there. A line matches a report when any frame of either access contains the pattern; Swift's
// frames are printed mangled, and `*` spans the mangling between the names.
//
// - OpenCombine 0.14's OperationQueue scheduler: DelayReadyOperation.CancellationContext.cancel() clears the repeating
//   operation's `action`, `queue` and `context` outside any lock, while the operation's main() reads and clears the
//   same fields on the queue's thread (OperationQueue+Scheduler.swift, lines 177-179 against 237-244). Cancelling
//   repeating work while a tick runs is a data race in OpenCombine itself (Docs/Combine.md, "OperationQueue"); the
//   conformance rules cancel while ticks run, as users do.
__attribute__((no_sanitize("thread"))) const char *__tsan_default_suppressions(void) {
    return "race:DelayReady*CancellationContext*cancel\n";
}
