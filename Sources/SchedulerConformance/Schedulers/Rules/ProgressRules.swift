import Dispatch
import Foundation
import SchedulerKit
import Synchronization

extension RuleFamily {
    public static let progress = RuleFamily(
        "G", title: "Progress (scheduled work is started, nearer deadlines are not kept waiting)")
}

extension RuleID {
    public static let g1 = RuleID(newRuleOf: .progress, number: 1)
    public static let g2 = RuleID(newRuleOf: .progress, number: 2)
}

/// G1–G2: scheduled work is started without anything else arriving to rescue it, and a nearer deadline armed after a
/// farther one is not left waiting for the farther one. Floods hide both defects (the next push rescues a stranded
/// task, the next timer wakes a sleeping timer thread), so these checks use hand-off shapes in which nothing comes
/// next. Their bound is one-sided and generous: started within ``ProgressRules/bound`` (1 s, times the deadline
/// scale), which no healthy scheduler nears on a busy machine and every stranded task exceeds.
enum ProgressRules {
    static let all: [ConformanceRule] = [started, nearerDeadline]

    /// How long a scheduled task may wait to start before it counts as stranded: a bound on a hang, not on speed.
    static var bound: Duration { .seconds(1) * RuleDeadline.scale }
    /// How late a nearer deadline may fire (G2, CL7): generous beside the milliseconds a loaded machine adds, and
    /// short beside the housekeeping wake-ups some timers have (SchedulerKit's sweep cancelled timers once a second),
    /// which rescue a timer that was not re-armed only when one falls within it.
    static var lateBound: Duration { .milliseconds(500) * RuleDeadline.scale }

    /// The hand-offs of G1, one per trial: each starts from the state the one before left.
    static let handOffs = ConformanceScale.scaled(1_000)
    static let handOffRound = 200

    static let started = ConformanceRule(
        id: .g1, family: .progress,
        evidence: .observed(
            trials: 1_000,
            trial:
                "hand-offs in which nothing comes next (from a thread outside once the last task ran, a task's last act, a task that goes on after it scheduled, a burst after an idle gap)"
        ),
        statement:
            "Work is started without anything else arriving to rescue it: each task of 1 000 hand-offs in which nothing comes next starts within 1 s — scheduled from a thread outside as soon as the last task ran (after a random spin of up to 50 µs), as a task's last act, by a task that goes on running after it scheduled, and in bursts of 1 to 4 tasks after an idle gap of 1 to 3 ms in which the scheduler's threads can park; on a concurrent scheduler, also two tasks, after an idle gap or at once, that each wait for the other to start.",
        why:
            "A hand-off that strands a task looks healthy under load, because the next task to arrive rescues it: the stranded task waits for traffic that a quiet app, a test or the last request of the day never sends.",
        catches:
            "A hand-off that looks for more work before it gives up ownership of the queue, so a push that lands in between is never started (negative control); a worker that parks without looking at the queue once more; a wake-up sent only when the queue was already non-empty.",
        requires: .asynchronous, excludes: [.virtualTime, .threadConfined]
    ) { context in
        let scheduler = context.makeScheduler()
        let probe = StartProbe()
        var generator = SystemRandomNumberGenerator()
        // A concurrent scheduler gets a fifth shape: two tasks that each wait for the other to start.
        let concurrent = ((scheduler as? any ConcurrentScheduler)?.width ?? 1) >= 2
        let shapes = HandOffShape.allCases.filter { concurrent || $0 != .waitForEachOther }
        try context.observe(handOffs, inRoundsOf: handOffRound) { round in
            for trial in round {
                try shapes[trial % shapes.count].run(on: scheduler, probe: probe, trial: trial + 1, using: &generator)
            }
        }
        return "slowest start \(readable(probe.slowest))"
    }

    static let nearerDeadline = ConformanceRule(
        id: .g2, family: .progress,
        statement:
            "A nearer deadline armed after a farther one fires on time, not with the farther one: with work due in 10 s already armed (and 5 ms given for the timer to go to sleep on it), work due in 30 ms, followed at once by work due in 5 s, runs no earlier than its deadline and at most 500 ms after it — armed from a thread outside and from inside a task, 5 times each.",
        why:
            "Timeouts, retries and debounces arm short timers while long ones are pending: a timer queue that is not re-armed for a nearer deadline makes a 30 ms timeout fire after the hour-long one.",
        catches:
            "A timer thread that sleeps until the earliest deadline it knew when it went to sleep and is not woken when a nearer one arrives (negative control: every round); a heap whose new minimum does not re-arm the system timer, or that re-arms it at a later deadline that arrives after the nearer one. A timer that also wakes every second for housekeeping rescues such a defect in about half the rounds, so 10 rounds miss it about once in a thousand runs.",
        requires: .timed, excludes: [.virtualTime, .threadConfined]
    ) { context in
        let timed = try context.makeTimedScheduler()
        var lateness: [Duration] = []
        for round in 0..<10 {
            let fromInside = round % 2 == 1
            let ran = Shared<SchedulerTime?>(nil)
            let armed = Shared<(far: any Cancellable, due: SchedulerTime, middle: any Cancellable)?>(nil)
            let arm: @Sendable () -> Void = {
                let far = timed.schedule(at: timed.now + .seconds(10)) {}
                usleep(5_000)  // the timer goes to sleep on the far deadline
                let due = timed.now + .milliseconds(30)
                _ = timed.schedule(at: due) { ran.update { $0 = timed.now } }
                // A deadline between the two must not re-arm the timer later than the nearer one.
                let middle = timed.schedule(at: timed.now + .seconds(5)) {}
                armed.update { $0 = (far, due, middle) }
            }
            if fromInside {
                try runAsTask(context, on: timed, "the task that arms both deadlines", arm)
            } else {
                arm()
            }
            guard let (far, due, middle) = armed.value else { throw RuleFailure("the deadlines were never armed") }
            defer {
                _ = far.cancel()
                _ = middle.cancel()
            }
            let waited = poll(upTo: .seconds(3) + lateBound) { ran.value != nil }
            guard let at = ran.value else {
                throw RuleFailure(
                    "work due in 30 ms, armed \(fromInside ? "from inside a task" : "from a thread outside") after work due in 10 s (and before work due in 5 s), had not run \(readable(waited)) later"
                )
            }
            try require(at >= due, "work due in 30 ms ran \(readable(due.duration(to: at) * -1)) early")
            let late = due.duration(to: at)
            try require(
                late <= lateBound,
                "work due in 30 ms, armed \(fromInside ? "from inside a task" : "from a thread outside") after work due in 10 s, ran \(readable(late)) late (bound \(readable(lateBound)))"
            )
            lateness.append(late)
        }
        return "latest \(readable(lateness.max() ?? .zero)) after its deadline"
    }
}

