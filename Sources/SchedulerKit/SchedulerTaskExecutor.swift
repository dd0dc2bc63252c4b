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
    /// The same scheduler where it takes a job's node as it is (one allocation per job instead of two).
    private let nodeScheduler: (any NodeScheduler)?

    public init(_ scheduler: any Scheduler) {
        self.scheduler = SchedulerExecutor.accepted(scheduler, by: "SchedulerTaskExecutor(_:)")
        self.nodeScheduler = scheduler as? any NodeScheduler
    }

    /// Over a scheduler that need not keep the promises of ``SchedulerExecutor/accepts(_:)`` (the bench's hand-off
    /// floor, whose thread sets no current scheduler).
    @_spi(Bench) public init(unchecked scheduler: any NodeScheduler) {
        self.scheduler = scheduler
        self.nodeScheduler = scheduler
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if let nodeScheduler {
            nodeScheduler.enqueue(node: ScheduledWork(job, taskOn: self))
        } else {
            scheduler.schedule { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
