#if Combine
    import Dispatch
    import Foundation
    import SchedulerKit
    import SchedulerKitCombine
    import TestSupport
    import Testing

    /// The adapter's own promises; what the Combine schedulers behind it keep is the conformance matrix's subject.
    @Suite struct CombineSchedulerAdapterTests {
        @Test func plainWorkRunsWithTheAdapterAsCurrentAndCannotBeCancelled() {
            let adapter = CombinePeers.dispatchQueue(name: "adapter", queue: DispatchQueue(label: "adapter"))
            let sawItself = Shared<Bool?>(nil)
            let finished = DispatchSemaphore(value: 0)
            let handle = adapter.schedule {
                sawItself.set(Schedulers.current === adapter)
                finished.signal()
            }
            #expect(
                handle.cancel() == false, "Combine cannot cancel one-shot work, so the handle must not claim it did")
            #expect(!handle.isCancelled)
            #expect(waited(finished))
            #expect(sawItself.value == true)
        }

        @Test func delayedWorkIsNeverEarlyOnTheMonotonicClock() {
            let adapter = CombinePeers.dispatchQueue(name: "adapter", queue: DispatchQueue(label: "adapter"))
            let deadline = adapter.now.advanced(by: .milliseconds(15))
            let startedAt = Shared<SchedulerTime?>(nil)
            let finished = DispatchSemaphore(value: 0)
            adapter.schedule(at: deadline) {
                startedAt.set(.monotonicNow())
                finished.signal()
            }
            #expect(waited(finished))
            #expect(startedAt.value.map { $0 >= deadline } == true)
        }

        @Test func repeatingWorkCancelsOnceAndStops() {
            let adapter = CombinePeers.dispatchQueue(name: "adapter", queue: DispatchQueue(label: "adapter"))
            let ticks = Counter()
            let handle = adapter.schedule(at: adapter.now, every: .milliseconds(2)) { ticks.increment() }
            #expect(eventually { ticks.value >= 3 })
            #expect(handle.cancel() == true)
            #expect(handle.cancel() == false, "only the first cancel may say it cancelled")
            #expect(handle.isCancelled)
            pause(milliseconds: 20)
            let afterCancel = ticks.value
            pause(milliseconds: 40)
            #expect(ticks.value == afterCancel)
        }

        @Test func aRunLoopThreadServesCombineWorkUntilStopped() {
            let thread = RunLoopThread(name: "runloop-test")
            let adapter = CombinePeers.runLoop(name: "runloop", thread: thread)
            let ranOnLoopThread = Shared<Bool?>(nil)
            let finished = DispatchSemaphore(value: 0)
            adapter.schedule {
                ranOnLoopThread.set(RunLoop.current === thread.runLoop)
                finished.signal()
            }
            #expect(waited(finished))
            #expect(ranOnLoopThread.value == true)
            thread.stop()
        }
    }
#endif
