/// Virtual time for tests (RAC's `RACTestScheduler`, ReactiveSwift's `TestScheduler`): nothing runs until a test
/// drives it with ``advance(by:)``, ``advance(to:)``, ``step()`` or ``run(maxSteps:)``.
///
/// - Tasks run in (due time, submission) order; ties run FIFO. While a task runs, `now` equals its due time, and
///   `advance(to: t)` ends with `now == t`. The clock never goes backwards: `advance(to:)` a time already past runs
///   what is due now and leaves `now` where it is (as `advance(by: .zero)`; a test that computed its target from an
///   earlier `now` is not a programmer error), and work scheduled in the past is due at the current `now`.
/// - Repeating work fires every tick, missed or not (no real-time coalescing); equal ticks run in creation order.
/// - Cancelled work never moves the clock: ``step()`` and ``run(maxSteps:)`` leave `now` at the due time of the last
///   task that ran, however many cancelled entries were queued after it (and so whether or not they were purged).
/// - Any thread may schedule and cancel at any time, also from inside actions: actions run with the state lock
///   released. Concurrent drivers are serialised; driving it from inside one of its own actions is a precondition
///   failure.
/// - Scheduling allocates nothing of its own: the handle is a value naming the task's slot in the queue, and acts on
///   that task only (a slot reused by a later task is not its own); `cancel()` releases the closure at once, and
///   `isCancelled` stays truthful for as long as the handle lives.
///
/// The clock, the queue and the driving are the package's one virtual-time engine (`VirtualTimeEngine`), in
/// first-in-first-out order; the explorer's `ExploringScheduler` is the same engine with a strategy choosing.
public final class TestScheduler: TimedScheduler, VirtualTimeDriver {
    public let name: String
    private let engine: VirtualTimeEngine

    public init(name: String = "test", now: SchedulerTime = .zero) {
        self.name = name
        self.engine = VirtualTimeEngine(now: now)
    }

    /// The promises every scheduler of this type keeps (see ``SchedulerTraits``).
    public static let traits: SchedulerTraits = [.serial, .timed, .repeating, .fixedRate, .virtualTime, .setsCurrent]

    public var traits: SchedulerTraits { Self.traits }

    public var now: SchedulerTime { engine.now }

    /// Entries still queued (cancelled ones may be counted until they are reached or purged).
    public var pendingCount: Int { engine.pendingCount }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        engine.schedule(work, at: .zero, timed: false)
    }

    @discardableResult
    public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        engine.schedule(work, at: deadline, timed: true)
    }

    @discardableResult
    public func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        ArgumentCheck.repeating(interval: interval, leeway: leeway)
        let work = RepeatingWork(work)
        engine.scheduleRepeating(work, at: start, every: interval)
        return work
    }

    /// Runs everything due within `duration` from now, then sets `now` to that time.
    /// The target is read from `now` once this driver has the clock, so concurrent drivers never move it backwards.
    public func advance(by duration: Duration = .zero) { engine.advance(by: duration, owner: self) }

    /// Runs every task due at or before `target`, in (due, submission) order, including work those tasks add;
    /// ends with `now == target`. A target before `now` runs what is due now and leaves `now` as it is: the clock
    /// never goes backwards.
    public func advance(to target: SchedulerTime) { engine.advance(to: target, owner: self) }

    /// Runs exactly one task (the earliest, moving `now` to its due time); false if there was none.
    @discardableResult
    public func step() -> Bool { engine.step(owner: self) }

    /// Runs tasks one at a time, moving time forward, until none is left or `maxSteps` ran.
    @discardableResult
    public func run(maxSteps: Int = 1_000_000) -> VirtualTimeRunOutcome { engine.run(maxSteps: maxSteps, owner: self) }
}
