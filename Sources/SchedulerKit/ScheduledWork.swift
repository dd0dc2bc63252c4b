import Synchronization

/// One-shot work and its handle in one object (so scheduling allocates one node beyond the closure).
///
/// State machine, one atomic byte: `pending → running → finished`, or `pending → cancelled`.
/// Whoever wins the transition out of `pending` owns `work` exclusively: the runner calls and drops it, the
/// canceller drops it at once, so a cancelled task's captures are released promptly, not when a queue reaches it.
// @unchecked Sendable: `work` is touched only by the single winner of the atomic transition out of `pending`,
// and the acquiring/releasing orderings on `state` order that access after the initialising write.
public final class ScheduledWork: Cancellable, @unchecked Sendable {
    /// What the task runs: a closure, or a Swift-concurrency job with the executor that runs it. The node carries a
    /// job itself, so an executor's `enqueue` costs one allocation (the node) where a closure would cost two.
    private enum Work {
        case closure(@Sendable () -> Void)
        case actorJob(UnownedJob, SchedulerExecutor)
        case taskJob(UnownedJob, SchedulerTaskExecutor)
        case bothRolesJob(UnownedJob, SchedulerBothRolesExecutor)
        case taken
    }

    /// Unchecked: the atomic state already gives one thread at a time the right to touch it. Declared before `state`:
    /// with its tag it takes 17 bytes, and the state byte fills the padding after it, so a node stays 48 bytes.
    @exclusivity(unchecked) private var work: Work
    private let state: Atomic<UInt8>
    private enum State: UInt8 { case pending, running, finished, cancelled }
    /// The link of ``TaskQueue`` (the pool's lock-free queue), so queueing a task allocates nothing more.
    let queueNext = Atomic<Unmanaged<ScheduledWork>?>(nil)

    public init(_ work: @escaping @Sendable () -> Void) {
        self.work = .closure(work)
        self.state = Atomic(State.pending.rawValue)
    }

    /// A job of an actor on `executor`: it runs isolated to the executor.
    init(_ job: UnownedJob, actorOn executor: SchedulerExecutor) {
        self.work = .actorJob(job, executor)
        self.state = Atomic(State.pending.rawValue)
    }

    /// A job of a task that prefers `executor`: it runs with no actor isolation.
    init(_ job: UnownedJob, taskOn executor: SchedulerTaskExecutor) {
        self.work = .taskJob(job, executor)
        self.state = Atomic(State.pending.rawValue)
    }

    /// A job given to an executor in both roles: it runs isolated to the executor, whichever role it came in by.
    init(_ job: UnownedJob, bothRolesOn executor: SchedulerBothRolesExecutor) {
        self.work = .bothRolesJob(job, executor)
        self.state = Atomic(State.pending.rawValue)
    }

    /// What the node carries, for a scheduler that watches the jobs it runs (the exploring scheduler's trace and its
    /// PCT strategy): a job with the id of its task (0 for a job that is not a task's, such as a default actor's
    /// turn). Task ids are never reused, unlike addresses. Read it only while the node is yours alone (in
    /// `enqueue(node:)`, before anyone else can run or cancel it).
    @_spi(Explorer) public var carried: Carried {
        switch work {
        case .closure, .taken: .closure
        case .actorJob(let job, _), .bothRolesJob(let job, _): .actorJob(task: jobTaskID(job))
        case .taskJob(let job, _): .taskJob(task: jobTaskID(job))
        }
    }

    /// See ``carried``.
    @_spi(Explorer) public enum Carried: Sendable, Equatable {
        case closure
        case actorJob(task: UInt64)
        case taskJob(task: UInt64)
        /// A job of no task that the runtime made while a task ran (a default actor's turn after the task hopped
        /// onto it, the extra job of a yield): counted with the task it continues. Set by the explorer, never read
        /// from a node.
        case runtimeJob(continuing: UInt64)

        /// The id of the task the job belongs to or continues; 0 for a closure or a job of no known task.
        public var task: UInt64 {
            switch self {
            case .closure: 0
            case .actorJob(let task), .taskJob(let task), .runtimeJob(let task): task
            }
        }
    }

    private init(state: State) {
        self.work = .taken
        self.state = Atomic(state.rawValue)
    }

    /// A fresh handle in the finished state (``TaskQueue``'s private stub node).
    static func makeFinished() -> ScheduledWork { ScheduledWork(state: .finished) }

    @discardableResult
    public func cancel() -> Bool {
        guard
            state.compareExchange(
                expected: State.pending.rawValue, desired: State.cancelled.rawValue, ordering: .acquiringAndReleasing
            ).exchanged
        else { return false }
        work = .taken
        return true
    }

