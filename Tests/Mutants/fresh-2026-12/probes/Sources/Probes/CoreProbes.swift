import Dispatch
import Foundation
import SchedulerKit

#if canImport(Glibc)
    import Glibc
#endif

// 01: `SchedulerTime - SchedulerTime` and `duration(to:)` are "the signed duration from self to other".
func probeDurationSign() {
    let start = SchedulerTime(nanoseconds: 1_000)
    let later = start + .seconds(5)
    let elapsed = later - start
    let forward = start.duration(to: later)
    verdict(elapsed == .seconds(5), "(start + 5 s) - start = \(elapsed) (expected 5.0 seconds)")
    verdict(forward == .seconds(5), "start.duration(to: start + 5 s) = \(forward) (expected 5.0 seconds)")
}

// 02: "A monotonic instant in nanoseconds ... The real clock is `CLOCK_MONOTONIC`, the clock Dispatch's `DispatchTime`
// uses"; `now` is "monotonic", and delayed work never starts early on it. Checked three ways: `monotonicNow()` against
// CLOCK_MONOTONIC read by the probe just before; an interval measured with `scheduler.now` across a 2 ms sleep (what
// Combine's `measureInterval` does through `.combine`); and 1 ms delays timed on CLOCK_MONOTONIC.
func probeCoarseClock() {
    @Sendable func rawMonotonic() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
    var behind = 0
    var worstBehind: Int64 = 0
    for _ in 0..<1_000 {
        let before = rawMonotonic()
        let read = SchedulerTime.monotonicNow().nanoseconds
        if read < before {
            behind += 1
            worstBehind = max(worstBehind, before - read)
        }
        usleep(50)
    }
    verdict(
        behind == 0,
        "monotonicNow() earlier than a CLOCK_MONOTONIC read just before it: \(behind) of 1000 (by up to \(worstBehind) ns)"
    )
    let pool = ThreadPool(threadCount: 1, name: "clock")
    let schedulers: [any TimedScheduler] = [DispatchQueueScheduler(name: "clock"), pool.makeScheduler(name: "clock")]
    var short = 0
    for _ in 0..<200 {
        let start = schedulers[1].now
        let rawStart = rawMonotonic()
        while rawMonotonic() - rawStart < 2_000_000 { usleep(200) }
        if schedulers[1].now - start < .milliseconds(2) { short += 1 }
    }
    verdict(
        short == 0, "an interval of at least 2 ms measured with the pool scheduler's now as shorter: \(short) of 200")
    for scheduler in schedulers {
        var early = 0
        var shortest = Int64.max
        let trials = 200
        for _ in 0..<trials {
            let done = DispatchSemaphore(value: 0)
            let ranAt = Box<Int64>(0)
            let asked = rawMonotonic()
            scheduler.schedule(after: .milliseconds(1)) {
                ranAt.value = rawMonotonic()
                done.signal()
            }
            done.wait()
            let waited = ranAt.value - asked
            shortest = min(shortest, waited)
            if waited < 1_000_000 { early += 1 }
        }
        verdict(
            early == 0,
            "\(type(of: scheduler)): schedule(after: 1 ms) started early \(early) of \(trials) times (shortest wait \(shortest) ns)"
        )
    }
    pool.shutdown()
}

// 03: "each call of `reschedule` schedules one more step" (Scheduler.scheduleRecursive), also on a concurrent scheduler,
// where steps asked for while one runs are owed until it ends.
func probeRecursionOwedSteps() {
    let scheduler = ConcurrentDispatchQueueScheduler(name: "recursion", queue: .global())
    let steps = Box(0)
    scheduler.scheduleRecursive { reschedule in
        let step = steps.update {
            $0 += 1
            return $0
        }
        if step == 1 {
            reschedule()
            reschedule()
        }
    }
    _ = wait(upTo: .seconds(1)) { steps.value >= 3 }
    usleep(200_000)
    verdict(steps.value == 3, "a first step that calls reschedule twice: \(steps.value) steps ran (expected 3)")
}

// 04 (and 32): "Two steps never run at once, also on a concurrent scheduler" (scheduleRecursive). A scheduler that is
// neither serial nor declared concurrent (here SwiftNIO's thread pool with 4 threads, through the NIO adapter).
func probeRecursionNonSerial() {
    recursionOverlapOnNIOPool()
}

