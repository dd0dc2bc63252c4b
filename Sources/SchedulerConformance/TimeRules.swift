import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

/// T: time. Every check is one-sided (never early); lateness is reported, never failed on.
enum TimeRules {
    static let all: [ConformanceRule] = [
        neverEarly, monotonic, dueNow, equalDeadlines, fairness, fixedRate, honestTraits,
    ]

    static let neverEarly = ConformanceRule(
        id: .t1, family: .time,
        evidence: .mixed(
            forced: "earliness beyond the wake-up latency, seen on almost every task", trials: 2_000,
            trial: "delayed tasks that might start slightly early"),
        statement:
            "Delayed work never starts before its deadline on the scheduler's own clock (2 000 tasks due within 20 ms).",
        why: "A timeout or a debounce that fires early gives a wrong answer, not a slow one.",
        catches:
            "RxSwift's and OpenCombine's two-sided timing tests would accept an early start; SwiftNIO's testScheduleWithDelay is one-sided, as this rule is.",
        requires: .timed
    ) { context in
        let scheduler = try context.makeTimedScheduler()
        let count = 2_000
        let lateness = Shared<[Int64]>([])
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<count {
            let deadline = scheduler.now + .nanoseconds(Int64.random(in: 0..<20_000_000, using: &generator))
            scheduler.schedule(at: deadline) {
                let late = scheduler.now.nanoseconds - deadline.nanoseconds
                lateness.update { $0.append(late) }
            }
        }
        try context.waitUntil("\(grouped(count)) delayed tasks", on: scheduler) { lateness.value.count == count }
        let sorted = lateness.value.sorted()
        let early = sorted.filter { $0 < 0 }
        try require(
            early.isEmpty,
            "\(grouped(early.count)) of \(grouped(count)) tasks started early, the earliest \(readable(.nanoseconds(-sorted[0]))) before its deadline"
        )
        let nanoseconds = sorted.map(Double.init)
        let (p50, p99) = (Int64(quantile(sorted: nanoseconds, 0.5)), Int64(quantile(sorted: nanoseconds, 0.99)))
        let soft = p99 > 50_000_000 ? " (p99 above 50 ms: a loaded machine or a slow timer)" : ""
        return "lateness p50 \(readable(.nanoseconds(p50))), p99 \(readable(.nanoseconds(p99))), "
            + "max \(readable(.nanoseconds(sorted.last ?? 0)))\(soft)"
    }

    static let monotonic = ConformanceRule(
        id: .t2, family: .time,
        evidence: .mixed(
            forced: "now on CLOCK_MONOTONIC's scale and pace, and a virtual now that stands still", trials: 100_000,
            trial: "reads of now on 4 threads (on one, for a thread-confined scheduler) that might go backwards"),
        statement:
            "The scheduler's clock is monotonic, never the wall clock: now never goes backwards on any thread, a real clock reads CLOCK_MONOTONIC (within 1 s) and keeps pace with it, and a virtual one stands still until driven.",
        why:
            "Wall-clock deadlines jump when NTP or a person sets the clock; delays must be measured on a monotonic clock.",
        catches:
            "RAC and ReactiveSwift schedule delayed work on the wall clock (dispatch_walltime) and read now from Date(). Forced: a real clock's now must lie on CLOCK_MONOTONIC's scale, which the wall clock (seconds since 1970) never does; a scheduler whose now is monotonic but which hands its deadlines to a wall-clock timer shows only when the machine's clock is set, which the kit cannot do, and passes.",
        requires: .timed
    ) { context in
        let scheduler = try context.makeTimedScheduler()
        if !context.backend.traits.contains(.virtualTime) {
            // SchedulerTime's real clock is CLOCK_MONOTONIC; 1 s of slack admits CLOCK_BOOTTIME on a machine that has
            // not been suspended, and nothing near the wall clock, which is decades away.
            let (before, reading, after) = (SchedulerTime.monotonicNow(), scheduler.now, SchedulerTime.monotonicNow())
            try require(
                reading >= before - .seconds(1) && reading <= after + .seconds(1),
                "now read \(reading.nanoseconds / 1_000_000_000) s while CLOCK_MONOTONIC read \(before.nanoseconds / 1_000_000_000) s: it is not on the monotonic clock (the wall clock counts from 1970)"
            )
        }
        let backwards = Shared<[String]>([])
        let readOnThread: @Sendable (Int) -> Void = { thread in
            var previous = scheduler.now
            for read in 0..<25_000 {
                let now = scheduler.now
                if now < previous {
                    backwards.update { $0.append("thread \(thread), read \(read): \(previous.duration(to: now))") }
                }
                previous = now
            }
        }
        // A scheduler confined to one thread is read from the check's thread alone, as often as 4 threads would.
        if context.isThreadConfined { (0..<4).forEach(readOnThread) } else { Producers.run(4, readOnThread) }
        try require(
            backwards.value.isEmpty, "now went backwards \(backwards.value.count) times; first: \(backwards.value[0])")
        let monotonicBefore = SchedulerTime.monotonicNow()
        let first = scheduler.now
        usleep(20_000)
        let second = scheduler.now
        let monotonicElapsed = SchedulerTime.monotonicNow() - monotonicBefore
        let elapsed = second - first
        if context.backend.traits.contains(.virtualTime) {
            try require(elapsed == .zero, "virtual now moved by \(readable(elapsed)) while nobody drove it")
            return ""
        }
        try require(
            elapsed >= .milliseconds(20) && elapsed <= monotonicElapsed,
            "over a 20 ms sleep now moved by \(readable(elapsed)) while CLOCK_MONOTONIC moved by \(readable(monotonicElapsed))"
        )
        return ""
    }

