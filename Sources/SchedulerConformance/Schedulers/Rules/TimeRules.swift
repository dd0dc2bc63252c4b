import Dispatch
import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

extension RuleFamily {
    public static let time = RuleFamily("T", title: "Time")
}

extension RuleID {
    public static let t1 = RuleID(newRuleOf: .time, number: 1)
    public static let t2 = RuleID(newRuleOf: .time, number: 2)
    public static let t3 = RuleID(newRuleOf: .time, number: 3)
    public static let t4 = RuleID(newRuleOf: .time, number: 4)
    public static let t5 = RuleID(newRuleOf: .time, number: 5)
    public static let t6 = RuleID(newRuleOf: .time, number: 6)
    public static let t7 = RuleID(newRuleOf: .time, number: 7)
    /// A rule only where the package is built with its Combine trait (the default), which its check needs.
    public static let t8 = RuleID(newRuleOf: .time, number: 8)
}

/// T: time. Every check is one-sided (never early); lateness is reported, never failed on.
enum TimeRules {
    static let all: [ConformanceRule] =
        [neverEarly, monotonic, dueNow, equalDeadlines, fairness, fixedRate, honestTraits] + combine

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

extension TimeRules {
    static let dueNow = ConformanceRule(
        id: .t3, family: .time,
        statement:
            "Work due now or in the past behaves like schedule at the moment of the call: it keeps FIFO order with plain work, and runs after delayed work that came due before it (also while a task kept the scheduler busy).",
        why: "Work due now is plain work: it must neither overtake nor fall behind what was scheduled before it.",
        catches: "SwiftNIO runs due delayed work interleaved with plain work (its adapter fails T3 by design).",
        requires: [.timed, .serial]
    ) { context in
        let scheduler = try context.makeTimedScheduler()
        // Virtual time starts at zero, where `.zero` is now, not the past: move the clock on first.
        (scheduler as? any VirtualTimeDriver)?.advance(by: .seconds(1))
        let order = Shared<[Int]>([])
        let count = 300
        // Submitted from inside a task, so the whole sequence is queued before any of it runs.
        scheduler.schedule {
            for index in 0..<count {
                switch index % 3 {
                case 0: scheduler.schedule { order.append(index) }
                case 1: scheduler.schedule(at: scheduler.now) { order.append(index) }
                default: scheduler.schedule(at: .zero) { order.append(index) }
                }
            }
        }
        let kinds = ["plain", "due now", "due in the past"]
        do {
            try context.waitUntil("\(count) tasks", on: scheduler) { order.value.count == count }
        } catch let failure as RuleFailure {
            // Name what never ran, so a lost task reads as one, not as slowness.
            let ran = Set(order.value)
            let missing = (0..<count).filter { !ran.contains($0) }
            let named = missing.prefix(5).map { "\($0) (\(kinds[$0 % 3]))" }.joined(separator: ", ")
            throw RuleFailure(
                "\(failure.detail); \(ran.count) of \(count) ran, never: \(named)"
                    + (missing.count > 5 ? " and \(missing.count - 5) more" : ""))
        }
        let ran = order.value
        if let bad = ran.indices.first(where: { ran[$0] != $0 }) {
            throw RuleFailure("task \(ran[bad]) (\(kinds[ran[bad] % 3])) ran in place \(bad) of \(count)")
        }
        guard !context.backend.traits.contains(.virtualTime) else { return "" }
        // Forced: delayed work that came due while a task kept the scheduler busy was due first, so it runs before
        // work scheduled for now after that (a scheduler that queues due-now work ahead of its late timers fails).
        // (The session's other threads stay free: a pool's idle worker may move the timer meanwhile, and that is
        // allowed. Keeping every thread busy too would also starve the Dispatch timer that OperationQueueScheduler's
        // delayed work needs; Docs/Conformance.md, "Mutation pass", mutant 24.)
        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let lateOrder = Shared<[String]>([])
        scheduler.schedule {
            busy.signal()
            _ = wait(release)
        }
        try require(wait(busy), "a task did not start within 30 s")
        let deadline = scheduler.now + .milliseconds(2)
        scheduler.schedule(at: deadline) { lateOrder.append("delayed") }
        // 50 ms past its deadline: a scheduler whose timers fire on another thread (Dispatch's, OperationQueue's)
        // has handed the delayed task over by then, also on a busy machine.
        while scheduler.now < deadline + .milliseconds(50) { usleep(1_000) }
        scheduler.schedule(at: scheduler.now) { lateOrder.append("due now") }
        release.signal()
        try context.waitUntil("2 tasks", on: scheduler) { lateOrder.value.count == 2 }
        try require(
            lateOrder.value == ["delayed", "due now"],
            "work due now, scheduled after a delayed task had come due while the scheduler was busy, ran first")
        return ""
    }
}

#if !Combine
    extension TimeRules {
        /// T8 judges SchedulerKit's Combine adapter, which exists only where the package is built with its Combine trait.
        static let combine: [ConformanceRule] = []
    }
#else
    import SchedulerKitCombine