// 05: `isCancelled`: "Whether a `cancel()` call has succeeded". A tick that cancels its own repetition.
func probeRepeatingIsCancelled() {
    let pool = ThreadPool(threadCount: 1, name: "repeat")
    let scheduler = pool.makeScheduler(name: "repeat")
    let handle = Box<(any Cancellable)?>(nil)
    let seen = Box<(cancelled: Bool, isCancelled: Bool)?>(nil)
    let ticks = Box(0)
    let gate = DispatchSemaphore(value: 0)
    handle.value = scheduler.schedule(at: scheduler.now + .milliseconds(20), every: .milliseconds(10)) {
        ticks.update { $0 += 1 }
        guard seen.value == nil, let own = handle.value else { return }
        let cancelled = own.cancel()
        seen.value = (cancelled, own.isCancelled)
        gate.signal()
    }
    gate.wait()
    usleep(100_000)
    let (cancelled, isCancelled) = seen.value!
    verdict(cancelled, "cancel() from inside the tick returned \(cancelled)")
    verdict(isCancelled, "isCancelled right after that successful cancel(), inside the tick: \(isCancelled)")
    verdict(handle.value!.isCancelled, "isCancelled after the tick returned: \(handle.value!.isCancelled)")
    verdict(ticks.value == 1, "ticks: \(ticks.value) (expected 1)")
    pool.shutdown()
}

// 06: `hasStarted`: "Whether the work has started or finished (it can then no longer be cancelled)".
func probeHasStarted() {
    let pool = ThreadPool(threadCount: 1, name: "started")
    let scheduler = pool.makeScheduler(name: "started")
    let handle = Box<ScheduledWork?>(nil)
    let ready = DispatchSemaphore(value: 0)
    let seen = Box<(hasStarted: Bool, cancel: Bool)?>(nil)
    let done = DispatchSemaphore(value: 0)
    let scheduled = scheduler.schedule {
        ready.wait()
        let own = handle.value!
        seen.value = (own.hasStarted, own.cancel())
        done.signal()
    }
    handle.value = scheduled as? ScheduledWork
    guard handle.value != nil else {
        verdict(false, "the pool's handle is not a ScheduledWork")
        return
    }
    print("   before the task starts: hasStarted \(handle.value!.hasStarted)")
    ready.signal()
    done.wait()
    let (hasStarted, cancelled) = seen.value!
    verdict(hasStarted, "hasStarted inside the running task: \(hasStarted) (cancel() there returned \(cancelled))")
    usleep(20_000)
    verdict(handle.value!.hasStarted, "hasStarted after it finished: \(handle.value!.hasStarted)")
    pool.shutdown()
}

// 07: "Scheduling afterwards returns an already-cancelled handle" (ThreadPool.shutdown()).
func probeRefusedHandle() {
    let pool = ThreadPool(threadCount: 1, name: "refused")
    let scheduler = pool.makeScheduler(name: "refused")
    let concurrent = pool.makeConcurrentScheduler(name: "refused-concurrent")
    pool.shutdown()
    let ran = Box(false)
    let handles: [(String, any Cancellable)] = [
        ("serial schedule", scheduler.schedule { ran.value = true }),
        ("serial schedule(after:)", scheduler.schedule(after: .milliseconds(1)) { ran.value = true }),
        ("concurrent schedule", concurrent.schedule { ran.value = true }),
    ]
    usleep(50_000)
    for (what, handle) in handles {
        verdict(handle.isCancelled, "\(what) after shutdown(): isCancelled \(handle.isCancelled)")
    }
    verdict(!ran.value, "refused work ran: \(ran.value)")
}

// 12: "a private serial queue whose target is any queue" (DispatchQueueScheduler(name:targetQueue:)).
func probeDispatchTarget() {
    let key = DispatchSpecificKey<String>()
    let target = DispatchQueue(label: "the-target")
    target.setSpecific(key: key, value: "the-target")
    let scheduler = DispatchQueueScheduler(name: "targeted", targetQueue: target)
    let seen = Box<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule {
        seen.value = DispatchQueue.getSpecific(key: key)
        done.signal()
    }
    done.wait()
    verdict(seen.value == "the-target", "a task's queue hierarchy includes the target queue: \(seen.value ?? "nil")")
}

// 13: "the declared width is the processor count" (ConcurrentDispatchQueueScheduler).
func probeConcurrentDispatchWidth() {
    let cores = ThreadPool.activeProcessorCount
    let made = Schedulers.concurrent(name: "width")
    let onGlobal = ConcurrentDispatchQueueScheduler(name: "width-global", queue: .global())
    verdict(made.width == cores, "Schedulers.concurrent().width = \(made.width), active processors \(cores)")
    verdict(
        onGlobal.width == cores, "init(name:queue: .global()).width = \(onGlobal.width), active processors \(cores)")
}

// 14: "Only serial schedulers that run work later qualify" (SchedulerExecutor): an actor on a concurrent scheduler
// would run two of its jobs at once.
actor Tally {
    let executor: SchedulerExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    let overlap = Overlap()
    init(_ executor: SchedulerExecutor) { self.executor = executor }
    func work() {
        overlap.enter()
        usleep(2_000)
        overlap.leave()
    }
}

