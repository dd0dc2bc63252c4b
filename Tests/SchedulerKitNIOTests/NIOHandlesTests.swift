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
            // NIO may still run it (a task in the running batch): the gate says no, and the state stays cancelled.
            #expect(!first.start())
            #expect(first.isCancelled)

            let second = ScheduledTaskHandle()
            #expect(second.start())
            #expect(!second.cancel())
            #expect(!second.isCancelled)
        }

        @Test func aRepeatedTaskCancelsOnceAndNoTickRunsAfter() {
            withEventLoop { loop in
                let ticks = Locked(0)
                let handle = RepeatedTaskHandle { ticks.withLock { $0 += 1 } }
                handle.attach(loop.scheduleRepeatedTask(initialDelay: .hours(1), delay: .hours(1)) { _ in })
                #expect(!handle.isCancelled)
                #expect(handle.cancel())
                #expect(!handle.cancel())
                #expect(handle.isCancelled)
                // A tick NIO starts after the cancel (one it had taken off its heap) runs nothing.
                #expect(handle.work.runTick() == .skipped)
                #expect(ticks.withLock { $0 } == 0)
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
