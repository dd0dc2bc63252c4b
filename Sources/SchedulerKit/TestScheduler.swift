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
public final class TestScheduler: TimedScheduler {
    public let name: String
    private let state: Locked<State>
    /// Serialises drivers (advance, step, run), never held by schedule or cancel.
    private let driver = ConditionLock()

    private struct State {
        var now: SchedulerTime
        var timers = TimerQueue<VirtualTask>()
    }

    /// A queued task: one unmanaged reference with a tag bit, so that entries are plain bits and the timer queue
    /// moves them without reference counting or value witnesses (half of what a virtual task cost before).
    /// Ownership: the queue holds one retain per entry, taken by ``once(_:)`` or ``tick(_:)`` and given back exactly
    /// once, by ``take()`` when the entry is popped, by ``release()`` when a purge or the scheduler's end drops it.
    private struct VirtualTask {
        private let bits: UInt
        /// Set for a repeating tick; heap objects are at least 8-byte aligned, so the low bit is free.
        private static let tickTag: UInt = 1

        static func once(_ task: ScheduledWork) -> VirtualTask {
            VirtualTask(bits: UInt(bitPattern: Unmanaged.passRetained(task).toOpaque()))
        }

        static func tick(_ tick: VirtualTick) -> VirtualTask {
            VirtualTask(bits: UInt(bitPattern: Unmanaged.passRetained(tick).toOpaque()) | tickTag)
        }

        enum Owned {
            case once(ScheduledWork)
            case tick(VirtualTick)
        }

        private var address: UnsafeRawPointer { UnsafeRawPointer(bitPattern: bits & ~Self.tickTag)! }
        private var isTick: Bool { bits & Self.tickTag != 0 }

        /// Takes the queue's reference back; call once per entry.
        func take() -> Owned {
            isTick
                ? .tick(Unmanaged<VirtualTick>.fromOpaque(address).takeRetainedValue())
                : .once(Unmanaged<ScheduledWork>.fromOpaque(address).takeRetainedValue())
        }

        /// Gives the queue's reference back without running anything.
        func release() { _ = take() }

        /// Reads the task's state through the queue's reference (still held: no retain needed).
        var isDead: Bool {
            isTick
                ? Unmanaged<VirtualTick>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.work.isCancelled }
                : Unmanaged<ScheduledWork>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.isCancelled }
        }
    }

    /// One repeating task: allocated once, queued again for each tick.
    private final class VirtualTick: Sendable {
        let work: RepeatingWork
        let interval: Duration
        let sequence: UInt64

        init(work: RepeatingWork, interval: Duration, sequence: UInt64) {
            self.work = work
            self.interval = interval
            self.sequence = sequence
        }
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

    /// Pending work is dropped with the scheduler: each entry's closure is released here.
    deinit {
        state.withLock { state in
            for task in state.timers.removeAll() { task.release() }
        }
    }

    /// The promises every scheduler of this type keeps (see ``SchedulerTraits``).
    public static let traits: SchedulerTraits = [.serial, .timed, .repeating, .fixedRate, .virtualTime, .setsCurrent]

    public var traits: SchedulerTraits { Self.traits }

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
            state.timers.purgeIfGrown(\.isDead) { $0.release() }
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
            let tick = VirtualTick(work: work, interval: interval, sequence: state.timers.takeSequence())
            state.timers.insert(.tick(tick), at: max(start, state.now), sequence: tick.sequence)
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
    /// ends with `now == target`. A target before `now` runs what is due now and leaves `now` as it is: the clock
    /// never goes backwards.
    public func advance(to target: SchedulerTime) {
        drive { advanceDriven(to: max(target, now)) }
    }

    private func advanceDriven(to target: SchedulerTime) {
        _ = runDue(by: target, atMost: .max)
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Runs exactly one task (the earliest, moving `now` to its due time); false if there was none.
    @discardableResult
    public func step() -> Bool {
        drive { runDue(by: .distantFuture, atMost: 1) == 1 }
    }

    /// Runs tasks one at a time, moving time forward, until none is left or `maxSteps` ran.
    @discardableResult
    public func run(maxSteps: Int = 1_000_000) -> RunOutcome {
        precondition(maxSteps >= 0, "run(maxSteps:): must be >= 0, got \(maxSteps)")
        return drive {
            let steps = runDue(by: .distantFuture, atMost: maxSteps)
            let pending = state.withLock { state in
                state.timers.purgeIfGrown(\.isDead) { $0.release() }
                return state.timers.count
            }
            return pending == 0 || steps < maxSteps
                ? .drained(steps: steps) : .stoppedEarly(steps: steps, pending: pending)
        }
    }

    private func drive<R>(_ body: () -> R) -> R {
        precondition(Schedulers.current !== self, "TestScheduler \(name): driven from inside one of its own actions")
        driver.lock()
        defer { driver.unlock() }
        return body()
    }

    private typealias Entry = TimerQueue<VirtualTask>.Entry
    /// At most this many entries leave the queue in one visit to the lock.
    private static let batchLimit = 64

    /// Runs up to `maxTasks` live tasks due by `limit`, in (due, submission) order; returns how many ran (cancelled
    /// entries are skipped and not counted). Each visit to the lock takes out every entry of the earliest deadline
    /// (up to `batchLimit` and the tasks still wanted): work those tasks add is due no earlier and sequenced later,
    /// and a repeating tick re-arms a whole interval later, so running the batch in order keeps the order, and a
    /// cancel still wins over a batched task through the task's own atomic state.
    private func runDue(by limit: SchedulerTime, atMost maxTasks: Int) -> Int {
        var ran = 0
        var batch: [Entry] = []
        while ran < maxTasks {
            let wanted = min(maxTasks - ran, Self.batchLimit)
            batch.removeAll(keepingCapacity: true)
            state.withLock { state in
                // Cancelled entries never move the clock, whether they are reached here or purged earlier (then
                // the final `now` would depend on how many were queued).
                var popped = state.timers.popDue(at: limit)
                while let entry = popped, entry.payload.isDead {
                    entry.payload.release()
                    popped = state.timers.popDue(at: limit)
                }
                guard let first = popped else { return }
                state.now = max(state.now, first.deadline)
                batch.append(first)
                state.timers.popDue(at: first.deadline, atMost: wanted - 1, into: &batch)
            }
            if batch.isEmpty { return ran }
            for entry in batch where perform(entry) { ran += 1 }
        }
        return ran
    }

    /// Runs one popped entry with the state lock released, taking the queue's reference; false if it was cancelled.
    private func perform(_ entry: Entry) -> Bool {
        switch entry.payload.take() {
        case .once(let task):
            return Schedulers.performAsCurrent(self) { task.run() }
        case .tick(let tick):
            let outcome = Schedulers.performAsCurrent(self) { tick.work.runTick() }
            if outcome.goesOn {
                let next = entry.deadline.advanced(by: tick.interval, argument: "interval")
                state.withLock { $0.timers.insert(.tick(tick), at: next, sequence: tick.sequence) }
            }
            return outcome.ran
        }
    }
}
