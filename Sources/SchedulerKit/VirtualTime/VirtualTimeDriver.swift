/// A scheduler whose time moves only when a test drives it: `TestScheduler`, the explorer's `ExploringScheduler`,
/// and any virtual-time scheduler of yours that the kit and the bench should drive.
///
/// Semantics (the V rules judge them): nothing runs until driven; ``advance(to:)`` runs everything due at or before
/// the target, including work that adds, with `now` at each task's due time while it runs, and ends with
/// `now == target`; ``step()`` runs exactly one task; ``run(maxSteps:)`` is bounded and says how it ended; the clock
/// never goes backwards.
public protocol VirtualTimeDriver: TimedScheduler {
    func advance(by duration: Duration)
    func advance(to target: SchedulerTime)
    @discardableResult func step() -> Bool
    @discardableResult func run(maxSteps: Int) -> VirtualTimeRunOutcome
}

/// How ``VirtualTimeDriver/run(maxSteps:)`` ended.
public enum VirtualTimeRunOutcome: Equatable, Sendable {
    /// Nothing is left.
    case drained(steps: Int)
    /// `maxSteps` tasks ran and `pending` entries are still queued (a repeating timer never ends).
    case stoppedEarly(steps: Int, pending: Int)
}
