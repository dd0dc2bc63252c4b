import Dispatch
import SchedulerKit
import TestSupport
import Testing

/// Under `swift test` Dispatch serves the main queue (see `MainQueueTests`); these tests reach it with
/// `DispatchQueue.main.async`.
@Suite(.serialized) struct MainThreadSchedulerTests {
    @Test func runsInlineOnTheMainQueueWhenNothingOfItsOwnIsQueued() {
        let scheduler = Schedulers.mainThread
        let log = Shared<[String]>([])
        DispatchQueue.main.async {
            log.append("on main queue: \(MainThreadScheduler.isOnMainQueue)")
            let handle = scheduler.schedule {
                log.append("task, current: \(Schedulers.current === scheduler)")
            }
            log.append("after schedule, cancel: \(handle.cancel())")
        }
        #expect(eventually { log.value.count == 3 })
        #expect(log.value == ["on main queue: true", "task, current: true", "after schedule, cancel: false"])
        #expect(!MainThreadScheduler.isOnMainQueue)
    }

    @Test func workScheduledFromInsideATaskWaitsUntilItReturns() {
        let scheduler = Schedulers.mainThread
        let log = Shared<[Int]>([])
        DispatchQueue.main.async {
            scheduler.schedule {
                log.append(1)
                scheduler.schedule { log.append(3) }
                log.append(2)
            }
        }
        #expect(eventually { log.value.count == 3 })
        #expect(log.value == [1, 2, 3])
    }

    @Test func workQueuedFromAnotherThreadIsNotOvertaken() {
        let scheduler = Schedulers.mainThread
        let log = Shared<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        // Hold the main queue, queue `a` from this thread, then schedule `b` on the main queue: `b` must wait for `a`.
        DispatchQueue.main.async { _ = gate.wait(timeout: .now() + 10) }
        scheduler.schedule { log.append("a") }
        DispatchQueue.main.async { scheduler.schedule { log.append("b") } }
        gate.signal()
        #expect(eventually { log.value.count == 2 })
        #expect(log.value == ["a", "b"])
    }

    @Test func queuedWorkCanBeCancelled() {
        let scheduler = Schedulers.mainThread
        let gate = DispatchSemaphore(value: 0)
        let ran = Counter()
        DispatchQueue.main.async { _ = gate.wait(timeout: .now() + 10) }
        let handle = scheduler.schedule { ran.increment() }
        #expect(handle.cancel())
        scheduler.schedule { ran.increment() }
        gate.signal()
        #expect(eventually { ran.value == 1 })
        pause(milliseconds: 20)
        #expect(ran.value == 1)
        #expect(handle.isCancelled)
    }
}
