import Dispatch
import SchedulerKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RuleFamily {
    public static let executorSubject = RuleFamily("X", title: "Executors (any SerialExecutor or TaskExecutor)")
}

extension RuleID {
    public static let x1 = RuleID(newRuleOf: .executorSubject, number: 1)
    public static let x2 = RuleID(newRuleOf: .executorSubject, number: 2)
    public static let x3 = RuleID(newRuleOf: .executorSubject, number: 3)
    public static let x4 = RuleID(newRuleOf: .executorSubject, number: 4)
    public static let x5 = RuleID(newRuleOf: .executorSubject, number: 5)
    public static let x6 = RuleID(newRuleOf: .executorSubject, number: 6)
}

/// A promise of any `SerialExecutor` or `TaskExecutor` (family X), checked on an ``ExecutorUnderTest``: an
/// executor as a subject of its own. (The E rules are another thing: a *scheduler* judged as an executor, among the
/// scheduler rules.)
public typealias ExecutorSubjectRule = ConformanceRule

/// X1–X6: what SE-0392 asks of a serial executor, what an executor may promise beyond it (declared when it does
/// not), and the isolation checks the runtime relies on, and how tasks meet the executor (X5, X6). The kit's own tasks run on a thread pool of its own, so no
/// check needs the global cooperative pool, which the test runner's threads may be blocking.
public enum ExecutorSubjectRules {
    public static let all: [ExecutorSubjectRule] = [
        exclusion, fifo, neverInsideEnqueue, isolation, preferenceInherited, immediateStartsInline,
    ]

    public static func rule(_ id: RuleID) -> ExecutorSubjectRule? { all.first { $0.id == id } }

    static let exclusion = ConformanceRule.executor(
        id: .x1,
        evidence: .mixed(
            forced: "2 rounds in which a running job waits for the other actor's job to start", trials: 800,
            trial: "actor calls from 4 tasks that might find another job inside"),
        statement:
            "Jobs of two actors that share the executor never run at the same time: a job of one waits for a job of the other to start, until it could have (Dispatch's global queues ran work queued after it, 300 ms at least), and sees it start only after it returned, in 2 rounds, and 4 tasks calling both actors 200 times each never find two jobs inside.",
        why:
            "SE-0392 asks a serial executor for mutually exclusive, totally ordered jobs: actors that share one (an event loop's, a queue's) rely on it for their state, and the runtime keeps apart only one actor's own jobs.",
        catches:
            "A SerialExecutor that hands jobs to a concurrent queue: each actor alone still looks serial, two on it race (negative control).",
        kinds: [.serial]
    ) { executor in
        guard let serial = executor.serial else { return "" }
        let kit = KitThreads()
        defer { kit.close() }
        let first = ActorOnExecutor(serial)
        let second = ActorOnExecutor(serial)
        // Forced as S1's rounds are (``ForcedOverlapRound``): the second actor's job is enqueued while this one
        // runs, then gets until it could have started.
        var outcomes: [ForcedOverlapRound.Outcome?] = []
        for number in 1...ForcedOverlapRound.rounds {
            // No submitting thread to tell: this check's own thread is a cooperative one, which a job may run on.
            let round = ForcedOverlapRound(submitter: nil)
            let holding = Shared(false)
            let proberReady = Shared(false)
            let overlapped = Shared(false)
            let holder = kit.task {
                await first.run { _ in
                    holding.update { $0 = true }
                    waitFor(proberReady, atMost: .seconds(10))
                    // The prober enqueues its job right after it sets its flag, on the kit's thread, where nothing
                    // shows when that call returned: 50 ms covers that, and the round's floor 300 ms more.
                    usleep(50_000)
                    round.secondSubmitted()
                    round.hold()
                    holding.update { $0 = false }
                }
            }
            try await poll("round \(number): a job of the first actor to start", timeout: .seconds(10)) {
                holding.value
            }
            let prober = kit.task {
                proberReady.update { $0 = true }
                await second.run { _ in
                    if holding.value { overlapped.update { $0 = true } }
                    round.secondStarts()
                }
            }
            await holder.value
            await prober.value
            try require(
                !overlapped.value && round.outcome != .overlapped,
                "round \(number): a job of the second actor started while a job of the first was running")
            outcomes.append(round.outcome)
        }
        let inside = Counter()
        let overlaps = Counter()
        let callers = (0..<4).map { _ in
            kit.task {
                for call in 0..<200 {
                    await (call % 2 == 0 ? first : second).run { _ in
                        if inside.increment() != 1 { overlaps.increment() }
                        inside.decrement()
                    }
                }
            }
        }
        for caller in callers { await caller.value }
        try require(overlaps.value == 0, "two jobs were inside at once \(grouped(overlaps.value)) times")
        return ForcedOverlapRound.caveat(outcomes) ?? ""
    }

