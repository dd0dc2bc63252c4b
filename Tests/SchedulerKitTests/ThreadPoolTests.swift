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
        do {
            let pool = ThreadPool(threadCount: 2, name: "dropped")
            weakPool = pool
            #expect(drain(pool.makeScheduler(name: "once")))
        }
        #expect(eventually { weakPool == nil })
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

@Suite struct TaskQueueTests {
    /// Many producers race one consumer that keeps giving ownership back: every task runs exactly once, in order per
    /// producer, and never two at a time.
    @Test func producersRacingOwnershipHandOffLoseNothing() {
        let pool = ThreadPool(threadCount: 2, name: "hand-off-race")
        defer { pool.shutdown() }
        let scheduler = pool.makeScheduler(name: "contended")
        let producers = 6
        let perProducer = 20_000
        let last = Shared<[Int]>(Array(repeating: -1, count: producers))
        let disorder = Counter()
        let inside = Counter()
        let overlaps = Counter()
        let ran = Counter()
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for i in 0..<perProducer {
                scheduler.schedule {
                    if inside.increment() != 1 { overlaps.increment() }
                    last.update { last in
                        if last[producer] != i - 1 { disorder.increment() }
                        last[producer] = i
                    }
                    ran.increment()
                    inside.decrement()
                }
                // Let the worker drain the queue dry and hand it back often.
                if i % 1_000 == 0 { pause(milliseconds: 0) }
            }
        }
        #expect(eventually { ran.value == producers * perProducer })
        #expect(overlaps.value == 0)
        #expect(disorder.value == 0)
    }

    /// Workers are named `pool-<name>-<n>`, cut to Linux's 15 bytes in the middle so the number stays.
    @Test func workersCarryTheirPoolsName() throws {
        func names() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap {
                (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        let short = ThreadPool(threadCount: 2, name: "named")
        let long = ThreadPool(threadCount: 2, name: "a-rather-long-pool-name")
        defer {
            short.shutdown()
            long.shutdown()
        }
        #expect(
            eventually {
                Set(["pool-named-0", "pool-named-1", "pool-a-rather-0", "pool-a-rather-1"]).isSubset(of: names())
            },
            "threads: \(names())")
    }

    /// Once `shutdown()` has begun, no task starts except one a worker was already starting: thousands of tasks
    /// from 4 threads onto 4 schedulers, shutdown from a fifth thread in the middle, 10 times. The pool used to finish
    /// the batch a worker had taken (up to 128 tasks, 101 to 246 seen after `shutdown()`).
    @Test func nothingStartsOnceShutdownHasBegun() {
        for round in 0..<10 {
            let pool = ThreadPool(threadCount: 2, name: "shutdown-\(round)")
            let schedulers = (0..<4).map { pool.makeScheduler(name: "s\($0)") }
            let startedLate = Shared<[UInt: Int]>([:])
            let ran = Counter()
            let go = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                go.wait()
                usleep(UInt32.random(in: 200...2_000))
                pool.shutdown()
            }
            DispatchQueue.concurrentPerform(iterations: 4) { producer in
                if producer == 0 { go.signal() }
                for _ in 0..<2_500 {
                    schedulers[producer].schedule {
                        if pool.isShutDown {
                            startedLate.update {
                                $0[UInt(bitPattern: Int(bitPattern: pthread_self())), default: 0] += 1
                            }
                        }
                        ran.increment()
                    }
                }
            }
            #expect(eventually { pool.isShutDown })
            pause(milliseconds: 20)
            let worst = startedLate.value.values.max() ?? 0
            #expect(worst <= 1, "round \(round): \(startedLate.value) tasks started after shutdown per thread")
            #expect(startedLate.value.count <= pool.threadCount)
        }
    }
}