    public var isCancelled: Bool { state.load(ordering: .acquiring) == State.cancelled.rawValue }
    /// Whether the work has started or finished (it can then no longer be cancelled).
    public var hasStarted: Bool {
        let s = state.load(ordering: .acquiring)
        return s == State.running.rawValue || s == State.finished.rawValue
    }

    /// Runs the work unless it was cancelled first; returns whether it ran. The caller sets the current scheduler.
    @discardableResult @inline(__always)
    public func run() -> Bool {
        guard
            state.compareExchange(
                expected: State.pending.rawValue, desired: State.running.rawValue, ordering: .acquiringAndReleasing
            ).exchanged
        else { return false }
        // Moved out with `swap`, which copies no reference: `work.take()` (and calling `work` in place) cost a retain
        // and one more release per task.
        var body = Work.taken
        swap(&body, &work)
        switch consume body {
        case .closure(let closure): closure()
        case .actorJob(let job, let executor): Self.run(job, on: executor)
        case .taskJob(let job, let executor): Self.run(job, on: executor)
        case .bothRolesJob(let job, let executor): Self.run(job, on: executor)
        case .taken: break
        }
        state.store(State.finished.rawValue, ordering: .releasing)
        return true
    }

    // Out of line, so that `run()` stays small enough to inline where a scheduler runs plain closures.
    @inline(never)
    private static func run(_ job: UnownedJob, on executor: SchedulerExecutor) {
        job.runSynchronously(on: executor.asUnownedSerialExecutor())
    }

    @inline(never)
    private static func run(_ job: UnownedJob, on executor: SchedulerTaskExecutor) {
        job.runSynchronously(on: executor.asUnownedTaskExecutor())
    }

    /// Runs a job as Swift's global executor runs it (a pool that took the global executor over: its jobs are queued
    /// as they are, not in a node). The generic executor's reference is two zero words (the runtime's
    /// `SerialExecutorRef::generic()`); `UnownedSerialExecutor` is that pair, so it is built bit for bit.
    @inline(never)
    static func runOnGenericExecutor(_ job: UnownedJob) {
        job.runSynchronously(on: unsafeBitCast((UInt(0), UInt(0)), to: UnownedSerialExecutor.self))
    }

    @inline(never)
    private static func run(_ job: UnownedJob, on executor: SchedulerBothRolesExecutor) {
        job.runSynchronously(
            isolatedTo: executor.asUnownedSerialExecutor(), taskExecutor: executor.asUnownedTaskExecutor())
    }
}

/// The handle of work whose fate was sealed before `schedule` returned: it ran inline (``ran``), it was refused
/// because the scheduler is shut down (``refused``), or it will run and nothing under the scheduler can stop it
/// (``uncancellable``). Nothing is left to cancel, so ``cancel()`` returns false.
/// A value, not an object: returning it costs no allocation and no reference counting (the immediate scheduler
/// returns one per task).
public struct SettledWork: Cancellable {
    public let isCancelled: Bool

    /// Work that already ran.
    public static var ran: SettledWork { SettledWork(isCancelled: false) }
    /// Work that was refused and will never run (a shut-down scheduler's answer).
    public static var refused: SettledWork { SettledWork(isCancelled: true) }
    /// Work that will run and that the primitive under the scheduler cannot cancel (NIO's `EventLoop.execute`,
    /// Combine's one-shot `schedule`): `cancel()` says false, truthfully, since nothing guarantees the work will not
    /// run.
    public static var uncancellable: SettledWork { SettledWork(isCancelled: false) }

    @discardableResult
    public func cancel() -> Bool { false }
}

/// A scheduler whose `schedule` wraps the closure in a ``ScheduledWork`` node and queues the node. It also takes a
/// node made elsewhere, as it is: an executor's job travels in its node, with no closure around it.
/// Exposed to the bench only (SPI `Bench`), for its hand-off floor's task executor.
@_spi(Bench) public protocol NodeScheduler: Scheduler {
    /// Queues `node` as `schedule` queues its own, and runs it the same way (the scheduler current). A scheduler
    /// that refuses work (shut down) drops the node unrun, as it drops refused closures.
    func enqueue(node: ScheduledWork)
}

/// The id of the task a job belongs to, 0 if it is no task's: the runtime function `UnownedJob.description` prints.
@_silgen_name("swift_task_getJobTaskId")
func jobTaskID(_ job: UnownedJob) -> UInt64