    static let fifo = ConformanceRule.executor(
        id: .x2,
        statement:
            "Jobs enqueued from one thread run in the order they were enqueued: 200 tasks started in order by one job of an actor on the executor, each isolated to that actor, run in that order.",
        why:
            "Code that starts work in order expects it to happen in order. SE-0392 allows an executor to reorder (by priority, say), so FIFO is a promise an executor makes or declares it does not.",
        catches: "An executor that keeps its jobs on a stack (negative control).",
        kinds: [.serial]
    ) { executor in
        guard let serial = executor.serial else { return "" }
        let actor = ActorOnExecutor(serial)
        let order = Shared<[Int]>([])
        let count = 200
        await actor.run { isolatedActor in
            // Forced: all 200 are enqueued while this job holds the executor.
            for index in 0..<count {
                Task {
                    _ = isolatedActor  // isolated to the actor, so the task's first job is enqueued on its executor
                    order.append(index)
                }
            }
        }
        try await poll("\(count) tasks to run", timeout: .seconds(10)) { order.value.count == count }
        let seen = order.value
        if let breach = seen.indices.dropFirst().first(where: { seen[$0] < seen[$0 - 1] }) {
            throw RuleFailure(
                "task \(seen[breach]) ran after task \(seen[breach - 1]) (position \(breach + 1) of \(count))")
        }
        return ""
    }

    static let neverInsideEnqueue = ConformanceRule.executor(
        id: .x3,
        statement:
            "A job never runs inside the enqueue call that submitted it: 100 tasks started on the executor (from one of its actors' jobs, or as a task preference) each run only after their start returned.",
        why:
            "The runtime, and code that starts a task while it holds a lock, expect enqueue to return before the job runs: a job run inside it nests one task's code inside another's, on the same stack.",
        catches: "An executor that runs each job inside enqueue (negative control).",
        kinds: [.serial, .task]
    ) { executor in
        let kit = KitThreads()
        defer { kit.close() }
        let window = StartWindow()
        let count = 100
        let ran = Counter()
        if let serial = executor.serial {
            let actor = ActorOnExecutor(serial)
            await actor.run { isolatedActor in
                for _ in 0..<count {
                    window.open()
                    Task {
                        _ = isolatedActor
                        window.check()
                        ran.increment()
                    }
                    window.close()
                }
            }
        }
        if let task = executor.task {
            await kit.task {
                for _ in 0..<count {
                    window.open()
                    Task(executorPreference: task) {
                        window.check()
                        ran.increment()
                    }
                    window.close()
                }
            }.value
        }
        let expected = count * executor.kinds.count
        try await poll("\(expected) tasks to run", timeout: .seconds(10)) { ran.value == expected }
        try require(
            window.nested.value == 0,
            "\(window.nested.value) of \(expected) jobs ran inside the call that started their task")
        return ""
    }

