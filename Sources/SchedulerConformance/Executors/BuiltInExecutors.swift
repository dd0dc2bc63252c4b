import SchedulerKit

extension ExecutorSubject {
    /// The executors the kit judges in `bench conformance` and in its own tests: SchedulerKit's over a pool and over
    /// Dispatch, as an actor's executor and as a task's preference, the main actor's, and the runtime's global
    /// concurrent executor. The main actor's jobs run only where the main thread serves the main queue (an async
    /// `main`, a test runner, `RunLoop.main`).
    public static var builtIn: [ExecutorSubject] {
        ownExecutors + (mainActor.map { [$0] } ?? []) + [globalConcurrent]
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
