/// Any serial scheduler as an actor's `SerialExecutor` (for a task's executor preference, see
/// ``SchedulerTaskExecutor``).
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
///
/// Why it is not also a `TaskExecutor`: one `enqueue` cannot tell an actor's job from a job of a task that merely
/// prefers the executor, so it would run both isolated to the actor's executor, and a nonisolated task's job must
/// then leave that isolation at once: the runtime enqueues it a second time (twice the scheduling, and 2 more
/// allocations per task, measured in bench W12).
public final class SchedulerExecutor: SerialExecutor {
    public let scheduler: any Scheduler
    /// The same scheduler where it takes a job's node as it is (one allocation per job instead of two).
    private let nodeScheduler: (any NodeScheduler)?

    /// Whether a scheduler with these traits can back an executor: serial, sets itself current, runs work later
    /// (asynchronous, or virtual time driven by a test), and takes calls from any thread. The one definition the
    /// initialiser, the E rules and the bench's actor workloads use.
    public static func accepts(_ traits: SchedulerTraits) -> Bool {
        traits.isSuperset(of: requiredTraits) && !traits.isDisjoint(with: runsLaterTraits)
            && traits.isDisjoint(with: refusedTraits)
    }

    /// What every scheduler behind an executor has: one job at a time, and itself current while it runs.
    public static let requiredTraits: SchedulerTraits = [.serial, .setsCurrent]
    /// One of these is needed too: each makes the job run later than the `enqueue` that submitted it.
    public static let runsLaterTraits: SchedulerTraits = [.asynchronous, .virtualTime]
    /// None of these: the runtime enqueues an actor's jobs from threads of its own, which a scheduler confined to one
    /// thread forbids (RxSwift's virtual-time schedulers stop the program there).
    public static let refusedTraits: SchedulerTraits = [.threadConfined]

    public init(_ scheduler: any Scheduler) {
        self.scheduler = Self.accepted(scheduler, by: "SchedulerExecutor(_:)")
        self.nodeScheduler = scheduler as? any NodeScheduler
    }

    /// Over a scheduler that need not keep the promises of ``accepts(_:)`` (the bench's hand-off floor, whose thread
    /// sets no current scheduler: isolation checks fail on it, and nothing the bench runs makes one).
    @_spi(Bench) public init(unchecked scheduler: any NodeScheduler) {
        self.scheduler = scheduler
        self.nodeScheduler = scheduler
    }

    /// `scheduler`, if it can back an executor; traps otherwise, naming `initialiser`.
    static func accepted(_ scheduler: any Scheduler, by initialiser: String) -> any Scheduler {
        precondition(
            accepts(scheduler.traits),
            "\(initialiser): \(scheduler.name) must be serial, set itself current, run work later and take calls from any thread; its traits are [\(scheduler.traits)]"
        )
        return scheduler
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if let nodeScheduler {
            nodeScheduler.enqueue(node: ScheduledWork(job, actorOn: self))
        } else {
            scheduler.schedule { [self] in job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(complexEquality: self)
    }

    /// Two executors over the same scheduler are one execution context.
    public func isSameExclusiveExecutionContext(other: SchedulerExecutor) -> Bool {
        other.scheduler === scheduler
    }

    public func checkIsolated() { Self.checkIsolated(on: scheduler) }

    public func isIsolatingCurrentContext() -> Bool? { Schedulers.current === scheduler }

    /// An executor over `scheduler` isolates exactly the code that runs as one of its tasks (also for
    /// `SchedulerBothRolesExecutor`).
    static func checkIsolated(on scheduler: any Scheduler) {
        precondition(
            Schedulers.current === scheduler,
            "checkIsolated: not running on a task of scheduler \(scheduler.name)")
    }
}
