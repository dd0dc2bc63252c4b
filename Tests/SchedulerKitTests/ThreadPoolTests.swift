import Dispatch
import Foundation
import SchedulerKit
import TestSupport
import Testing

@Suite struct ThreadPoolTests {
    @Test func manySerialSchedulersShareTheWorkers() {
        let pool = ThreadPool(threadCount: 2, name: "many")
        defer { pool.shutdown() }
        let schedulers = (0..<100).map { pool.makeScheduler(name: "s\($0)") }
        let orders = schedulers.map { _ in Shared<[Int]>([]) }
        let inFlight = schedulers.map { _ in Counter() }
        let overlaps = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { producer in
            for i in 0..<2_500 {
                let index = (i * 7 + producer) % 100
                schedulers[index].schedule {
                    if inFlight[index].increment() != 1 { overlaps.increment() }
                    if producer == 0 { orders[index].append(i) }
                    inFlight[index].decrement()
                }
            }
        }
        for scheduler in schedulers { #expect(drain(scheduler)) }
        #expect(overlaps.value == 0)
        for order in orders { #expect(order.value == order.value.sorted()) }
        #expect(orders.map(\.value.count).reduce(0, +) == 2_500)
    }

    @Test func shutdownEndsEveryAcceptedTaskExactlyOnce() {
        let pool = ThreadPool(threadCount: 2, name: "exactly-once")
        let schedulers = (0..<4).map { pool.makeScheduler(name: "s\($0)") }
        let ran = Counter()
        var handles: [any Cancellable] = []
        for i in 0..<10_000 {
            handles.append(
                schedulers[i % 4].schedule {
                    ran.increment()
                })
            if i % 3 == 0 {
                handles.append(schedulers[i % 4].schedule(after: .milliseconds(i % 50)) { ran.increment() })
            }
            if i == 6_000 { pool.shutdown() }
        }
        let cancelled = handles.filter(\.isCancelled).count
        #expect(ran.value + cancelled == handles.count)
        #expect(pool.isShutDown)
    }

    @Test func schedulingAfterShutdownReturnsACancelledHandleAtOnce() {
        let pool = ThreadPool(threadCount: 1, name: "after")
        let scheduler = pool.makeScheduler(name: "after")
        pool.shutdown()
        let ran = Flag()
        let handles = [
            scheduler.schedule { ran.set(true) },
            scheduler.schedule(after: .milliseconds(1)) { ran.set(true) },
            scheduler.schedule(at: scheduler.now, every: .milliseconds(1)) { ran.set(true) },
        ]
        #expect(handles.allSatisfy { $0.isCancelled })
        pause(milliseconds: 10)
        #expect(!ran.value)
    }

    @Test func shutdownIsIdempotentAndSafeFromAPoolTask() {
        let pool = ThreadPool(threadCount: 2, name: "from-inside")
        let scheduler = pool.makeScheduler(name: "inside")
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule {
            pool.shutdown()
            pool.shutdown()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        pool.shutdown()
        #expect(pool.isShutDown)
    }

    @Test func farFutureTimersDoNotDelayShutdownAndThePoolIsFreed() {
        weak var weakPool: ThreadPool?
        do {
            let pool = ThreadPool(threadCount: 2, name: "far")
            weakPool = pool
            let scheduler = pool.makeScheduler(name: "far")
            let oneShot = scheduler.schedule(after: .seconds(3_600)) {}
            let repeating = scheduler.schedule(at: scheduler.now + .seconds(3_600), every: .seconds(1)) {}
            pool.shutdown()
            #expect(oneShot.isCancelled && repeating.isCancelled)
        }
        #expect(eventually { weakPool == nil })
    }

    @Test func anUnreferencedIdlePoolShutsItselfDown() {
        weak var weakPool: ThreadPool?
        let workers = Shared<Set<String>>([])
        do {
            let pool = ThreadPool(threadCount: 2, name: "gone")
            weakPool = pool
            // Two tasks that wait for each other run on both workers at once: each records its thread's id.
            let arrived = Counter()
            for name in ["a", "b"] {
                pool.makeScheduler(name: name).schedule {
                    workers.update { $0.insert(KernelThread.currentID()) }
                    arrived.increment()
                    _ = eventually { arrived.value == 2 }
                }
            }
            #expect(eventually { workers.value.count == 2 })
        }
        #expect(eventually { weakPool == nil })
        // Its workers end too: freeing the pool object while its threads live on would leak them. (By thread id, not
        // by name: a thread that a worker starts, Dispatch's among them, inherits the worker's name on Linux.)
        #expect(
            eventually { workers.value.allSatisfy { !KernelThread.exists($0) } }
        )
    }

    @Test func pendingWorkKeepsTheSchedulerAliveAndRuns() {
        let pool = ThreadPool(threadCount: 1, name: "pending")
        defer { pool.shutdown() }
        let gate = Gate()
        let blocker = pool.makeScheduler(name: "blocker")
        gate.block(blocker)
        let ran = Flag()
        weak var weakScheduler: ThreadPoolScheduler?
        do {
            let scheduler = pool.makeScheduler(name: "released")
            weakScheduler = scheduler
            scheduler.schedule { ran.set(true) }
        }
        #expect(weakScheduler != nil)
        gate.open()
        #expect(eventually { ran.value && weakScheduler == nil })
    }

    @Test func dueTimersFireWhileSchedulersStayBusy() {
        let pool = ThreadPool(threadCount: 1, name: "busy")
        defer { pool.shutdown() }
        let busy = pool.makeScheduler(name: "busy")
        let timed = pool.makeScheduler(name: "timed")
        let fired = Flag()
        let spins = Counter()
        timed.schedule(after: .milliseconds(5)) { fired.set(true) }
        busy.scheduleRecursive { reschedule in
            if !fired.value, spins.increment() < 10_000_000 { reschedule() }
        }
        #expect(eventually { fired.value })
    }

    @Test func repeatingTicksAreNeverEarlyAndStopOnCancel() {
        let pool = ThreadPool(threadCount: 2, name: "repeating")
        defer { pool.shutdown() }
        let scheduler = pool.makeScheduler(name: "ticks")
        let start = scheduler.now + .milliseconds(3)
        let times = Shared<[SchedulerTime]>([])
        let current = Counter()
        let handle = scheduler.schedule(at: start, every: .milliseconds(4), leeway: .zero) {
            if Schedulers.current === scheduler { current.increment() }
            times.update { $0.append(.monotonicNow()) }
        }
        #expect(eventually { times.value.count >= 5 })
        #expect(handle.cancel())
        #expect(drain(scheduler))
        let count = times.value.count
        pause(milliseconds: 20)
        #expect(times.value.count == count)
        #expect(current.value == count)
        for (k, time) in times.value.enumerated() {
            #expect(time >= start + .milliseconds(4 * k), "tick \(k) early")
        }
    }

    @Test func workerThreadsReadNoCurrentSchedulerAfterATask() {
        let pool = ThreadPool(threadCount: 2, name: "leak")
        defer { pool.shutdown() }
        let a = pool.makeScheduler(name: "a")
        let b = pool.makeScheduler(name: "b")
        let wrong = Counter()
        for i in 0..<2_000 {
            let scheduler = i % 2 == 0 ? a : b
            scheduler.schedule { if Schedulers.current !== scheduler { wrong.increment() } }
        }
        #expect(drain(a) && drain(b))
        #expect(wrong.value == 0)
    }

    @Test func threadCountMustBePositive() async {
        await #expect(processExitsWith: .failure) { _ = ThreadPool(threadCount: 0) }
    }
}
