import Foundation
import SchedulerKit
import Synchronization

extension RuleFamily {
    public static let leftBehind = RuleFamily("N", title: "Nothing left behind (what a cancel leaves)")
}

extension RuleID {
    public static let n1 = RuleID(newRuleOf: .leftBehind, number: 1)
    public static let n2 = RuleID(newRuleOf: .leftBehind, number: 2)
    public static let n3 = RuleID(newRuleOf: .leftBehind, number: 3)
}

/// N1–N3: after a cancel, the scheduler holds nothing of the work. C4 and C6 check that a cancelled closure lets go
/// of its captures; these check what is left around it: the scheduler itself, a tick already queued behind busy work,
/// and, on virtual time, the dead deadline that a later `run()` must not move the clock to.
enum LeftBehindRules {
    static let all: [ConformanceRule] = [schedulerFreed, noTickAfterCancel, noDeadDeadline]

    static let schedulerFreed = ConformanceRule(
        id: .n1, family: .leftBehind,
        statement:
            "A scheduler whose only work was cancelled is freed once nobody references it: after work due in an hour is cancelled, after repeating work is cancelled from another thread, and after repeating work cancels itself from inside its tick, the scheduler and every capture are freed within 2 s of the last reference going (a fresh scheduler each time).",
        why:
            "A cancelled timer that keeps its scheduler alive keeps the scheduler's threads, queues and Dispatch sources: a screen that sets up a poll and tears it down leaks one scheduler per visit.",
        catches:
            "A cancelled repeating Dispatch timer that is never torn down and keeps its scheduler alive (by reading: its event handler holds the scheduler); a timer heap that keeps the scheduler alive after its last timer was cancelled.",
        requires: [.timed, .repeating], excludes: [.virtualTime, .threadConfined]
    ) { context in
        guard context.makeScheduler() !== context.makeScheduler() else {
            return "shared instance, never released: nothing to check"
        }
        var skipped: [String] = []
        for way in CancelWay.allCases {
            let captures = LiveCount()
            let released = WeakBox()
            let cancelled = try { () throws -> Bool in
                let timed = try context.makeTimedScheduler()
                released.set(timed)
                let capture = captures.make()
                return try way.cancel(on: timed, capture: capture, context: context)
            }()
            // A scheduler whose one-shot work cannot be cancelled says so with false (C1 judges that it is true).
            guard cancelled else {
                skipped.append(way.text)
                continue
            }
            poll(upTo: .seconds(2)) { captures.live == 0 && released.isNil }
            try require(captures.live == 0, "\(way.text): the work's capture was still alive 2 s after the cancel")
            try require(released.isNil, "\(way.text): the scheduler was still alive 2 s after its last reference went")
        }
        return skipped.isEmpty
            ? "" : "not checked (cancel() said false: it cannot be cancelled): " + skipped.joined(separator: "; ")
    }

    static let noTickAfterCancel = ConformanceRule(
        id: .n2, family: .leftBehind,
        statement:
            "Once cancel() of repeating work has returned true, no tick runs, also one that came due while a task kept the scheduler busy: repeating work every 1 ms is cancelled from another thread while a task holds the scheduler (10 ms after it started, so ticks are due behind it), and nothing of it runs after the cancel, 5 times.",
        why:
            "Code that cancels a poll and then tears down what the poll reads relies on true meaning never again: a tick queued behind busy work that runs anyway reads a torn-down model.",
        catches:
            "A repeating timer whose due ticks are queued on the scheduler and run after cancel() returned true (the cancel flag is read when the tick is queued, not when it runs).",
        requires: [.timed, .repeating, .serial], excludes: [.virtualTime, .threadConfined]
    ) { context in
        let timed = try context.makeTimedScheduler()
        for round in 1...5 {
            let cancelled = Atomic<Bool>(false)
            let lateTicks = Counter()
            let ticks = Counter()
            let handle = timed.schedule(at: timed.now, every: .milliseconds(1)) {
                if cancelled.load(ordering: .acquiring) { lateTicks.increment() }
                ticks.increment()
            }
            try context.waitUntil("the first tick of round \(round)", on: timed) { ticks.value > 0 }
            // A task holds the scheduler until the check has cancelled: ticks due meanwhile queue behind it.
            let holding = Atomic<Bool>(false)
            let release = Atomic<Bool>(false)
            timed.schedule {
                holding.store(true, ordering: .releasing)
                poll(upTo: .seconds(5)) { release.load(ordering: .acquiring) }
            }
            try context.waitUntil("the task that holds the scheduler to start", on: timed) {
                holding.load(ordering: .acquiring)
            }
            usleep(10_000)  // ten ticks come due behind it
            let cancelledInTime = handle.cancel()
            cancelled.store(true, ordering: .releasing)
            release.store(true, ordering: .releasing)
            try require(cancelledInTime, "round \(round): cancel() of running repeating work returned false")
            usleep(50_000)
            try require(
                lateTicks.value == 0,
                "round \(round): \(lateTicks.value) tick(s) ran after cancel() had returned true (due while a task held the scheduler)"
            )
        }
        return ""
    }