    extension TimeRules {
        /// The rules under the Combine trait: T8 judges SchedulerKit's `CombineScheduler` over every timed subject.
        static let combine: [ConformanceRule] = [combineTime]

        /// Combine's operators never see a scheduler's `schedule(at:)`: they compute every date from `now` and
        /// strides. T8 asks what they ask, through the adapter a user writes `receive(on: scheduler.combine)` with.
        static let combineTime = ConformanceRule(
            id: .t8, family: .time,
            statement:
                "As a Combine scheduler (scheduler.combine), it keeps its own time: Combine's now reads the scheduler's clock, distance(to:) and advanced(by:) agree in size and sign, work Combine schedules for now + 20 ms (as delay does) starts no earlier than 20 ms later by the scheduler's clock, and an interval Combine measures between two events 20 ms apart (as measureInterval does) is at least 20 ms.",
            why:
                "debounce, throttle, delay, timeout and measureInterval compute every date from the scheduler's now and strides: a now on another clock, or a stride of the wrong sign, fires them at the wrong time or never, while the scheduler itself keeps every other rule.",
            catches:
                "A CombineScheduler whose now reads the monotonic clock rather than its base's (on virtual time, delayed work is then due hours ahead) or whose distance(to:) has its sign reversed (measureInterval reports negative intervals): the fresh mutant set's 108 and 110, which no rule judging a scheduler directly can see.",
            requires: .timed
        ) { context in
            try combineTime(of: try context.makeTimedScheduler(), context)
        }

        private static func combineTime<Base: TimedScheduler>(of scheduler: Base, _ context: ConformanceContext) throws
            -> String
        {
            let combine = scheduler.combine
            let before = scheduler.now
            let now = combine.now
            let after = scheduler.now
            try require(
                before <= now.time && now.time <= after,
                "Combine's now read \(now.time), outside the scheduler's clock read just before (\(before)) and after (\(after))"
            )
            for stride in [CombineSchedulerTime.Stride.milliseconds(1), .milliseconds(20), .seconds(1)] {
                let later = now.advanced(by: stride)
                try require(
                    later > now && now.distance(to: later) == stride && later.distance(to: now) == -stride,
                    "now.advanced(by: \(stride)) is \(later); the distance there is \(now.distance(to: later)) and back \(later.distance(to: now))"
                )
            }
            let delay = CombineSchedulerTime.Stride.milliseconds(20)
            let start = combine.now
            let startedAt = Shared<SchedulerTime?>(nil)
            combine.schedule(after: start.advanced(by: delay), tolerance: .zero, options: nil) {
                startedAt.update { $0 = scheduler.now }
            }
            try context.waitUntil("work Combine scheduled 20 ms ahead", on: scheduler) { startedAt.value != nil }
            let waited = Duration.nanoseconds((startedAt.value?.nanoseconds ?? 0) - start.time.nanoseconds)
            try require(
                waited >= delay.duration,
                "work Combine scheduled for now + 20 ms started \(readable(waited)) after now by the scheduler's clock")
            let first = combine.now
            if let driver = scheduler as? any VirtualTimeDriver {
                driver.advance(by: delay.duration)
            } else {
                while scheduler.now < first.time + delay.duration { sleepBriefly() }
            }
            let measured = first.distance(to: combine.now)
            try require(
                measured >= delay,
                "Combine measured \(readable(measured.duration)) between two events 20 ms apart by the scheduler's clock"
            )
            return
                "delayed work started \(readable(waited)) after now (20 ms asked); 20 ms measured as \(readable(measured.duration))"
        }
    }
#endif
