

/// Virtual time for tests (RAC's `RACTestScheduler`, ReactiveSwift's `TestScheduler`): nothing runs until a test
/// drives it with ``advance(by:)``, ``advance(to:)``, ``step()`` or ``run(maxSteps:)``.
///
/// - Tasks run in (due time, submission) order; ties run FIFO. While a task runs, `now` equals its due time, and
///   `advance(to: t)` ends with `now == t`. The clock never goes backwards: advancing to the past is a precondition
///   failure, and work scheduled in the past is due at the current `now`.
/// - Repeating work fires every tick, missed or not (no real-time coalescing); equal ticks run in creation order.
/// - Any thread may schedule and cancel at any time, also from inside actions: actions run with the state lock
///   released. Concurrent drivers are serialised; driving it from inside one of its own actions is a precondition
///   failure.
public final class TestScheduler: TimedScheduler {
    public let name: String
    private let state: Locked<State>
    /// Serialises drivers (advance, step, run), never held by schedule or cancel.
    private let driver = ConditionLock()

    private struct State {
        var now: SchedulerTime
        var timers = TimerQueue<VirtualTask>()
    }

    private enum VirtualTask {
        case once(ScheduledWork)
        case tick(VirtualRepeating)

        var isDead: Bool {
            switch self {
            case .once(let task): task.isCancelled
            case .tick(let repeating): repeating.work.isCancelled
            }
        }
    }

    private struct VirtualRepeating {
        let work: RepeatingWork
        let interval: Duration
        let sequence: UInt64
    }

    /// How ``run(maxSteps:)`` ended.
    public enum RunOutcome: Equatable, Sendable {
        /// Nothing is left.
        case drained(steps: Int)
        /// `maxSteps` tasks ran and `pending` entries are still queued (a repeating timer never ends).
        case stoppedEarly(steps: Int, pending: Int)
    }

    public init(name: String = "test", now: SchedulerTime = .zero) {
        self.name = name
        self.state = Locked(State(now: now))
    }

    public var traits: SchedulerTraits { [.serial, .timed, .repeating, .fixedRate, .virtualTime, .setsCurrent] }

    public var now: SchedulerTime { state.withLock { $0.now } }

    /// Entries still queued (cancelled ones may be counted until they are reached or purged).
    public var pendingCount: Int { state.withLock { $0.timers.count } }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        schedule(at: .zero, work)
    }

    @discardableResult
    public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        state.withLock { state in
            state.timers.insert(.once(task), at: max(deadline, state.now))
            state.timers.purgeIfGrown(\.isDead)
        }
        return task
    }

    @discardableResult
    public func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        ArgumentCheck.repeating(interval: interval, leeway: leeway)
        let work = RepeatingWork(work)
        state.withLock { state in
            let repeating = VirtualRepeating(work: work, interval: interval, sequence: state.timers.takeSequence())
            state.timers.insert(.tick(repeating), at: max(start, state.now), sequence: repeating.sequence)
        }
        return work
    }

    /// Runs everything due within `duration` from now, then sets `now` to that time.
    /// The target is read from `now` once this driver has the clock, so concurrent drivers never move it backwards.
    public func advance(by duration: Duration = .zero) {
        precondition(duration >= .zero, "advance(by:): duration must be >= 0, got \(duration)")
        drive { advanceDriven(to: now.advanced(by: duration, argument: "advance(by:)")) }
    }

    /// Runs every task due at or before `target`, in (due, submission) order, including work those tasks add;
    /// ends with `now == target`.
    public func advance(to target: SchedulerTime) {
        drive {
            let current = now
            precondition(target >= current, "advance(to:): \(target) is before now (\(current)); the clock never goes backwards")
            advanceDriven(to: target)
        }
    }

    private func advanceDriven(to target: SchedulerTime) {
        while runNext(dueBy: target) {}
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Runs exactly one task (the earliest, moving `now` to its due time); false if there was none.
    @discardableResult
    public func step() -> Bool {
        drive { runNext(dueBy: .distantFuture) }
    }

    /// Runs tasks one at a time, moving time forward, until none is left or `maxSteps` ran.
    @discardableResult
    public func run(maxSteps: Int = 1_000_000) -> RunOutcome {
        precondition(maxSteps >= 0, "run(maxSteps:): must be >= 0, got \(maxSteps)")
        return drive {
            var steps = 0
            while steps < maxSteps, runNext(dueBy: .distantFuture) { steps += 1 }
            let pending = state.withLock { state in
                state.timers.purgeIfGrown(\.isDead)
                return state.timers.count
            }
            return pending == 0 || steps < maxSteps ? .drained(steps: steps) : .stoppedEarly(steps: steps, pending: pending)
        }
    }

    private func drive<R>(_ body: () -> R) -> R {
        precondition(Schedulers.current !== self, "TestScheduler \(name): driven from inside one of its own actions")
        driver.lock()
        defer { driver.unlock() }
        return body()
    }

    /// Pops and runs the earliest live task due by `limit`; false when there is none.
    private func runNext(dueBy limit: SchedulerTime) -> Bool {
        while true {
            guard let entry = state.withLock({ state -> TimerQueue<VirtualTask>.Entry? in
                guard let entry = state.timers.popDue(at: limit) else { return nil }
                state.now = max(state.now, entry.deadline)
                return entry
            }) else { return false }
            switch entry.payload {
            case .once(let task):
                if Schedulers.performAsCurrent(self, { task.run() }) { return true }
            case .tick(let repeating):
                guard Schedulers.performAsCurrent(self, { repeating.work.runTick() }) else {
                    if repeating.work.isCancelled { continue } else { return true }
                }
                let next = entry.deadline.advanced(by: repeating.interval, argument: "interval")
                state.withLock { $0.timers.insert(.tick(repeating), at: next, sequence: repeating.sequence) }
                return true
            }
        }
    }
}
