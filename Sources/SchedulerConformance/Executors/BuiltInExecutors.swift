import SchedulerKit

extension ExecutorSubject {
    /// The executors the kit judges in `bench conformance` and in its own tests: SchedulerKit's over a pool and over
    /// Dispatch, as an actor's executor and as a task's preference, and the runtime's global concurrent executor.
    public static var builtIn: [ExecutorSubject] {
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
                return ExecutorUnderTest(
                    task: SchedulerTaskExecutor(pool.makeScheduler(name: "tasks")), tearDown: pool.shutdown)
            },
            ExecutorSubject(
                name: "globalConcurrentExecutor", summary: "the runtime's default executor for nonisolated tasks"
            ) {
                ExecutorUnderTest(task: globalConcurrentExecutor)
            },
        ]
    }
}
