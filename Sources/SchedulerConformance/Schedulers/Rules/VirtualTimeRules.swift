import Dispatch
import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

extension RuleFamily {
    public static let virtualTime = RuleFamily("V", title: "Virtual time")
}

extension RuleID {
    public static let v1 = RuleID(newRuleOf: .virtualTime, number: 1)
    public static let v2 = RuleID(newRuleOf: .virtualTime, number: 2)
    public static let v3 = RuleID(newRuleOf: .virtualTime, number: 3)
    public static let v4 = RuleID(newRuleOf: .virtualTime, number: 4)
    public static let v5 = RuleID(newRuleOf: .virtualTime, number: 5)
    public static let v6 = RuleID(newRuleOf: .virtualTime, number: 6)
    public static let v7 = RuleID(newRuleOf: .virtualTime, number: 7)
    public static let v8 = RuleID(newRuleOf: .virtualTime, number: 8)
    public static let v9 = RuleID(newRuleOf: .virtualTime, number: 9)
}

/// V: virtual time, for schedulers driven by a test (`VirtualTimeDriver`).
enum VirtualTimeRules {
    static let all: [ConformanceRule] = [
        nothingUntilDriven, advanceOrder, addedDuringAdvance, stepRunsOne, clockForward,
        missedTicks, boundedRun, noDeadlock, randomDeadlines,
    ]

    static func makeDriver(_ context: ConformanceContext) throws -> any VirtualTimeDriver {
        let scheduler = context.makeScheduler()
        guard let driver = scheduler as? any VirtualTimeDriver else {
            throw RuleFailure("\(type(of: scheduler)) claims virtual time but is not a VirtualTimeDriver")
        }
        return driver
    }

    static let nothingUntilDriven = ConformanceRule(
        id: .v1, family: .virtualTime,
        statement: "Nothing runs and the clock does not move until a test calls advance, step or run.",
        why: "Virtual time is of use only if nothing happens until the test says so.",
        catches:
            "No reported bug: every virtual-time peer keeps it (RACTestSchedulerSpec, combine-schedulers' testAdvance).",
        requires: .virtualTime
    ) { context in
        let scheduler = try makeDriver(context)
        let ran = Counter()
        let before = scheduler.now
        scheduler.schedule { ran.increment() }
        scheduler.schedule(at: before) { ran.increment() }
        // Repeating work only where the scheduler claims it (the rule needs virtual time alone).
        let repeating = context.backend.traits.contains(.repeating)
        if repeating { scheduler.schedule(at: before, every: .seconds(1)) { ran.increment() } }
        let due = repeating ? 3 : 2
        usleep(50_000)
        try require(ran.value == 0, "\(ran.value) tasks ran before the scheduler was driven")
        try require(scheduler.now == before, "now moved by \(scheduler.now - before) without being driven")
        scheduler.advance(by: .zero)
        try require(ran.value == due, "advance(by: 0) ran \(ran.value) of \(due) tasks due now")
        return ""
    }

    static let advanceOrder = ConformanceRule(
        id: .v2, family: .virtualTime,
        statement:
            "advance(to: t) runs everything due by t in (due time, submission) order with now equal to each task's due time while it runs, leaves later work alone, and ends with now == t.",
        why:
            "Code under test reads now while it runs: it must see the task's own due time, and the clock must land where the test asked.",
        catches:
            "ReactiveCocoa#2991 (the test scheduler's currentDate was wrong while actions ran); combine-schedulers moves now back for tasks due in the past (seen in its source).",
        requires: .virtualTime
    ) { context in
        let scheduler = try makeDriver(context)
        let origin = scheduler.now
        let record = Shared<[(index: Int, due: SchedulerTime, now: SchedulerTime)]>([])
        var expected: [(index: Int, due: SchedulerTime)] = []
        for index in 0..<200 {
            let due = origin + .milliseconds((index * 7) % 50)
            expected.append((index, due))
            scheduler.schedule(at: due) { record.update { $0.append((index, due, scheduler.now)) } }
        }
        let late = Counter()
        scheduler.schedule(at: origin + .milliseconds(61)) { late.increment() }
        let target = origin + .milliseconds(60)
        scheduler.advance(to: target)
        let ran = record.value
        let order = expected.sorted { ($0.due, $0.index) < ($1.due, $1.index) }.map(\.index)
        try require(
            ran.map(\.index) == order,
            "ran out of (due, submission) order; first difference at place \(zip(ran.map(\.index), order).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? ran.count)"
        )
        if let wrong = ran.first(where: { $0.now != $0.due }) {
            throw RuleFailure("task \(wrong.index) due at \(wrong.due - origin) saw now = \(wrong.now - origin)")
        }
        try require(late.value == 0, "work due after t ran")
        try require(scheduler.now == target, "advance(to:) ended with now = \(scheduler.now - origin), expected 60 ms")
        let emptyTarget = target + .seconds(5)
        scheduler.advance(to: emptyTarget)
        try require(scheduler.now == emptyTarget, "advance(to:) with nothing due did not move now to t")
        return ""
    }