    static let isolation = ConformanceRule.executor(
        id: .x4,
        statement:
            "The executor says it isolates exactly where it does: isIsolatingCurrentContext() is true (or nil: cannot tell) inside a job of one of its actors, where assumeIsolated holds, and never true on a thread of the kit's, inside another executor's job, or inside a job of another instance of the same kind (same type and name), which isSameExclusiveExecutionContext(other:) must not call the same.",
        why:
            "assumeIsolated, preconditionIsolated and the runtime's own checks ask the executor (SE-0424, SE-0471): a wrong yes lets code touch an actor's state from any thread, a wrong no crashes code that was right.",
        catches:
            "swiftlang/swift#74626 and #80115, swift-aws-lambda-runtime#639 (assumeIsolated crashing on executors that could not answer); an executor that always says yes (negative control).",
        kinds: [.serial]
    ) { executor in
        guard let serial = executor.serial else { return "" }
        let kit = KitThreads()
        defer { kit.close() }
        let actor = ActorOnExecutor(serial)
        let inside = await actor.run { isolatedActor -> Bool? in
            // The runtime's own check (it asks the executor's checkIsolated() only when it cannot tell by itself):
            // traps if it does not see the actor's isolation here.
            actor.assumeIsolated { _ in }
            return serial.isIsolatingCurrentContext()
        }
        try require(inside != false, "isIsolatingCurrentContext() was false inside a job of one of its actors")
        let onKitThread = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: serial.isIsolatingCurrentContext()) }
        }
        try require(onKitThread != true, "isIsolatingCurrentContext() was true on a thread of the kit's (Dispatch's)")
        let inOtherJob = await kit.task { serial.isIsolatingCurrentContext() }.value
        try require(inOtherJob != true, "isIsolatingCurrentContext() was true inside a job of another executor")
        try await tellsInstancesApart(serial, executor.another)
        return inside == nil ? "isIsolatingCurrentContext() cannot tell (nil)" : ""
    }
}

/// X4's second half: another executor of the same subject (same type, same name, same settings) is another
/// isolation domain. Inside its actor's job the first must not claim isolation, and neither may say it is the same
/// exclusive context as the other. An identity that compares a name, a label or a type instead of the instance
/// passes everything else. Skipped where the subject makes one instance only (the main actor's executor).
private func tellsInstancesApart(
    _ serial: any SerialExecutor, _ another: (@Sendable () -> ExecutorUnderTest)?
) async throws {
    guard let made = another?() else { return }
    defer { made.tearDown() }
    guard let other = made.serial, other !== serial else { return }
    let inOther = await ActorOnExecutor(other).run { _ in serial.isIsolatingCurrentContext() }
    try require(
        inOther != true,
        "isIsolatingCurrentContext() was true inside a job of another executor of the same kind (another instance)")
    try require(
        sameContext(serial, other) != true,
        "isSameExclusiveExecutionContext(other:) said true for another instance of the same kind")
    try require(sameContext(serial, serial) != false, "isSameExclusiveExecutionContext(other:) said false for itself")
}

/// `a.isSameExclusiveExecutionContext(other: b)` where `b` is of `a`'s type; nil where it is not.
private func sameContext<E: SerialExecutor>(_ a: E, _ b: any SerialExecutor) -> Bool? {
    (b as? E).map { a.isSameExclusiveExecutionContext(other: $0) }
}

/// Blocks the calling thread until `flag` is set or `limit` passes.
func waitFor(_ flag: Shared<Bool>, atMost limit: Duration) {
    let deadline = SchedulerTime.monotonicNow() + limit
    while !flag.value && SchedulerTime.monotonicNow() < deadline { usleep(100) }
}

/// Which thread is inside a call that starts a task, so the task's job can tell whether it runs nested in it.
final class StartWindow: Sendable {
    private let starter = Shared<pthread_t?>(nil)
    let nested = Counter()

    func open() { starter.update { $0 = pthread_self() } }
    func close() { starter.update { $0 = nil } }

    /// Called by the job: counts it when it runs on the starting thread while the start is still on the stack.
    func check() {
        if let thread = starter.value, pthread_equal(thread, pthread_self()) != 0 { nested.increment() }
    }
}

