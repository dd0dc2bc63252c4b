import Dispatch
import Foundation
import SchedulerKit
import Synchronization
import TestSupport
import Testing

@Suite struct ThreadPoolConcurrentSchedulerTests {
    @Test func reachesItsWidthAndNeverExceedsIt() {
        let pool = ThreadPool(threadCount: 3, name: "width")
        defer { pool.shutdown() }
        let scheduler = pool.makeConcurrentScheduler(name: "c", width: 2)
        #expect(scheduler.width == 2)
        let inFlight = Counter()
        let most = Atomic<Int>(0)
        let ended = Counter()
        for _ in 0..<3 {
            scheduler.schedule {
                most.max(inFlight.increment(), ordering: .relaxed)
                _ = eventually(timeout: .milliseconds(100)) { inFlight.value > 2 }
                inFlight.decrement()
                ended.increment()
            }
        }
        #expect(eventually { ended.value == 3 })
        #expect(most.load(ordering: .relaxed) == 2)
        #expect(pool.makeConcurrentScheduler(name: "all").width == 3)
    }

    @Test func sharesThePoolWithSerialSchedulers() {
        let pool = ThreadPool(threadCount: 2, name: "shared")
        defer { pool.shutdown() }
        let concurrent = pool.makeConcurrentScheduler(name: "c")
        let serial = pool.makeScheduler(name: "s")
        let ran = Counter()
        let wrongCurrent = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { producer in
            for _ in 0..<5_000 {
                let scheduler: any Scheduler = producer % 2 == 0 ? concurrent : serial
                scheduler.schedule {
                    if Schedulers.current !== scheduler { wrongCurrent.increment() }
                    ran.increment()
                }
            }
        }
        #expect(eventually { ran.value == 20_000 })
        #expect(wrongCurrent.value == 0)
    }

    @Test func shutdownCancelsWhatHasNotStarted() {
        let pool = ThreadPool(threadCount: 2, name: "shutdown")
        let scheduler = pool.makeConcurrentScheduler(name: "c", width: 2)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<2 { scheduler.schedule { _ = release.wait(timeout: .now() + 10) } }
        let queued = (0..<100).map { _ in scheduler.schedule {} }
        let delayed = scheduler.schedule(after: .seconds(3_600)) {}
        let shutdownReturned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            pool.shutdown()
            shutdownReturned.signal()
        }
        #expect(eventually { pool.isShutDown })
        release.signal()
        release.signal()
        #expect(waited(shutdownReturned))
        #expect(queued.allSatisfy { $0.isCancelled })
        #expect(delayed.isCancelled)
        #expect(scheduler.schedule {}.isCancelled)
    }

    @Test func aWidthBeyondThePoolIsAPreconditionFailure() async {
        await #expect(processExitsWith: .failure) {
            _ = ThreadPool(threadCount: 2, name: "too-wide").makeConcurrentScheduler(name: "c", width: 3)
        }
    }
}
