import SchedulerExplorer
import SchedulerKit

extension ExecutorSubject {
    /// The executors the kit judges in `bench conformance` and in its own tests: SchedulerKit's over a pool and over
    /// Dispatch, as an actor's executor and as a task's preference, the main actor's, and the runtime's global
    /// concurrent executor. The main actor's jobs run only where the main thread serves the main queue (an async
    /// `main`, a test runner, `RunLoop.main`). Then the exploring scheduler's, first-in-first-out and random.
    public static var builtIn: [ExecutorSubject] {
        ownExecutors + (mainActor.map { [$0] } ?? []) + [globalConcurrent] + exploring
    }

    /// Why a random exploring scheduler declares the order rules: running ready jobs in other orders than they came
    /// is what it is for.
    public static let exploringReorders =
        "an exploring scheduler under the random strategy runs ready jobs in an order it draws, not the order they "
        + "came: that is what it explores (SchedulerExplorer, Docs/Exploring.md)"

    /// The exploring scheduler's executors, driven by a thread of their own (`FreeRunningExplorer`).
    static var exploring: [ExecutorSubject] {
        [ExplorationStrategy.firstInFirstOut, .random].flatMap { strategy in
            let declarations: [RuleID: String] = strategy == .random ? [.x2: exploringReorders] : [:]
            return [
                ExecutorSubject(
                    name: "SchedulerExecutor(ExploringScheduler, \(strategy))",
                    summary: "an actor's executor over an exploring scheduler run by its own thread",
                    declarations: declarations
                ) {
                    let explorer = FreeRunningExplorer(strategy: strategy, seed: 5)
                    return ExecutorUnderTest(serial: SchedulerExecutor(explorer.scheduler), tearDown: explorer.stop)
                },
                ExecutorSubject(
                    name: "SchedulerTaskExecutor(ExploringScheduler, \(strategy))",
                    summary: "a task preference over an exploring scheduler run by its own thread",
                    declarations: declarations
                ) {
                    let explorer = FreeRunningExplorer(strategy: strategy, seed: 5)
                    let scheduler = explorer.scheduler
                    return ExecutorUnderTest(
                        task: SchedulerTaskExecutor(scheduler), isRunningJob: { Schedulers.current === scheduler },
                        tearDown: explorer.stop)
                },
            ]
        }
    }

    /// The main actor's executor, where the runtime hands it out as an object (`asSerialExecutor()`).
    static var mainActor: ExecutorSubject? {
        guard let main = MainActor.sharedUnownedExecutor.asSerialExecutor() else { return nil }
        return ExecutorSubject(name: "MainActor's executor", summary: "the main actor's executor: the main queue") {
            ExecutorUnderTest(serial: main)
        }
    }

    static let globalConcurrent = ExecutorSubject(
        name: "globalConcurrentExecutor", summary: "the runtime's default executor for nonisolated tasks"
    ) {
        ExecutorUnderTest(task: globalConcurrentExecutor)
    }

    static var ownExecutors: [ExecutorSubject] {
        [
            ExecutorSubject(
                name: "SchedulerExecutor(ThreadPool)", summary: "an actor's executor over a ThreadPoolScheduler"
            ) {
                let pool = ThreadPool(threadCount: 2, name: "executor-subject")
                return ExecutorUnderTest(
                    serial: SchedulerExecutor(pool.makeScheduler(name: "actor")), tearDown: pool.shutdown)
            },
            ExecutorSubject(
                name: "SchedulerExecutor(Dispatch)", summary: "an actor's executor over a DispatchQueueScheduler"
            ) {
                ExecutorUnderTest(serial: SchedulerExecutor(DispatchQueueScheduler(name: "actor")))
            },
            ExecutorSubject(
                name: "SchedulerTaskExecutor(ThreadPool)", summary: "a task preference over a ThreadPoolScheduler"
            ) {
                let pool = ThreadPool(threadCount: 2, name: "executor-subject")
                let scheduler = pool.makeScheduler(name: "tasks")
                return ExecutorUnderTest(
                    task: SchedulerTaskExecutor(scheduler), isRunningJob: { Schedulers.current === scheduler },
                    tearDown: pool.shutdown)
            },
        ]
    }
}
