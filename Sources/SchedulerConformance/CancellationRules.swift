import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

/// C: cancellation.
enum CancellationRules {
    /// C3's tasks, each cancelled by every one of 8 threads.
    static let contestedTasks = 10_000

    static let all: [ConformanceRule] = [beforeStart, truthful, idempotent, promptRelease, droppingHandle, repeating]

    static let beforeStart = ConformanceRule(
        id: .c1, family: .cancellation,
        statement:
            "A task cancelled before it starts never runs, and the cancel call says so; this holds for delayed work before it is due too.",
        why:
            "Disposing a subscription must stop what it scheduled, and a delayed task cancelled before its deadline must never fire.",
        catches:
            "No reported bug: every peer's suite checks it (RACSchedulerSpec, RxSwift's CurrentThreadSchedulerTest, SwiftNIO's testScheduledTaskThatIsImmediatelyCancelledNeverFires).",
        requires: .serial
    ) { context in
        let scheduler = context.makeScheduler()
        let order = Shared<[String]>([])
        let cancelResult = Shared<Bool?>(nil)
        // Scheduled from inside a task, B and C cannot start before that task returns on a serial scheduler.
        scheduler.schedule {
            order.update { $0.append("A") }
            let b = scheduler.schedule { order.update { $0.append("B") } }
            scheduler.schedule { order.update { $0.append("C") } }
            cancelResult.update { $0 = b.cancel() }
        }
        try context.waitUntil("task C", on: scheduler) { order.value.contains("C") }
        try require(cancelResult.value == true, "cancel() of a task that had not started returned false")
        try require(order.value == ["A", "C"], "ran \(order.value), expected [A, C]")
        guard let timed = scheduler as? any TimedScheduler else { return "" }
        let delayedRan = Counter()
        let delayed = timed.schedule(at: timed.now + .milliseconds(200)) { delayedRan.increment() }
        let cancelledDelayed = delayed.cancel()
        let marker = Counter()
        timed.schedule(at: timed.now + .milliseconds(250)) { marker.increment() }
        try context.waitUntil("a later delayed task", on: scheduler) { marker.value == 1 }
        try require(cancelledDelayed, "cancel() of delayed work 200 ms before it was due returned false")
        try require(delayedRan.value == 0, "delayed work ran although cancel() returned true")
        return ""
    }

    static let races = ConformanceScale.scaled(100_000)
    /// C2's second series, on timed schedulers: fewer races (the floor of 100 000 is the plain series'), each with
    /// delayed work due within `delayedRaceWindow` nanoseconds, so the cancel races the timer.
    static let delayedRaces = ConformanceScale.scaled(20_000)
    static let delayedRaceWindow: Int64 = 20_000

    static let truthful = ConformanceRule(
        id: .c2, family: .cancellation,
        evidence: .mixed(
            forced: "cancel after a task ran", trials: races,
            trial: "races of cancel against the task's start (20 000 more with delayed work on a timed scheduler)",
            round: raceRound),
        statement:
            "cancel() returns true exactly when the task will never run, also when it races the task's start (100 000 races; on a timed scheduler 20 000 more with delayed work due within 20 µs).",
        why:
            "A caller that learns from cancel() whether the work will run can release a resource or complete a promise exactly once; a cancel that may lie forces a second synchronisation on every caller.",
        catches:
            "Every peer's cancel is best effort; SwiftNIO runs a delayed task whose cancel already failed its future when the task was in the batch being run (seen in its source; its adapter fails C2 by design).",
        excludes: .threadConfined, deadline: RuleDeadline.long
    ) { context in
        let scheduler = context.makeScheduler()
        var note = try raceCancels(context, scheduler, kind: "task", count: races) { scheduler.schedule($0) }
        if let timed = scheduler as? any TimedScheduler {
            let delayed = try raceCancels(context, scheduler, kind: "delayed task", count: delayedRaces) { work in
                timed.schedule(at: timed.now + .nanoseconds(Int64.random(in: 0..<delayedRaceWindow)), work)
            }
            note = "plain: \(note); delayed: \(delayed)"
        }
        // After the task finished, cancel() must say it is too late.
        let finished = Counter()
        let handle = scheduler.schedule { finished.increment() }
        try context.waitUntil("a last task", on: scheduler) { finished.value == 1 }
        try require(!handle.cancel(), "cancel() returned true for a task that had already run")
        try require(!handle.isCancelled, "isCancelled is true for a task that ran")
        return note
    }

