/// Any serial scheduler as a Swift-concurrency executor: an actor's `SerialExecutor`, or a `TaskExecutor`.
///
/// Semantics first: each job becomes one task of the scheduler, so an actor on it never runs two jobs at once, jobs
/// from one enqueuer run FIFO, and every job runs with `Schedulers.current === scheduler`, like any other task.
/// Isolation checks (`assumeIsolated`, `preconditionIsolated`, `checkIsolated`) hold exactly while one of the
/// scheduler's tasks runs on this thread. The executor keeps its scheduler alive; an actor keeps its executor alive
/// by holding it, and releases it with itself.
///
/// ```swift
/// actor Counter {
///     nonisolated let executor = SchedulerExecutor(DispatchQueueScheduler(name: "counter"))
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
///     var value = 0
///     func increment() { value += 1 }
/// }
/// ```
/// Only serial schedulers that run work later qualify (asynchronous, or virtual time driven by a test): an executor
/// must never run a job inside `enqueue`.
public final class SchedulerExecutor: SerialExecutor, TaskExecutor {
    public let scheduler: any Scheduler

    /// Whether a scheduler with these traits can back an executor: serial, sets itself current, and runs work later
    /// (asynchronous, or virtual time driven by a test). The one definition the initialiser, the E rules and the
    /// bench's actor workloads use.
    public static func accepts(_ traits: SchedulerTraits) -> Bool {
        traits.isSuperset(of: [.serial, .setsCurrent]) && !traits.isDisjoint(with: [.asynchronous, .virtualTime])
    }

    public init(_ scheduler: any Scheduler) {
        precondition(
            Self.accepts(scheduler.traits),
            "SchedulerExecutor(_:): \(scheduler.name) must be serial, set itself current and run work later; its traits are [\(scheduler.traits)]"
        )
        self.scheduler = scheduler
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        scheduler.schedule { [self] in
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(complexEquality: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Two executors over the same scheduler are one execution context.
    public func isSameExclusiveExecutionContext(other: SchedulerExecutor) -> Bool {
        other.scheduler === scheduler
    }

    public func checkIsolated() {
        precondition(
            Schedulers.current === scheduler,
            "checkIsolated: not running on a task of scheduler \(scheduler.name)")
    }

    public func isIsolatingCurrentContext() -> Bool? {
        Schedulers.current === scheduler
    }
}
