import Dispatch
import Foundation
import SchedulerKit
import TestSupport
import Testing

@Suite struct ThreadPoolHandOffTests {
    /// A turn runs what was queued when it began: work that arrives during it (here from the running task itself)
    /// waits behind a scheduler that was already ready, so a scheduler fed while it runs cannot keep the worker.
    @Test func workQueuedDuringATurnWaitsBehindOtherReadySchedulers() {
        let pool = ThreadPool(threadCount: 1, name: "turns")
        defer { pool.shutdown() }
        let (a, b) = (pool.makeScheduler(name: "a"), pool.makeScheduler(name: "b"))
        let order = Shared<[String]>([])
        let (release, finished) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        a.schedule {
            release.wait()
            order.update { $0.append("a1") }
            a.schedule {
                order.update { $0.append("a2") }
                finished.signal()
            }
        }
        b.schedule { order.update { $0.append("b1") } }  // b is ready while a's first turn runs
        release.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(order.value == ["a1", "b1", "a2"])
    }

    /// A task that blocks until another scheduler's task has run must not starve it while a worker sleeps.
    @Test func aBlockedTaskDoesNotStrandReadyWorkOfAnotherScheduler() {
        for round in 0..<200 {
            let pool = ThreadPool(threadCount: 2, name: "hand-off")
            let a = pool.makeScheduler(name: "a")
            let b = pool.makeScheduler(name: "b")
            // Right after a task, its worker spins for more work while the other sleeps: the risky moment.
            #expect(drain(pool.makeScheduler(name: "warm-up")))
            let bRan = DispatchSemaphore(value: 0)
            let aDone = DispatchSemaphore(value: 0)
            a.schedule {
                bRan.wait()
                aDone.signal()
            }
            b.schedule { bRan.signal() }
            let finished = aDone.wait(timeout: .now() + 10) == .success
            #expect(finished, "round \(round): b's task never ran while a's task waited for it")
            guard finished else {
                bRan.signal()
                break
            }
            pool.shutdown()
        }
    }
}
