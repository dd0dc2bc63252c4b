import SchedulerExplorer
import SchedulerKit
import Testing

/// Where the explorer can switch, measured for each way a task can start: a worker that calls a default actor twice
/// runs beside the body, which does the same on another actor, and the orders of their four steps are counted over
/// 300 random schedules. Every interleaving (6) means every await of the worker was a choice point; 3 means its two
/// steps always ran back to back. `Docs/Exploring.md` ("Where the explorer can switch") quotes these; a toolchain
/// that changes one fails here first.
///
/// Why: a task that prefers the exploration's executor (the body, and its children, which inherit the preference)
/// is enqueued on that executor at every hop, so each is a job and a choice. A task that prefers none (`Task { }`,
/// `Task.detached`, started from anywhere) is captured from the global executor, and its first hop onto a default
/// actor is a job too; but from inside a default actor's turn the runtime's `swift_task_switch` moves such a task
/// between idle default actors and nonisolated code in place, on the same thread, without asking any executor: no
/// hook sees those awaits, so they are no choice.
@Suite struct ChoicePointTests {
    enum Start: String, CaseIterable, Sendable {
        case asyncLet, taskGroupChild, task, detached, taskFromActor, afterContinuation
    }

    static func orders(_ start: Start) async -> (orders: Set<String>, report: ExplorationReport) {
        let orders = Locked<Set<String>>([])
        let report = await explore(schedules: 300, strategy: .random, seed: 1) { _ in
            let log = Locked<[String]>([])
            let mine = Counter()
            let theirs = Counter()
            let worker: @Sendable () async -> Void = {
                for step in 0..<2 {
                    _ = await theirs.bump()
                    log.withLock { $0.append("w\(step)") }
                }
            }
            let body: @Sendable () async -> Void = {
                for step in 0..<2 {
                    _ = await mine.bump()
                    log.withLock { $0.append("b\(step)") }
                }
            }
            switch start {
            case .asyncLet:
                async let work: Void = worker()
                await body()
                await work
            case .taskGroupChild:
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await worker() }
                    await body()
                }
            case .task, .detached, .taskFromActor, .afterContinuation:
                let task: Task<Void, Never> =
                    switch start {
                    case .detached: Task.detached { await worker() }
                    case .taskFromActor: await Starter().start(worker)
                    case .afterContinuation:
                        Task {
                            await withCheckedContinuation { $0.resume() }
                            await worker()
                        }
                    default: Task { await worker() }
                    }
                await body()
                await task.value
            }
            let order = log.withLock { $0.joined(separator: " ") }
            orders.withLock { _ = $0.insert(order) }
        }
        return (orders.withLock { $0 }, report)
    }

    @Test(arguments: [Start.asyncLet, .taskGroupChild])
    func everyAwaitOfAChildTaskIsAChoice(_ start: Start) async {
        let (orders, report) = await Self.orders(start)
        #expect(report.failure == nil, "\(report)")
        #expect(orders.count == 6, "\(start): \(orders.sorted())")
    }

    @Test(arguments: [Start.task, .detached, .taskFromActor, .afterContinuation])
    func aTaskThatPrefersNoExecutorHopsBetweenIdleActorsInPlace(_ start: Start) async {
        let (orders, report) = await Self.orders(start)
        #expect(report.failure == nil, "\(report)")
        #expect(report.allowedOutside.isEmpty, "\(report.allowedOutside)")
        // Its start and its first hop are choices (the body's steps land before, between or after), its second
        // hop is not: w0 and w1 always run back to back.
        #expect(orders == ["b0 b1 w0 w1", "b0 w0 w1 b1", "w0 w1 b0 b1"], "\(start): \(orders.sorted())")
    }

    /// The remedy where the code under test can take it: a task started with the exploration's executor as its
    /// preference is a child in this respect, every await a choice.
    @Test func aTaskStartedWithThePreferenceGetsEveryChoice() async {
        let orders = Locked<Set<String>>([])
        let report = await explore(schedules: 300, strategy: .random, seed: 1) { exploration in
            let log = Locked<[String]>([])
            let mine = Counter()
            let theirs = Counter()
            let task = Task(executorPreference: exploration.taskExecutor) {
                for step in 0..<2 {
                    _ = await theirs.bump()
                    log.withLock { $0.append("w\(step)") }
                }
            }
            for step in 0..<2 {
                _ = await mine.bump()
                log.withLock { $0.append("b\(step)") }
            }
            await task.value
            orders.withLock { _ = $0.insert(log.withLock { $0.joined(separator: " ") }) }
        }
        #expect(report.failure == nil, "\(report)")
        #expect(orders.withLock { $0.count } == 6, "\(orders.withLock { $0.sorted() })")
    }
}

private actor Counter {
    private var value = 0
    func bump() -> Int {
        value += 1
        return value
    }
}

private actor Starter {
    func start(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> { Task { await work() } }
}
