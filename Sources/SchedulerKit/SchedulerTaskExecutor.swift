/// Any serial scheduler as a `TaskExecutor`: a task's executor preference (`Task(executorPreference:)`,
/// `withTaskExecutorPreference`), so the task's nonisolated code runs as tasks of the scheduler.
///
/// Semantics first: each job becomes one task of the scheduler and runs with `Schedulers.current === scheduler`, in
/// the order jobs were enqueued from one thread. A job runs with no actor isolation (the generic executor), which is
/// what a nonisolated task's code expects, so the runtime runs it at once instead of enqueueing it again (an actor's
/// ``SchedulerExecutor`` runs jobs isolated to itself: used as a preference it costs a second trip per task). Actor
/// code the task calls still runs on its actor's executor. The executor keeps its scheduler alive.
///
/// ```swift
/// let executor = SchedulerTaskExecutor(ThreadPool.shared.makeScheduler(name: "parse"))
/// let value = await Task(executorPreference: executor) { parse(input) }.value
/// ```
/// The same schedulers qualify as for ``SchedulerExecutor`` (``SchedulerExecutor/accepts(_:)``).
public final class SchedulerTaskExecutor: TaskExecutor {
    public let scheduler: any Scheduler

    public init(_ scheduler: any Scheduler) {
        self.scheduler = SchedulerExecutor.accepted(scheduler, by: "SchedulerTaskExecutor(_:)")
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        scheduler.schedule { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