/// When each hand-off's task started, against when it was scheduled.
private final class StartProbe: Sendable {
    private let slowestStart = Atomic<Int64>(0)
    var slowest: Duration { .nanoseconds(slowestStart.load(ordering: .relaxed)) }

    /// Waits up to ``ProgressRules/bound`` for `started` to reach `count`; fails naming the hand-off otherwise. It
    /// spins for the first 2 ms, so that the next hand-off follows the last task's end by microseconds (the moment a
    /// drainer decides whether to give up the queue), and polls after that.
    func wait(for started: Counter, toReach count: Int, since: SchedulerTime, _ what: @autoclosure () -> String) throws
    {
        let spinUntil = since + .milliseconds(2)
        while started.value < count && SchedulerTime.monotonicNow() < spinUntil {}
        if started.value < count { _ = poll(upTo: ProgressRules.bound) { started.value >= count } }
        let took = since.duration(to: .monotonicNow())
        slowestStart.max(took.nanosecondsChecked(), ordering: .relaxed)
        try require(
            started.value >= count,
            "\(what()) was not started within \(readable(ProgressRules.bound)) (\(started.value) of \(count) started; nothing else was scheduled meanwhile)"
        )
    }
}

/// The shapes of G1's hand-offs.
private enum HandOffShape: CaseIterable {
    /// A thread outside schedules a task the moment the previous one ran.
    case fromOutside
    /// A chain of tasks, each scheduling the next as its very last act.
    case lastAct
    /// A chain of tasks, each scheduling the next and then running on for a moment.
    case goesOn
    /// A burst of 1 to 4 tasks from outside after an idle gap.
    case burstAfterIdle
    /// On a concurrent scheduler, after an idle gap or at once: two tasks scheduled together, each waiting (up to the
    /// bound) for the other to start; the second must start while the first waits, whichever worker took the first.
    case waitForEachOther

    func run(
        on scheduler: any Scheduler, probe: StartProbe, trial: Int, using generator: inout SystemRandomNumberGenerator
    ) throws {
        let started = Counter()
        let now = SchedulerTime.monotonicNow()
        switch self {
        case .fromOutside:
            spin(upTo: 50, using: &generator)
            _ = scheduler.schedule { started.increment() }
            try probe.wait(for: started, toReach: 1, since: now, "hand-off \(trial) (from a thread outside)")
        case .lastAct, .goesOn:
            let goesOn = self == .goesOn
            let spinFor = Int.random(in: 0...20, using: &generator)
            // Two steps: the first runs on the scheduler and hands the second to it.
            _ = scheduler.schedule {
                started.increment()
                _ = scheduler.schedule { started.increment() }
                if goesOn { spin(microseconds: spinFor) }
            }
            try probe.wait(
                for: started, toReach: 2, since: now,
                "hand-off \(trial) (scheduled by a task \(goesOn ? "that ran on after it" : "as its last act"))")
        case .burstAfterIdle:
            usleep(UInt32.random(in: 1_000...3_000, using: &generator))
            let burst = Int.random(in: 1...4, using: &generator)
            for _ in 0..<burst { _ = scheduler.schedule { started.increment() } }
            try probe.wait(
                for: started, toReach: burst, since: now, "a burst of \(burst) after an idle gap (hand-off \(trial))")
        case .waitForEachOther:
            // Every other time at once, while a worker may still spin for work after the last hand-off.
            if trial % 2 == 0 { usleep(UInt32.random(in: 1_000...3_000, using: &generator)) }
            for _ in 0..<2 {
                _ = scheduler.schedule {
                    started.increment()
                    poll(upTo: ProgressRules.bound) { started.value >= 2 }
                }
            }
            try probe.wait(
                for: started, toReach: 2, since: now,
                "the second of two tasks that wait for each other (hand-off \(trial), after an idle gap)")
        }
    }
}

/// Busy-waits a random 0 to `limit` µs: sweeps the moment of the next call across a scheduler's hand-off.
private func spin(upTo limit: Int, using generator: inout SystemRandomNumberGenerator) {
    spin(microseconds: Int.random(in: 0...limit, using: &generator))
}

private func spin(microseconds: Int) {
    let end = SchedulerTime.monotonicNow() + .microseconds(microseconds)
    while SchedulerTime.monotonicNow() < end {}
}