    static let equalDeadlines = ConformanceRule(
        id: .t4, family: .time,
        statement:
            "Tasks run by deadline, then submission order: 1 000 tasks with one deadline run FIFO (serial schedulers: on a concurrent one they start in that order but may finish in any).",
        why:
            "Two timers set for the same moment must fire in the order they were set, or tests of debounce and throttle flicker.",
        catches:
            "pointfreeco/swift-composable-architecture#94 and #97 (test-scheduler timers due at the same moment fired in the wrong order).",
        requires: [.timed, .serial]
    ) { context in
        let scheduler = try context.makeTimedScheduler()
        let count = 1_000
        let order = Shared<[Int]>([])
        let deadline = scheduler.now + .milliseconds(50)
        for index in 0..<count { scheduler.schedule(at: deadline) { order.append(index) } }
        try context.waitUntil("\(grouped(count)) tasks", on: scheduler) { order.value.count == count }
        let ran = order.value
        let inversions = zip(ran, ran.dropFirst()).filter { $0 > $1 }.count
        try require(
            inversions == 0,
            "\(grouped(inversions)) of \(grouped(count - 1)) neighbours ran out of order (first ran: \(ran.prefix(5)))")
        return ""
    }

    static let fairness = ConformanceRule(
        id: .t5, family: .time,
        statement:
            "A due timer fires while plain work keeps re-enqueueing itself, and plain work is never held behind far-future timers.",
        why:
            "A busy scheduler must still fire due timers, and a timer far in the future must not hold plain work back.",
        catches: "SwiftNIO's testNonStarvation and testImmediateTasksDontGetStuck guard the same.",
        // Asynchronous: the check's chain re-enqueues itself, which an inline scheduler would run on the stack.
        requires: [.timed, .asynchronous], excludes: .virtualTime
    ) { context in
        let scheduler = try context.makeTimedScheduler()
        let timerFired = Atomic<Bool>(false)
        let chainSteps = Counter()
        let chainStopped = Atomic<Bool>(false)
        // Why the chain stopped: the timer, or the 10 s it gives up after. A scheduler that fires timers only when no
        // plain work is queued fires this one right after the chain gives up, so `timerFired` alone would pass it.
        let stoppedByTimer = Atomic<Bool>(false)
        let chainStart = ContinuousClock.now
        @Sendable func chain() {
            if timerFired.load(ordering: .acquiring) {
                stoppedByTimer.store(true, ordering: .releasing)
                return chainStopped.store(true, ordering: .releasing)
            }
            if ContinuousClock.now - chainStart > .seconds(10) { return chainStopped.store(true, ordering: .releasing) }
            chainSteps.increment()
            scheduler.schedule { chain() }
        }
        scheduler.schedule(at: scheduler.now + .milliseconds(10)) { timerFired.store(true, ordering: .releasing) }
        scheduler.schedule { chain() }
        try context.waitUntil("the self-re-enqueueing chain to stop", on: scheduler, timeout: .seconds(20)) {
            chainStopped.load(ordering: .acquiring)
        }
        try require(
            stoppedByTimer.load(ordering: .acquiring),
            "a timer due in 10 ms had not fired after \(grouped(chainSteps.value)) self-re-enqueued tasks over 10 s")
        let note = "timer fired after \(grouped(chainSteps.value)) chain steps"
        // Plain work next to far-future timers.
        let far = (0..<1_000).map { _ in scheduler.schedule(at: scheduler.now + .seconds(3_600)) {} }
        let ran = Counter()
        scheduler.schedule { ran.increment() }
        let took = try context.waitUntil("plain work queued behind 1 000 far-future timers", on: scheduler) {
            ran.value == 1
        }
        for handle in far { handle.cancel() }
        return note + "; plain work beside 1 000 far timers ran after \(readable(took))"
    }