func probeExecutorAcceptsConcurrent() {
    let pool = ThreadPool(threadCount: 4, name: "executor")
    let subjects: [any Scheduler] = [
        Schedulers.concurrent(name: "concurrent"), pool.makeConcurrentScheduler(name: "pool-concurrent"),
    ]
    for scheduler in subjects {
        let accepted = SchedulerExecutor.accepts(scheduler.traits)
        verdict(!accepted, "SchedulerExecutor.accepts(\(scheduler.name), traits [\(scheduler.traits)]) = \(accepted)")
        guard accepted else { continue }
        let tally = Tally(SchedulerExecutor(scheduler))
        blockOn {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<40 { group.addTask { await tally.work() } }
            }
        }
        verdict(tally.overlap.most == 1, "an actor on it ran \(tally.overlap.most) of its jobs at once")
    }
    pool.shutdown()
}

// 15: Schedulers.pooled: "A new serial scheduler on the process-wide ThreadPool.shared pool".
func probePooledSharedPool() {
    let first = Schedulers.pooled(name: "a")
    let threadsBefore = processThreadCount()
    let more = (0..<8).map { Schedulers.pooled(name: "p\($0)") }
    let threadsAfter = processThreadCount()
    verdict(
        first.pool === ThreadPool.shared,
        "Schedulers.pooled().pool === ThreadPool.shared: \(first.pool === ThreadPool.shared)")
    verdict(
        threadsAfter == threadsBefore,
        "threads before 8 more pooled schedulers: \(threadsBefore), after: \(threadsAfter) (\(more.count) made)")
}

// 16: Schedulers.subscription: "Inline when a current scheduler exists, else on a background serial scheduler".
func probeSubscriptionShared() {
    verdict(
        Schedulers.subscription === Schedulers.subscription,
        "Schedulers.subscription is one scheduler: \(Schedulers.subscription === Schedulers.subscription)")
    let order = Box<[Int]>([])
    let overlap = Overlap()
    let count = 200
    for index in 0..<count {
        Schedulers.subscription.schedule {
            overlap.enter()
            order.update { $0.append(index) }
            usleep(1_000)
            overlap.leave()
        }
    }
    _ = wait(upTo: .seconds(5)) { order.value.count == count }
    let outOfOrder = zip(order.value, order.value.dropFirst()).filter { $0.0 > $0.1 }.count
    verdict(
        overlap.most == 1 && outOfOrder == 0,
        "\(count) tasks of 1 ms from the main thread (no current scheduler): \(overlap.most) at once at most, "
            + "\(outOfOrder) neighbours out of order")
}

// 17: performAsCurrent runs body "restoring the previous value afterwards".
struct Thrown: Error {}

func probeCurrentRestoredOnThrow() {
    let scheduler = DispatchQueueScheduler(name: "thrower")
    let before = Schedulers.current
    do {
        try Schedulers.performAsCurrent(scheduler) { throw Thrown() }
    } catch {}
    let after = Schedulers.current
    verdict(before == nil, "current before: \(before?.name ?? "nil")")
    verdict(after == nil, "current after a body that threw: \(after?.name ?? "nil") (expected nil)")
}

// 18: "a trampolined task can be cancelled until it starts" (ImmediateScheduler).
func probeImmediateNestedCancel() {
    let nestedRan = Box(false)
    let cancelled = Box<Bool?>(nil)
    Schedulers.immediate.schedule {
        let nested = Schedulers.immediate.schedule { nestedRan.value = true }
        cancelled.value = nested.cancel()
    }
    verdict(cancelled.value == true, "cancel() of trampolined work before it started returned \(cancelled.value!)")
    verdict(!nestedRan.value, "the cancelled trampolined work ran: \(nestedRan.value)")
}

// 19: worker threads are named so "/proc/<pid>/task/*/comm shows whose worker it is ... the middle (the pool's name) is
// cut so that the worker's number stays".
func probeThreadName() {
    let pool = ThreadPool(threadCount: 2, name: "reallylongpoolname")
    let names = Box<Set<String>>([])
    for index in 0..<20 {
        let scheduler = pool.makeScheduler(name: "s\(index)")
        scheduler.schedule {
            let name = threadName()
            names.update { _ = $0.insert(name) }
            usleep(5_000)
        }
    }
    _ = wait(upTo: .seconds(2)) { names.value.count >= 2 }
    let all = names.value.sorted()
    let numbered = all.allSatisfy { $0.range(of: "-[0-9]+$", options: .regularExpression) != nil }
    verdict(numbered && all.count == 2, "worker names: \(all) (expected two, each ending in its number)")
    pool.shutdown()
}