    static let addedDuringAdvance = ConformanceRule(
        id: .v3, family: .virtualTime,
        statement: "Work added during an advance and due by its target runs in the same advance.",
        why:
            "Work an action schedules within the advanced window belongs to the same advance, or a test must advance twice to see it.",
        catches: "RxSwift's testVirtualScheduler_start checks the same.",
        requires: .virtualTime
    ) { context in
        let scheduler = try makeDriver(context)
        let origin = scheduler.now
        let seen = Shared<[Int64]>([])
        @Sendable func mark() { seen.update { $0.append((scheduler.now - origin).nanosecondsChecked() / 1_000_000) } }
        scheduler.schedule(at: origin + .milliseconds(1)) {
            mark()
            scheduler.schedule { mark() }
            scheduler.schedule(at: scheduler.now + .milliseconds(2)) { mark() }
            scheduler.schedule(at: scheduler.now + .milliseconds(10)) { mark() }
        }
        scheduler.advance(to: origin + .milliseconds(5))
        try require(seen.value == [1, 1, 3], "saw tasks at \(seen.value) ms, expected [1, 1, 3]")
        return ""
    }

    static let stepRunsOne = ConformanceRule(
        id: .v4, family: .virtualTime,
        statement:
            "step() runs exactly one task (the earliest) and does nothing on an empty scheduler; advance(by: 0) runs work due now.",
        why: "Tests step through time one task at a time: step() must run one task, whatever kind it is.",
        catches:
            "Found here: SchedulerKit's own TestScheduler.step() ran a second task after a repeating tick that cancelled itself (fixed; V4 now schedules such a tick).",
        requires: .virtualTime
    ) { context in
        let scheduler = try makeDriver(context)
        try require(!scheduler.step(), "step() on an empty scheduler reported that it ran a task")
        let order = Shared<[Int]>([])
        for index in 0..<3 { scheduler.schedule(at: scheduler.now + .seconds(3 - index)) { order.append(index) } }
        try require(scheduler.step(), "step() with 3 tasks pending reported none")
        try require(order.value == [2], "one step ran \(order.value), expected [2] (the earliest)")
        scheduler.schedule { order.append(9) }
        scheduler.advance(by: .zero)
        try require(order.value == [2, 9], "advance(by: 0) ran \(order.value.dropFirst()), expected the task due now")
        guard scheduler.traits.contains(.repeating) else { return "" }
        // A repeating tick that cancels itself ran: it is the step, and the next task waits for the next step.
        scheduler.advance(by: .seconds(5))  // what is left of the tasks above
        let ticks = Shared<[String]>([])
        let handle = Shared<(any Cancellable)?>(nil)
        let start = scheduler.now + .seconds(10)
        handle.update {
            $0 = scheduler.schedule(at: start, every: .seconds(1), leeway: .zero) {
                ticks.update { $0.append("tick") }
                handle.value?.cancel()
            }
        }
        scheduler.schedule(at: start + .seconds(1)) { ticks.update { $0.append("later") } }
        try require(scheduler.step(), "step() with a repeating tick due reported that it ran no task")
        try require(
            ticks.value == ["tick"], "one step ran \(ticks.value), expected only the repeating tick that cancels itself"
        )
        return ""
    }