    /// `count` races in rounds of ``raceRound`` (``ObservedTrials``: the rounds stop at the first that finds a lie,
    /// or when half the rule's deadline is spent). Returns "N of M races cancelled in time".
    static func raceCancels(
        _ context: ConformanceContext, _ scheduler: any Scheduler, kind: String, count races: Int,
        submit: (@escaping @Sendable () -> Void) -> any Cancellable
    ) throws -> String {
        var inTime = 0
        var sweeps: [Duration] = []
        let ran = try context.whileDriven(scheduler) {
            try context.observe(races, inRoundsOf: raceRound) { round in
                // The hop is measured before each round, under the machine's load of the moment, so the sweep covers
                // it on a busy machine too, also when the load changes between rounds (measured once, a busy
                // machine's hop outgrew it and a check-then-act passed 2 of 30 runs: 97–99 % of cancels came first).
                let sweep = try RaceWindow.hop(context, scheduler, submit: submit) * 2
                sweeps.append(sweep)
                inTime += try raceRoundOfCancels(
                    context, scheduler, kind: kind, round.count, sweep: sweep, submit: submit)
            }
        }
        let swept =
            sweeps.min() == sweeps.max()
            ? "0–\(readable(sweeps.first ?? .zero))"
            : "0–\(readable(sweeps.min() ?? .zero)) to 0–\(readable(sweeps.max() ?? .zero)) by round"
        return
            "\(grouped(inTime)) of \(grouped(ran)) races cancelled in time (one in four with a head start swept over \(swept), twice the hop measured)"
    }

    /// The races of one round: enough that a round's checks cost little beside its races.
    static let raceRound = 10_000

    /// One round of `races`: `submit` a task, give it a random head start, cancel it; then check that every task ran
    /// exactly when its cancel() returned false. Returns how many were cancelled in time. Three head starts in four are
    /// a few nanoseconds (the cancel lands while the task is queued); one in four is swept uniformly over `sweep`,
    /// twice the scheduler's hop, so that some cancels land as the task starts whatever the hop costs on this machine
    /// now.
    private static func raceRoundOfCancels(
        _ context: ConformanceContext, _ scheduler: any Scheduler, kind: String, _ races: Int, sweep: Duration,
        submit: (@escaping @Sendable () -> Void) -> any Cancellable
    ) throws -> Int {
        let ran = Shared([Bool](repeating: false, count: races))
        var cancelled = [Bool](repeating: false, count: races)
        let ranCount = Counter()
        var falseCount = 0
        var generator = SystemRandomNumberGenerator()
        for race in 0..<races {
            let handle = submit {
                ran.update { $0[race] = true }
                ranCount.increment()
            }
            // A random head start moves the cancel across the task's start.
            if !race.isMultiple(of: 4) {
                for _ in 0..<Int.random(in: 0..<64, using: &generator) { _ = stackAddress() }
            } else {
                RaceWindow.spin(
                    Duration.nanoseconds(Int64.random(in: 0...sweep.nanosecondsChecked(), using: &generator)))
            }
            cancelled[race] = handle.cancel()
            if !cancelled[race] { falseCount += 1 }
            // Every 1 000 races, let the tasks that will run catch up, so the queue stays short.
            if race % 1_000 == 999 || race == races - 1 {
                let expected = falseCount
                try context.waitUntil(
                    "the \(grouped(expected)) \(kind)s whose cancel() returned false", on: scheduler
                ) { ranCount.value >= expected }
            }
        }
        // A task whose cancel() said true but that runs anyway may still be on its way.
        usleep(20_000)
        let ranFlags = ran.value
        let ranAnyway = (0..<races).filter { ranFlags[$0] && cancelled[$0] }
        if let first = ranAnyway.first {
            throw RuleFailure(
                "cancel() returned true but the \(kind) ran in \(grouped(ranAnyway.count)) of \(grouped(races)) races (first: race \(grouped(first + 1)))"
            )
        }
        let neverRan = (0..<races).filter { !ranFlags[$0] && !cancelled[$0] }
        if let first = neverRan.first {
            throw RuleFailure(
                "cancel() returned false but the \(kind) never ran in \(grouped(neverRan.count)) of \(grouped(races)) races (first: race \(grouped(first + 1)))"
            )
        }
        return races - falseCount
    }

    /// C3's tasks per round (``ObservedTrials``).
    static let contestedRound = 2_500

