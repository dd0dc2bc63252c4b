/// One type in both executor roles, `SerialExecutor` and `TaskExecutor`: the shape SchedulerKit does *not* ship,
/// kept so that the bench can measure what it costs against the two types it does ship (``SchedulerExecutor`` for
/// actors, ``SchedulerTaskExecutor`` for task preferences). Exposed to the bench only (SPI `Bench`).
///
/// Why it costs more: `enqueue` cannot tell an actor's job from the job of a task that merely prefers the executor,
/// so it must run every job isolated to itself (`runSynchronously(isolatedTo:taskExecutor:)`), or an actor's job
/// would run without its isolation. A nonisolated task's job then starts on an actor executor it does not belong
/// to, and the runtime sends it back through `enqueue` to leave that isolation: two trips through the scheduler per
/// task instead of one (`SchedulerTaskExecutorTests` counts them; bench W11–W13 time them, backend
/// `pool-both-roles`).
@_spi(Bench) public final class SchedulerBothRolesExecutor: SerialExecutor, TaskExecutor {
    public let scheduler: any Scheduler
    private let nodeScheduler: any NodeScheduler

    /// Over a node-taking scheduler that ``SchedulerExecutor/accepts(_:)`` (traps otherwise).
    @_spi(Bench) public init(_ scheduler: any NodeScheduler) {
        _ = SchedulerExecutor.accepted(scheduler, by: "SchedulerBothRolesExecutor(_:)")
        self.scheduler = scheduler
        self.nodeScheduler = scheduler
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        nodeScheduler.enqueue(node: ScheduledWork(UnownedJob(job), bothRolesOn: self))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(complexEquality: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    public func isSameExclusiveExecutionContext(other: SchedulerBothRolesExecutor) -> Bool {
        other.scheduler === scheduler
    }

    public func checkIsolated() { SchedulerExecutor.checkIsolated(on: scheduler) }

    public func isIsolatingCurrentContext() -> Bool? { Schedulers.current === scheduler }
}