    static let clockForward = ConformanceRule(
        id: .v5, family: .virtualTime,
        statement:
            "The virtual clock never goes backwards: work scheduled in the past runs at the current now, now never decreases from one task to the next, and advance(to:) a time already past leaves now where it is.",
        why: "A clock that moves backwards breaks every elapsed-time computation of the code under test.",
        catches:
            "RxSwift's advanceTo can set the clock backwards (seen in its source); ReactiveSwift only asserts in debug builds. Forced: the check advances to a time 7 s in the past.",
        requires: .virtualTime
    ) { context in
        let scheduler = try makeDriver(context)
        scheduler.advance(by: .seconds(10))
        let ten = scheduler.now
        let seen = Shared<[SchedulerTime]>([])
        scheduler.schedule(at: .zero) { seen.update { $0.append(scheduler.now) } }
        scheduler.schedule(at: ten - .seconds(5)) { seen.update { $0.append(scheduler.now) } }
        scheduler.schedule(at: ten + .seconds(1)) { seen.update { $0.append(scheduler.now) } }
        scheduler.advance(by: .seconds(2))
        let times = seen.value
        try require(times.count == 3, "\(times.count) of 3 tasks ran")
        try require(
            times[0] >= ten && times[1] >= ten,
            "past-due work saw now = \(times[0] - ten), \(times[1] - ten) relative to the time it was scheduled")
        try require(
            zip(times, times.dropFirst()).allSatisfy { $0 <= $1 },
            "now went backwards between tasks: \(times.map { $0 - ten })")
        // Forced: the kit itself asks for a target 7 s behind the clock (now is ten + 2 s here).
        let beforeBackwards = scheduler.now
        scheduler.advance(to: ten - .seconds(5))
        let afterBackwards = scheduler.now
        try require(
            afterBackwards >= beforeBackwards,
            "advance(to:) a time 7 s in the past moved now back by \(readable(beforeBackwards - afterBackwards))")
        return ""
    }

    static let missedTicks = ConformanceRule(
        id: .v6, family: .virtualTime,
        statement:
            "Repeating work fires every tick an advance passes over (1 000 ticks for 1 000 s at 1 s), and equal ticks run in creation order.",
        why:
            "A test that advances an hour must see every tick of a per-second timer, in creation order when ticks coincide.",
        catches:
            "pointfreeco/swift-composable-architecture#94 and #97 (coinciding ticks out of order); combine-schedulers' testTwoIntervalOrdering.",
        requires: [.virtualTime, .repeating]
    ) { context in
        let scheduler = try makeDriver(context)
        let order = Shared<[Int]>([])
        let start = scheduler.now + .seconds(1)
        let first = scheduler.schedule(at: start, every: .seconds(1)) { order.append(0) }
        let second = scheduler.schedule(at: start, every: .seconds(1)) { order.append(1) }
        scheduler.advance(by: .seconds(1_000))
        first.cancel()
        second.cancel()
        let ticks = order.value
        try require(ticks.count == 2_000, "\(grouped(ticks.count)) ticks of 2 timers over 1 000 s, expected 2 000")
        let alternating = ticks.enumerated().allSatisfy { $0.element == $0.offset % 2 }
        try require(alternating, "ticks due at the same time did not run in creation order: \(ticks.prefix(6))…")
        return ""
    }

    static let boundedRun = ConformanceRule(
        id: .v7, family: .virtualTime,
        statement:
            "run(maxSteps:) drains finite work and says so, and stops after maxSteps, saying so, when a repeating timer would never end.",
        why: "run() never ends on its own while a repeating timer lives: it must stop and say so.",
        catches: "A run() that loops for ever.",
        requires: [.virtualTime, .repeating]
    ) { context in
        let scheduler = try makeDriver(context)
        for index in 0..<5 { scheduler.schedule(at: scheduler.now + .seconds(index)) {} }
        let drained = scheduler.run(maxSteps: 100)
        try require(drained == .drained(steps: 5), "run(maxSteps: 100) over 5 tasks returned \(drained)")
        let handle = scheduler.schedule(at: scheduler.now, every: .seconds(1)) {}
        let stopped = scheduler.run(maxSteps: 100)
        handle.cancel()
        guard case .stoppedEarly(let steps, let pending) = stopped, steps == 100, pending >= 1 else {
            throw RuleFailure("run(maxSteps: 100) with an endless timer returned \(stopped)")
        }
        return ""
    }

    static let randomDeadlines = ConformanceRule(
        id: .v9, family: .virtualTime,
        statement: "20 000 random deadlines (many equal) run in (deadline, submission) order.",
        why: "Order under many random deadlines tests the heap itself.",
        catches: "RxSwift's testVirtualScheduler_stress checks the same.",
        requires: .virtualTime
    ) { context in
        let scheduler = try makeDriver(context)
        let count = 20_000
        let origin = scheduler.now
        let ran = Shared<[Int]>([])
        var dues: [Int64] = []
        var generator = SystemRandomNumberGenerator()
        for index in 0..<count {
            let due = Int64.random(in: 0..<5_000, using: &generator)
            dues.append(due)
            scheduler.schedule(at: origin + .milliseconds(due)) { ran.append(index) }
        }
        scheduler.advance(by: .seconds(5))
        let order = ran.value
        try require(order.count == count, "\(grouped(order.count)) of \(grouped(count)) tasks ran")
        let expected = (0..<count).sorted { (dues[$0], $0) < (dues[$1], $1) }
        let wrong = zip(order, expected).filter { $0 != $1 }.count
        try require(wrong == 0, "\(grouped(wrong)) of \(grouped(count)) tasks ran out of (deadline, submission) order")
        return ""
    }
}