    static let noDeadDeadline = ConformanceRule(
        id: .n3, family: .leftBehind,
        statement:
            "Cancelled delayed work leaves no deadline behind on virtual time: with work due in 1 h cancelled and nothing else pending, run() leaves now where it was; with live work due in 10 s beside it, run() ends at 10 s, not at 1 h.",
        why:
            "A test that cancels a timeout and then drains the scheduler reads now to see how long things took: a dead deadline that still moves the clock reports an hour that never passed, and fires timers due before it.",
        catches:
            "A virtual-time queue that skips a cancelled entry only when it reaches it, after moving the clock to its deadline (RxSwift's and ReactiveSwift's test schedulers checked, by reading, for the same).",
        requires: .virtualTime
    ) { context in
        let scheduler = context.makeScheduler()
        guard let timed = scheduler as? any TimedScheduler, let driver = scheduler as? any VirtualTimeDriver else {
            throw RuleFailure("\(type(of: scheduler)) claims virtual time but is not a timed VirtualTimeDriver")
        }
        let start = timed.now
        try require(
            timed.schedule(at: start + .seconds(3_600)) {}.cancel(), "cancel() of work due in 1 h returned false")
        _ = driver.run(maxSteps: 10)
        try require(
            timed.now == start,
            "run() with only cancelled work pending moved now by \(readable(start.duration(to: timed.now))), to the dead deadline"
        )
        let ran = Counter()
        timed.schedule(at: start + .seconds(10)) { ran.increment() }
        try require(
            timed.schedule(at: start + .seconds(3_600)) {}.cancel(), "cancel() of work due in 1 h returned false")
        _ = driver.run(maxSteps: 10)
        try require(ran.value == 1, "run() did not run the live work due in 10 s")
        try require(
            timed.now == start + .seconds(10),
            "run() ended at \(readable(start.duration(to: timed.now))), not at the live work's 10 s: the cancelled deadline moved the clock"
        )
        return ""
    }
}

/// How N1 cancels its scheduler's only work.
private enum CancelWay: CaseIterable {
    case delayedFromOutside, repeatingFromOutside, repeatingFromItsTick

    var text: String {
        switch self {
        case .delayedFromOutside: "work due in an hour, cancelled"
        case .repeatingFromOutside: "repeating work, cancelled from another thread"
        case .repeatingFromItsTick: "repeating work that cancelled itself from inside its tick"
        }
    }

    /// Schedules the work and cancels it; false when the scheduler's cancel() said it could not cancel one-shot work.
    func cancel(on timed: any TimedScheduler, capture: Tracked, context: ConformanceContext) throws -> Bool {
        switch self {
        case .delayedFromOutside:
            return timed.schedule(at: timed.now + .seconds(3_600)) { capture.touch() }.cancel()
        case .repeatingFromOutside:
            let ticks = Counter()
            let handle = timed.schedule(at: timed.now, every: .milliseconds(5)) {
                capture.touch()
                ticks.increment()
            }
            try context.waitUntil("a tick of the repeating work", on: timed) { ticks.value > 0 }
            try require(handle.cancel(), "cancel() of running repeating work returned false")
            return true
        case .repeatingFromItsTick:
            let box = HandleBox()
            let done = Atomic<Bool>(false)
            let handle = timed.schedule(at: timed.now + .milliseconds(5), every: .milliseconds(5)) {
                capture.touch()
                if box.value?.cancel() == true { done.store(true, ordering: .releasing) }
            }
            box.set(handle)
            try context.waitUntil("the tick that cancels its own repeating work", on: timed) {
                done.load(ordering: .acquiring)
            }
            box.set(ScheduledWork {})  // the check lets go of the real handle
            return true
        }
    }
}