/// X5–X6: how tasks meet an executor. A task's preference (SE-0417) decides where its nonisolated code runs;
/// `Task.immediate` (SE-0472) decides what runs before the caller goes on. Both are the runtime's rules, but they hold
/// only if the executor runs its jobs itself, on its own threads, and never inside `enqueue`.
extension ExecutorSubjectRules {
    static let preferenceInherited = ConformanceRule.executor(
        id: .x5,
        statement:
            "A task that prefers the executor runs its nonisolated code there, before and after a suspension, and so do its child tasks (async let, task group) and the methods of default actors it calls; an actor with an executor of its own runs its methods there instead, and the task comes back to the preferred executor after.",
        why:
            "SE-0417: a preference is how a library keeps a request's work on the threads it chose (an event loop, a pool); code that leaves them pays a hop each way and loses the thread's state the library relies on.",
        catches:
            "A TaskExecutor that hands its jobs on to the global concurrent executor: the task's code runs on the cooperative pool, not on the threads its user chose (negative control).",
        kinds: [.task]
    ) { executor in
        guard let preferred = executor.task else { return "" }
        let ownScheduler = DispatchQueueScheduler(name: "x5-own-executor")
        let ownActor = ActorOnExecutor(SchedulerExecutor(ownScheduler))
        let probe = executor.isRunningJob
        let identity = preferred.asUnownedTaskExecutor()
        let seen = await Task(executorPreference: preferred) { () -> [Sighting] in
            var seen = [Sighting(place: "the task's first job", onExecutor: probe?())]
            seen.append(
                Sighting(place: "a nonisolated async function after a suspension", onExecutor: await look(probe)))
            async let child = Sighting(
                place: "an async let child task", onExecutor: probe?(), carriesPreference: preference() == identity)
            seen.append(await child)
            seen.append(
                await withTaskGroup(of: Sighting.self) { group in
                    group.addTask {
                        Sighting(
                            place: "a task group's child task", onExecutor: probe?(),
                            carriesPreference: preference() == identity)
                    }
                    return await group.next()!
                })
            seen.append(
                Sighting(place: "a method of a default actor", onExecutor: await DefaultActorProbe().look(probe)))
            let (onOwn, onPreferred) = await ownActor.run { _ in (Schedulers.current === ownScheduler, probe?()) }
            seen.append(
                Sighting(
                    place: "a method of an actor with its own executor", onExecutor: onPreferred, expected: false,
                    onOwnExecutor: onOwn))
            seen.append(Sighting(place: "the task after that actor's method returned", onExecutor: probe?()))
            return seen
        }.value
        for sighting in seen {
            if sighting.onOwnExecutor == false {
                throw RuleFailure("\(sighting.place) did not run on that actor's executor")
            }
            if sighting.carriesPreference == false {
                throw RuleFailure("\(sighting.place) does not carry the task's executor preference")
            }
            if let onExecutor = sighting.onExecutor, onExecutor != sighting.expected {
                throw RuleFailure(
                    "\(sighting.place) ran \(onExecutor ? "on" : "off") the preferred executor (\(seen.count) places looked at)"
                )
            }
        }
        return probe == nil
            ? "cannot tell where nonisolated code ran (no isRunningJob): checked that child tasks carry the preference and that an actor's own executor overrides it"
            : ""
    }