    /// One round of C3: `tasks` tasks, each cancelled by every one of 8 threads at once; at most one cancel of each
    /// returns true, and then the task never runs and says it is cancelled; a finished task's cancel says false.
    private static func contest(_ context: ConformanceContext, _ scheduler: any Scheduler, _ tasks: Int) throws {
        let cancellers = 8
        let ran = Shared([Bool](repeating: false, count: tasks))
        let trues = Shared([Int](repeating: 0, count: tasks))
        var made: [any Cancellable] = []
        made.reserveCapacity(tasks)
        for index in 0..<tasks { made.append(scheduler.schedule { ran.update { $0[index] = true } }) }
        let all = made
        Producers.run(cancellers) { canceller in
            for step in 0..<tasks {
                let index = (step + canceller * tasks / cancellers) % tasks
                if all[index].cancel() { trues.update { $0[index] += 1 } }
            }
        }
        try context.waitUntil("the tasks nobody cancelled", on: scheduler) {
            let ranFlags = ran.value
            let counts = trues.value
            return (0..<tasks).allSatisfy { ranFlags[$0] || counts[$0] > 0 }
        }
        // A task whose cancel() said true but that runs anyway may still be on its way.
        usleep(20_000)
        let ranFlags = ran.value
        let counts = trues.value
        if let index = counts.firstIndex(where: { $0 > 1 }) {
            throw RuleFailure(
                "\(counts[index]) of \(cancellers) racing cancel() calls returned true (task \(grouped(index + 1)) of \(grouped(tasks)))"
            )
        }
        if let index = (0..<tasks).first(where: { ranFlags[$0] && counts[$0] > 0 }) {
            throw RuleFailure(
                "cancel() returned true but the task ran (task \(grouped(index + 1)) of \(grouped(tasks)))")
        }
        if let index = (0..<tasks).first(where: { counts[$0] == 1 && !all[$0].isCancelled }) {
            throw RuleFailure("isCancelled is false after cancel() returned true (task \(grouped(index + 1)))")
        }
        if let index = (0..<tasks).first(where: { ranFlags[$0] && all[$0].cancel() }) {
            throw RuleFailure("cancel() returned true for a finished task (task \(grouped(index + 1)))")
        }
    }

    static let idempotent = ConformanceRule(
        id: .c3, family: .cancellation,
        evidence: .mixed(
            forced:
                "cancel of a running plain and delayed task and of a finished task; a second cancel of delayed, repeating and recursive work",
            trials: contestedTasks,
            trial: "tasks cancelled by 8 threads at once", round: contestedRound),
        statement:
            "cancel() is idempotent and thread-safe: of 8 racing cancels at most one returns true, cancelling a running (plain or delayed) or finished task returns false, and so does a second cancel of delayed, repeating or recursive work.",
        why:
            "Cancels race from several owners (a timeout, a disposal, a completion), and exactly one of them may act on \"cancelled\".",
        catches:
            "A handle whose state is a plain flag. A delayed task marked started only after it ran, so a cancel while it runs says true (negative control; fresh mutant 105, NIO's EventLoopScheduler).",
        excludes: .threadConfined
    ) { context in
        let scheduler = context.makeScheduler()
        let contested = try context.whileDriven(scheduler) {
            try context.observe(contestedTasks, inRoundsOf: contestedRound) { round in
                try contest(context, scheduler, round.count)
            }
        }
        // Every other kind of handle the API returns: a second cancel() says false.
        var others: [(kind: String, handle: any Cancellable)] = [("recursive", scheduler.scheduleRecursive { _ in })]
        if let timed = scheduler as? any TimedScheduler {
            let later = timed.now.advanced(by: .seconds(3_600))
            others.append(("delayed", timed.schedule(at: later) {}))
            if context.backend.traits.contains(.repeating) {
                others.append(("repeating", timed.schedule(at: later, every: .seconds(1)) {}))
            }
        }
        for (kind, handle) in others {
            handle.cancel()
            try require(!handle.cancel(), "a second cancel() of \(kind) work returned true")
        }
        // A running task: only where the task runs off the caller's stack, so the caller can cancel meanwhile.
        guard context.backend.traits.contains(.asynchronous) || context.backend.traits.contains(.virtualTime) else {
            return
                "\(grouped(contested)) contested tasks; running-task case not applicable: tasks run on the caller's stack"
        }
        // Plain and delayed work: a delayed task runs through the scheduler's timers, whose handle may be marked
        // started on another path. Due now on virtual time, where the driver only runs what is due.
        var starts: [(kind: String, start: (@escaping @Sendable () -> Void) -> any Cancellable)] = [
            ("plain", { scheduler.schedule($0) })
        ]
        if let timed = scheduler as? any TimedScheduler {
            let virtual = context.backend.traits.contains(.virtualTime)
            starts.append(("delayed", { timed.schedule(at: virtual ? timed.now : timed.now + .milliseconds(1), $0) }))
        }
        for (kind, start) in starts {
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let result = try context.whileDriven(scheduler) { () throws -> Bool in
                let handle = start {
                    started.signal()
                    _ = wait(release)
                }
                try require(wait(started), "a \(kind) task did not start within 30 s")
                let result = handle.cancel()
                release.signal()
                return result
            }
            try require(!result, "cancel() returned true while the \(kind) task was running")
        }
        return "\(grouped(contested)) contested tasks"
    }
}