/// V8: virtual time under concurrent use: other threads schedule and cancel while an advance runs its actions.
extension VirtualTimeRules {
    static let noDeadlock = ConformanceRule(
        id: .v8, family: .virtualTime,
        evidence: .mixed(
            forced: "20 actions that wait for another thread to use the scheduler", trials: 10_000,
            trial: "schedule and cancel calls from 10 threads racing an advance"),
        statement:
            "Ten threads may schedule and cancel while an advance runs, and actions run with no internal lock held, so an action can wait for another thread that uses the scheduler.",
        why:
            "Tests of concurrent code schedule from many threads while the clock advances; an action that waits for another thread must not deadlock on the scheduler's lock.",
        catches:
            "ReactiveSwift's TestScheduler.advance(to:) returns still holding its lock (seen in its source); ReactiveX/RxSwift#2609, fixed by #2610 (the virtual-time scheduler's thread check crashed under Swift Testing).",
        requires: .virtualTime, excludes: .threadConfined
    ) { context in
        let scheduler = try makeDriver(context)
        let blocked = Counter()
        let actionsRan = Counter()
        // Each action waits for another thread that schedules, cancels and reads now on the same scheduler.
        for _ in 0..<20 {
            scheduler.schedule(at: scheduler.now + .milliseconds(1)) {
                let helped = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    scheduler.schedule(at: scheduler.now + .seconds(1)) {}.cancel()
                    _ = scheduler.now
                    helped.signal()
                }
                if !wait(helped, timeout: .seconds(5)) { blocked.increment() }
                actionsRan.increment()
            }
        }
        let advanced = DispatchSemaphore(value: 0)
        let watch = context.watch
        Thread {
            while actionsRan.value < 20 && !watch.isAbandoned {
                watch.beginDriving(.advanceByOneMillisecond)
                scheduler.advance(by: .milliseconds(1))
                watch.endDriving()
            }
            advanced.signal()
        }.start()
        // What the producers asked for must happen: each task runs once, unless its cancel() said true.
        let marks = Shared<[RunMark]>([])
        Producers.run(10) { _ in
            var mine: [RunMark] = []
            for index in 0..<1_000 {
                let mark = RunMark()
                let handle = scheduler.schedule(at: scheduler.now + .milliseconds(index % 3)) { mark.ran() }
                if index % 2 == 0 && handle.cancel() { mark.cancelled() }
                mine.append(mark)
            }
            marks.update { $0 += mine }
        }
        try require(
            wait(advanced, timeout: .seconds(30)), "the advancing thread did not finish within 30 s (deadlock?)")
        try require(
            blocked.value == 0,
            "\(blocked.value) of 20 actions could not get another thread to use the scheduler within 5 s (a lock is held while actions run)"
        )
        scheduler.advance(by: .seconds(1))
        let all = marks.value
        let lost = all.filter { !$0.wasCancelled && $0.runs == 0 }.count
        let ranCancelled = all.filter { $0.wasCancelled && $0.runs > 0 }.count
        let twice = all.filter { $0.runs > 1 }.count
        try require(
            lost + ranCancelled + twice == 0,
            "of \(grouped(all.count)) tasks scheduled from 10 threads during an advance, \(lost) never ran, \(ranCancelled) ran after cancel() said true, \(twice) ran twice"
        )
        return ""
    }
}

/// One task of V8's producers: how often it ran, and whether its cancel() said true.
private final class RunMark: Sendable {
    private let runCount = Atomic<Int>(0)
    private let cancelledFlag = Atomic<Bool>(false)
    func ran() { runCount.add(1, ordering: .relaxed) }
    func cancelled() { cancelledFlag.store(true, ordering: .relaxed) }
    var runs: Int { runCount.load(ordering: .relaxed) }
    var wasCancelled: Bool { cancelledFlag.load(ordering: .relaxed) }
}
