import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

extension RuleFamily {
    public static let cancellation = RuleFamily("C", title: "Cancellation")
}

extension RuleID {
    public static let c1 = RuleID(newRuleOf: .cancellation, number: 1)
    public static let c2 = RuleID(newRuleOf: .cancellation, number: 2)
    public static let c3 = RuleID(newRuleOf: .cancellation, number: 3)
    public static let c4 = RuleID(newRuleOf: .cancellation, number: 4)
    public static let c5 = RuleID(newRuleOf: .cancellation, number: 5)
    public static let c6 = RuleID(newRuleOf: .cancellation, number: 6)
}

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
            trial:
                "races of cancel against the task's start, a quarter of them one at a time on a staircase that follows the instant the task starts (20 000 more with delayed work on a timed scheduler)",
            round: raceRound),
        statement:
            "cancel() returns true exactly when the task will never run, also when it races the task's start (100 000 races, a quarter of them alone with a head start that follows the instant the task starts; on a timed scheduler 20 000 more with delayed work due within 20 µs).",
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
        var staircase: Staircase?
        var onTheEdge = 0
        let ran = try context.whileDriven(scheduler) {
            try context.observe(races, inRoundsOf: raceRound) { round in
                // The hop is measured before each round, under the machine's load of the moment, so the sweep covers
                // it on a busy machine too, also when the load changes between rounds (measured once, a busy
                // machine's hop outgrew it and a check-then-act passed 2 of 30 runs: 97–99 % of cancels came first).
                let hop = try RaceWindow.hop(context, scheduler, submit: submit)
                sweeps.append(hop * 2)
                var stairs = staircase ?? Staircase(start: hop)
                let floodRaces = round.count - round.count / staircaseShare
                inTime += try raceRoundOfCancels(
                    context, scheduler, kind: kind, floodRaces, sweep: hop * 2, submit: submit)
                let (cancelledInTime, edge) = try staircaseRound(
                    context, scheduler, kind: kind, round.count / staircaseShare, &stairs, submit: submit)
                inTime += cancelledInTime
                onTheEdge += edge
                staircase = stairs
            }
        }
        let swept =
            sweeps.min() == sweeps.max()
            ? "0–\(readable(sweeps.first ?? .zero))"
            : "0–\(readable(sweeps.min() ?? .zero)) to 0–\(readable(sweeps.max() ?? .zero)) by round"
        return
            "\(grouped(inTime)) of \(grouped(ran)) races cancelled in time (in the flood, one in four with a head start swept over \(swept), twice the hop measured; one race in \(staircaseShare) alone, on a staircase that follows the instant a cancel turns from in time to too late: \(grouped(onTheEdge)) of those turned)"
    }

    /// One race in `staircaseShare` runs alone, on the staircase.
    static let staircaseShare = 4

    /// The head start of a cancel that lands where a task starts: after a cancel in time (it said true) the next one
    /// comes a little later, after one too late (it said false) a little sooner. So the cancels gather at the instant
    /// the scheduler decides to run the task, whatever its hop costs on this machine now, and that is where a
    /// check-then-act's window lies: between the check and the act a cancel says true and the task still runs. A
    /// window of a few instructions is hit there in a fraction of the races, where a uniform sweep of microseconds
    /// hits it in thousands of races at best (a disposed flag checked then acted on passed C2 in 1 of 10 runs with
    /// three busy loops on the two cores before the staircase).
    struct Staircase {
        private(set) var headStart: Duration
        private var random = SystemRandomNumberGenerator()

        init(start: Duration) { headStart = max(start, .nanoseconds(50)) }

        /// This race's head start: the staircase's, give or take a quarter, so the cancels spread over the edge.
        mutating func next() -> Duration {
            let nanoseconds = Double(headStart.nanosecondsChecked())
            return .nanoseconds(Int64(nanoseconds * Double.random(in: 0.75...1.25, using: &random)))
        }

        /// One step up after a cancel in time, one step down after one too late.
        mutating func record(cancelledInTime: Bool) {
            let nanoseconds = Double(headStart.nanosecondsChecked()) * (cancelledInTime ? 1.05 : 0.95)
            headStart = .nanoseconds(Int64(min(1_000_000, max(20, nanoseconds))))
        }
    }

    /// `races` races one at a time, each cancel with the staircase's head start; a task whose cancel said false is
    /// waited for before the next race, so each race meets a scheduler with nothing of the others before it. Returns
    /// how many were cancelled in time, and how many races turned the staircase (a cancel in time after one too late,
    /// or the reverse): how often the cancels met the edge.
    private static func staircaseRound(
        _ context: ConformanceContext, _ scheduler: any Scheduler, kind: String, _ races: Int,
        _ staircase: inout Staircase, submit: (@escaping @Sendable () -> Void) -> any Cancellable
    ) throws -> (cancelledInTime: Int, turns: Int) {
        let ran = Shared([Bool](repeating: false, count: races))
        var cancelled = [Bool](repeating: false, count: races)
        var turns = 0
        var last: Bool?
        let spinLimit: Duration = scheduler is any VirtualTimeDriver ? .zero : RaceWindow.probeSpin
        for race in 0..<races {
            let started = Atomic<Bool>(false)
            let handle = submit {
                ran.update { $0[race] = true }
                started.store(true, ordering: .releasing)
            }
            RaceWindow.spin(staircase.next())
            cancelled[race] = handle.cancel()
            staircase.record(cancelledInTime: cancelled[race])
            if let last, last != cancelled[race] { turns += 1 }
            last = cancelled[race]
            guard !cancelled[race] else { continue }
            // Too late: the task runs; wait for it, yielding first (a hop is microseconds), then as the kit waits.
            let spinUntil = ContinuousClock.now + spinLimit
            while !started.load(ordering: .acquiring) && ContinuousClock.now < spinUntil { sched_yield() }
            try context.waitUntil("a \(kind) whose cancel() returned false", on: scheduler) {
                started.load(ordering: .acquiring)
            }
        }
        // A task whose cancel() said true but that runs anyway may still be on its way.
        usleep(20_000)
        let ranFlags = ran.value
        let ranAnyway = (0..<races).filter { ranFlags[$0] && cancelled[$0] }
        if let first = ranAnyway.first {
            throw RuleFailure(
                "cancel() returned true but the \(kind) ran in \(grouped(ranAnyway.count)) of \(grouped(races)) races run one at a time on the staircase, with a head start of about \(readable(staircase.headStart)) (first: race \(grouped(first + 1)))"
            )
        }
        return (cancelled.filter { $0 }.count, turns)
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

// C4–C6: what cancelling releases, what dropping a handle does not do, and repeating work (C1–C3 in
// `CancellationRules.swift`).
extension CancellationRules {
    static let promptRelease = ConformanceRule(
        id: .c4, family: .cancellation,
        statement:
            "Cancelling a task that has not started releases its closure and captures at once, not when the queue or the deadline reaches it.",
        why:
            "Captures hold views, sockets and large buffers: a cancelled task due in an hour must not keep them for an hour.",
        catches: "apple/swift-nio#2373 (a cancelled task was kept alive until the next tick of the loop).",
        requires: .serial
    ) { context in
        let scheduler = context.makeScheduler()
        let captures = LiveCount()
        let releasedAfter = Shared<Duration?>(nil)
        let failure = Shared<String?>(nil)
        // From inside a task, so the cancelled task is still queued behind it while we watch.
        try runAsTask(context, on: scheduler, "the watching task") {
            var capture: Tracked? = captures.make()
            let handle = scheduler.schedule { [capture] in capture?.touch() }
            capture = nil
            guard handle.cancel() else { return failure.update { $0 = "cancel() of a queued task returned false" } }
            let took = poll(upTo: .seconds(2)) { captures.live == 0 }
            if captures.live > 0 { failure.update { $0 = "a cancelled queued task still held its capture after 2 s" } }
            releasedAfter.update { $0 = took }
        }
        if let message = failure.value { throw RuleFailure(message) }
        var note = "queued: released after \(readable(releasedAfter.value ?? .zero))"
        guard let timed = scheduler as? any TimedScheduler else { return note }
        var capture: Tracked? = captures.make()
        let handle = timed.schedule(at: timed.now + .seconds(3_600)) { [capture] in capture?.touch() }
        capture = nil
        try require(handle.cancel(), "cancel() of a task due in an hour returned false")
        let elapsed = poll(upTo: .seconds(2)) { captures.live == 0 }
        try require(
            captures.live == 0, "a cancelled task due in an hour still held its capture after \(readable(elapsed))")
        note += "; due in 1 h: released after \(readable(elapsed))"
        return note
    }

    static let droppingHandle = ConformanceRule(
        id: .c5, family: .cancellation,
        statement:
            "Dropping a handle never cancels: one-shot, delayed and repeating work go on when nobody keeps the handle.",
        why:
            "Fire-and-forget work must go on whether or not anyone keeps its handle, and one-shot and repeating work must agree on it.",
        catches:
            "ReactiveCocoa/ReactiveSwift#582, fixed by #584 (dropping a repeating timer's disposable cancelled it while a one-shot went on); ReactiveCocoa#1742 (the same, by accident)."
    ) { context in
        let scheduler = context.makeScheduler()
        let ran = Counter()
        _ = scheduler.schedule { ran.increment() }
        try context.waitUntil("a task whose handle was dropped", on: scheduler) { ran.value == 1 }
        guard let timed = scheduler as? any TimedScheduler else { return "" }
        _ = timed.schedule(at: timed.now + .milliseconds(20)) { ran.increment() }
        try context.waitUntil("delayed work whose handle was dropped", on: scheduler) { ran.value == 2 }
        guard context.backend.traits.contains(.repeating) else { return "" }
        let ticks = Counter()
        let handle = WeakBox()
        do {
            let strong = timed.schedule(at: timed.now, every: .milliseconds(10)) {
                // Stops itself through a weak reference, so the test never keeps the handle.
                if ticks.increment() >= 3 { (handle.object as? any Cancellable)?.cancel() }
            }
            handle.set(strong as AnyObject)
        }
        try context.waitUntil("3 ticks of repeating work whose handle was dropped", on: scheduler) { ticks.value >= 3 }
        return ""
    }

    static let repeating = ConformanceRule(
        id: .c6, family: .cancellation,
        statement:
            "Cancelling repeating work, from inside a tick or from another thread, stops every later tick and releases the work's closure and captures at once, while its handle is still held.",
        why:
            "A repeating timer is usually stopped from its own tick (a countdown reaching zero) or from another thread (a disposal); no tick may follow either.",
        catches:
            "OpenCombine's OperationQueue scheduler re-arms after the action (its testScheduleRepeatingWithRealQueue); SwiftNIO's testScheduleRepeatedTaskCancelFromDifferentThread checks the second case.",
        requires: [.timed, .repeating]
    ) { context in
        let scheduler = try context.makeTimedScheduler()
        let interval = Duration.milliseconds(10)
        // From inside the third tick.
        let insideTicks = Counter()
        let box = HandleBox()
        let insideResult = Shared<Bool?>(nil)
        box.set(
            scheduler.schedule(at: scheduler.now + .milliseconds(20), every: interval) {
                if insideTicks.increment() == 3 { insideResult.update { $0 = box.value?.cancel() } }
            })
        try context.waitUntil("3 ticks", on: scheduler) { insideTicks.value >= 3 }
        context.letTimePass(interval * 3, on: scheduler)
        try require(
            insideResult.value == true, "cancel() from inside a tick returned \(String(describing: insideResult.value))"
        )
        try require(
            insideTicks.value == 3, "\(insideTicks.value - 3) ticks ran after cancel() from inside tick 3 returned true"
        )
        // From another thread.
        let outsideTicks = Counter()
        let captures = LiveCount()
        var capture: Tracked? = captures.make()
        let handle = scheduler.schedule(at: scheduler.now, every: interval) { [capture] in
            capture?.touch()
            outsideTicks.increment()
        }
        capture = nil
        try context.waitUntil("3 ticks", on: scheduler) { outsideTicks.value >= 3 }
        try require(handle.cancel(), "cancel() of live repeating work returned false")
        let atCancel = outsideTicks.value
        context.letTimePass(interval * 3, on: scheduler)
        // One tick may have begun before cancel() returned and counted itself just after.
        try require(
            outsideTicks.value <= atCancel + 1,
            "\(outsideTicks.value - atCancel) ticks started over 3 intervals after cancel() returned true")
        // As C4 asks of one-shot work: the captures go with the cancel, not with the handle (a cancelled timer that
        // keeps its handler keeps whatever the handler holds for as long as anyone holds the handle).
        let released = poll(upTo: .seconds(2)) { captures.live == 0 }
        try require(
            captures.live == 0,
            "cancelled repeating work still held its closure's capture \(readable(released)) after cancel(), its handle still held"
        )
        try require(!handle.cancel(), "a second cancel() of repeating work returned true")
        return "released its capture \(readable(released)) after cancel()"
    }
}
