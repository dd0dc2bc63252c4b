#if NIO
    import NIOCore
    import SchedulerKit
    import Testing

    @testable import SchedulerKitNIO

    @Suite struct NIOHandlesTests {
        @Test func uncancellableWorkNeverCancels() {
            let handle = SettledWork.uncancellable
            #expect(!handle.cancel())
            #expect(!handle.isCancelled)
        }

        @Test func aScheduledTaskCancelsOnceAndOnlyBeforeItStarts() {
            let first = ScheduledTaskHandle()
            #expect(first.cancel())
            #expect(first.isCancelled)
            #expect(!first.cancel())
            first.markStarted()  // NIO may still run it (a task in the running batch): the state stays cancelled
            #expect(first.isCancelled)

            let second = ScheduledTaskHandle()
            second.markStarted()
            #expect(!second.cancel())
            #expect(!second.isCancelled)
        }

        @Test func aRepeatedTaskCancelsOnce() {
            withEventLoop { loop in
                let handle = RepeatedTaskHandle(
                    loop.scheduleRepeatedTask(initialDelay: .hours(1), delay: .hours(1)) { _ in })
                #expect(!handle.isCancelled)
                #expect(handle.cancel())
                #expect(!handle.cancel())
                #expect(handle.isCancelled)
            }
        }

        @Test func poolWorkSaysWhatThePoolDecided() {
            let handle = PoolWorkHandle()
            #expect(!handle.isCancelled)
            handle.markCancelledByPool()
            #expect(handle.isCancelled)
            #expect(!handle.cancel())
        }
    }
#endif
