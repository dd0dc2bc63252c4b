import Dispatch
import SchedulerKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A promise of any `SerialExecutor` or `TaskExecutor` (family X), checked on an ``ExecutorUnderTest``: an
/// executor as a subject of its own. (The E rules are another thing: a *scheduler* judged as an executor, among the
/// scheduler rules.)
public typealias ExecutorSubjectRule = ConformanceRule

/// The old name of ``ExecutorSubjectRule``, which read as if it meant the E rules.
@available(*, deprecated, renamed: "ExecutorSubjectRule")
public typealias ExecutorRule = ExecutorSubjectRule

/// X1–X6: what SE-0392 asks of a serial executor, what an executor may promise beyond it (declared when it does
/// not), and the isolation checks the runtime relies on, and how tasks meet the executor (X5, X6 in `ExecutorTaskRules.swift`). The kit's own tasks run on a thread pool of its own, so no
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