    static let immediateStartsInline = ConformanceRule.executor(
        id: .x6,
        statement:
            "Task.immediate, started inside a job of one of the executor's actors and isolated to that actor, runs up to its first suspension before it returns, on the same thread; the rest runs later as a job of the executor, never while the starting job still runs, though that job waits 300 ms for it (3 rounds).",
        why:
            "SE-0472: code that must happen before the caller goes on (register an observer, take a slot) relies on the synchronous start; the code after the suspension relies on being a job of the actor again, kept apart from the caller's.",
        catches:
            "An executor that hands jobs to a concurrent queue: the task's rest runs beside the job that started it, both touching the actor's state (negative control).",
        kinds: [.serial]
    ) { executor in
        guard let serial = executor.serial else { return "" }
        let actor = ActorOnExecutor(serial)
        for round in 1...3 {
            let events = Shared<[ImmediateEvent]>([])
            let resumed = Shared(false)
            await actor.run { isolatedActor in
                let starter = pthread_self()
                Task.immediate {
                    _ = isolatedActor  // isolated to the actor, as the job that starts it
                    events.append(pthread_equal(starter, pthread_self()) != 0 ? .startedInline : .startedElsewhere)
                    await Task.yield()
                    events.append(.resumed)
                    resumed.update { $0 = true }
                }
                events.append(.returned)
                // Forced: the starting job holds the actor while the rest is due; only an executor that runs the
                // actor's jobs side by side lets it run now.
                waitFor(resumed, atMost: .milliseconds(300))
                events.append(.startingJobEnded)
            }
            try await poll("round \(round): the immediate task to resume", timeout: .seconds(10)) { resumed.value }
            let order = events.value
            try require(
                order == [.startedInline, .returned, .startingJobEnded, .resumed],
                "round \(round): saw \(order.map(\.rawValue).joined(separator: ", ")); expected started on the starting thread, Task.immediate returned, the starting job ended, resumed"
            )
        }
        return ""
    }
}

/// Where one piece of a preferring task's code ran, as X5 saw it.
private struct Sighting: Sendable {
    let place: String
    /// On a thread running one of the preferred executor's jobs; nil: the executor cannot tell.
    var onExecutor: Bool?
    /// Where the place should run: on the preferred executor, except an actor's with its own.
    var expected = true
    var carriesPreference: Bool?
    var onOwnExecutor: Bool?
}

private enum ImmediateEvent: String, Sendable {
    case startedInline = "started on the starting thread"
    case startedElsewhere = "started on another thread"
    case returned = "Task.immediate returned"
    case startingJobEnded = "the starting job ended"
    case resumed = "resumed after the suspension"
}

/// The task's executor preference, as the runtime records it.
private func preference() -> UnownedTaskExecutor? {
    withUnsafeCurrentTask { $0?.unownedTaskExecutor }
}

/// A nonisolated async function: it runs on the task's preferred executor (SE-0417), also after it suspends.
@concurrent private func look(_ probe: (@Sendable () -> Bool)?) async -> Bool? {
    await Task.yield()
    return probe?()
}

/// An actor with the default executor: its methods run on the calling task's preferred executor.
private actor DefaultActorProbe {
    func look(_ probe: (@Sendable () -> Bool)?) -> Bool? { probe?() }
}

extension SubjectKind {
    /// Executors (``ExecutorSubject``): `ConformanceRules.rules(for: .executor)`.
    public static var executor: SubjectKind { ExecutorSubject.kind }
}

extension ConformanceRule {
    /// An executor rule (family X), for executors used in any of `kinds`. Its check is `async`: it runs as a task
    /// on a fresh executor while the kit's check thread waits.
    static func executor(
        id: RuleID, evidence: RuleEvidence = .forced, statement: String, why: String, catches: String,
        kinds: Set<ExecutorKind> = Set(ExecutorKind.allCases), deadline: Duration = RuleDeadline.standard,
        check: @escaping @Sendable (ExecutorUnderTest) async throws -> String
    ) -> ConformanceRule {
        let gate = RuleGate<Set<ExecutorKind>>(
            RuleGate<Set<ExecutorKind>>.words(kinds, every: "every executor", plural: "executors")
        ) {
            !kinds.isDisjoint(with: $0)
        }
        return ConformanceRule(
            id: id, family: .executorSubject, evidence: evidence, statement: statement, why: why, catches: catches,
            about: ExecutorSubject.self, gate: gate, deadline: deadline
        ) { executor in try RuleRunner.awaiting { try await check(executor) } }
    }
}