    static let fixedRate = ConformanceRule(
        id: .t6, family: .time,
        statement:
            "Repeating work keeps a fixed rate: no tick early, no drift from tick duration, ticks never overlap, and missed ticks are coalesced rather than fired in a burst.",
        why:
            "Periodic work (animation frames, polling) must keep its rate: no drift, no overlapping ticks, no burst after a stall.",
        catches:
            "OpenCombine's OperationQueue scheduler re-arms after each action and drifts; SwiftNIO's repeated tasks are fixed-delay (declared).",
        requires: [.timed, .repeating, .fixedRate], excludes: .virtualTime, deadline: RuleDeadline.long
    ) { context in
        let scheduler = try context.makeTimedScheduler()
        let interval: Int64 = 20_000_000
        let ticks = 60
        let longTick = 20
        let starts = Shared<[Int64]>([])
        let longTickEnd = Shared<Int64>(0)
        let inFlight = Counter()
        let overlaps = Counter()
        let box = HandleBox()
        // One and a half intervals ahead: the grid is `start + k·interval`, so a timer armed from the moment of the
        // call instead of from `start` ticks half an interval off it (a median phase of 10 ms, caught below).
        let start = scheduler.now + .milliseconds(30)
        box.set(
            scheduler.schedule(at: start, every: .nanoseconds(interval)) {
                if inFlight.increment() != 1 { overlaps.increment() }
                let began = scheduler.now
                let index = starts.update {
                    $0.append(began.nanoseconds - start.nanoseconds)
                    return $0.count
                }
                // Every tick works 7 ms (a fixed-delay timer would drift by it); one tick overruns 3.5 intervals.
                let busy: Int64 = index == longTick ? interval * 7 / 2 : 7_000_000
                while scheduler.now.nanoseconds - began.nanoseconds < busy {}
                if index == longTick { longTickEnd.update { $0 = scheduler.now.nanoseconds - start.nanoseconds } }
                inFlight.decrement()
                if index == ticks { box.value?.cancel() }
            })
        try context.waitUntil("\(ticks) ticks", on: scheduler, timeout: .seconds(30)) { starts.value.count >= ticks }
        let offsets = starts.value
        try require(overlaps.value == 0, "\(overlaps.value) ticks started while the previous tick was running")
        if let early = offsets.indices.first(where: { offsets[$0] < Int64($0) * interval }) {
            throw RuleFailure(
                "tick \(early + 1) started \(readable(.nanoseconds(Int64(early) * interval - offsets[early]))) before its slot"
            )
        }
        let end = longTickEnd.value
        let burst = offsets.filter { $0 >= end && $0 < end + interval }.count
        try require(
            burst <= 2,
            "\(burst) ticks started within one interval after a tick overran 3.5 intervals (missed ticks fired in a burst)"
        )
        // Fixed rate keeps each tick near its grid slot; a fixed delay of 7 ms per tick spreads the phase evenly
        // over the interval (median near 10 ms), so a median phase above 8 ms means the ticks drift.
        let phases = offsets.map { $0 % interval }.sorted()
        let medianPhase = Int64(quantile(sorted: phases.map(Double.init), 0.5))
        try require(
            medianPhase <= interval * 4 / 10,
            "median tick phase is \(readable(.nanoseconds(medianPhase))) into the 20 ms interval: ticks drift off the fixed-rate grid"
        )
        return "median phase \(readable(.nanoseconds(medianPhase))), \(burst) tick(s) right after the overrun"
    }

    static let honestTraits = ConformanceRule(
        id: .t7, family: .time,
        statement:
            "Traits match the API: a scheduler offers delayed work only if it claims the timed trait (no running at once and pretending), shutdown only with the shutdown trait, virtual time only with a driver.",
        why:
            "A scheduler must not accept work it cannot honour: running delayed work at once and pretending is a silent lie.",
        catches:
            "pointfreeco/combine-schedulers#11 (ImmediateScheduler with debounce surprised users: time never advances); OpenCombine's ImmediateScheduler runs repeating work once."
    ) { context in
        let scheduler = context.makeScheduler()
        let traits = context.backend.traits
        var mismatches: [String] = []
        if traits.contains(.timed) != (scheduler is any TimedScheduler) {
            mismatches.append("timed trait vs TimedScheduler")
        }
        if traits.contains(.shutdown) != (scheduler is any ShutdownScheduler) {
            mismatches.append("shutdown trait vs ShutdownScheduler")
        }
        if traits.contains(.virtualTime) != (scheduler is any VirtualTimeDriver) {
            mismatches.append("virtual-time trait vs VirtualTimeDriver")
        }
        if traits.contains(.fixedRate) && !traits.contains(.repeating) {
            mismatches.append("fixed-rate without repeating")
        }
        if traits.contains(.asynchronous) && traits.contains(.trampoline) {
            mismatches.append("asynchronous and trampoline")
        }
        try require(
            mismatches.isEmpty,
            "traits [\(traits)] do not match \(type(of: scheduler)): \(mismatches.joined(separator: "; "))")
        return ""
    }
}
