import Synchronization

/// One-shot work and its handle in one object (so scheduling allocates one node beyond the closure).
///
/// State machine, one atomic byte: `pending → running → finished`, or `pending → cancelled`.
/// Whoever wins the transition out of `pending` owns `work` exclusively: the runner calls and drops it, the
/// canceller drops it at once, so a cancelled task's captures are released promptly, not when a queue reaches it.
// @unchecked Sendable: `work` is touched only by the single winner of the atomic transition out of `pending`,
// and the acquiring/releasing orderings on `state` order that access after the initialising write.
public final class ScheduledWork: Cancellable, @unchecked Sendable {
    private enum State: UInt8 { case pending, running, finished, cancelled }
    private let state: Atomic<UInt8>
    /// Unchecked: the atomic state already gives one thread at a time the right to touch it.
    @exclusivity(unchecked) private var work: (@Sendable () -> Void)?
    /// The link of ``TaskQueue`` (the pool's lock-free queue), so queueing a task allocates nothing more.
    let queueNext = Atomic<Unmanaged<ScheduledWork>?>(nil)

    public init(_ work: @escaping @Sendable () -> Void) {
        self.state = Atomic(State.pending.rawValue)
        self.work = work
    }

    private init(state: State) {
        self.state = Atomic(state.rawValue)
        self.work = nil
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
        work = nil
        return true
    }

    public var isCancelled: Bool { state.load(ordering: .acquiring) == State.cancelled.rawValue }
    /// Whether the work has started or finished (it can then no longer be cancelled).
    public var hasStarted: Bool {
        let s = state.load(ordering: .acquiring)
        return s == State.running.rawValue || s == State.finished.rawValue
    }

    /// Runs the work unless it was cancelled first; returns whether it ran. The caller sets the current scheduler.
    @discardableResult
    public func run() -> Bool {
        guard
            state.compareExchange(
                expected: State.pending.rawValue, desired: State.running.rawValue, ordering: .acquiringAndReleasing
            ).exchanged
        else { return false }
        // Moved out with `swap`, which copies no reference: `work.take()` (and calling `work` in place) cost a retain
        // and one more release per task.
        var body: (@Sendable () -> Void)? = nil
        swap(&body, &work)
        body?()
        state.store(State.finished.rawValue, ordering: .releasing)
        return true
    }
}

/// The handle of work whose fate was sealed before `schedule` returned: it ran inline (``ran``), or it was refused
/// because the scheduler is shut down (``refused``). Nothing is left to cancel, so ``cancel()`` returns false.
/// A value, not an object: returning it costs no allocation and no reference counting (the immediate scheduler
/// returns one per task).
public struct SettledWork: Cancellable {
    public let isCancelled: Bool

    /// Work that already ran.
    public static var ran: SettledWork { SettledWork(isCancelled: false) }
    /// Work that was refused and will never run (a shut-down scheduler's answer).
    public static var refused: SettledWork { SettledWork(isCancelled: true) }

    @discardableResult
    public func cancel() -> Bool { false }
}
