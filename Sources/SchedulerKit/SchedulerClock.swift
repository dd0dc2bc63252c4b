/// Any timed scheduler as a Swift `Clock`: `now` is the scheduler's clock, and a sleep is a task of the scheduler at
/// the deadline that resumes the sleeper.
///
/// Semantics first:
/// - `now` is the scheduler's ``TimedScheduler/now``: the monotonic clock for real schedulers, virtual time for
///   ``TestScheduler``. It never goes backwards.
/// - `sleep(until:)` never returns before the deadline on this clock. A deadline at or before `now` returns at once,
///   without a trip through the scheduler (on virtual time, without waiting for anyone to advance it).
/// - Cancelling the sleeping task cancels the scheduled wake-up and throws `CancellationError` at once; a task that is
///   already cancelled throws before it sleeps.
/// - A wake-up the scheduler will never run (refused after its shutdown, or cancelled by it) ends the sleep with
///   `CancellationError` as soon as the scheduler lets go of it: a sleep on a shut-down pool never hangs.
/// - `tolerance` is ignored: the scheduler's own timer decides (``TimedScheduler`` never runs work early).
///
/// Over a ``TestScheduler`` this is a virtual clock a test drives with `advance(by:)`. Run the sleepers with the
/// scheduler's ``SchedulerTaskExecutor`` as their executor preference and every step is deterministic: an advance
/// runs each due sleeper's continuation as a task of the scheduler at the sleeper's deadline, with `now` equal to it.
///
/// ```swift
/// let test = TestScheduler()
/// let clock = SchedulerClock(test)
/// let task = Task(executorPreference: SchedulerTaskExecutor(test)) { try await clock.sleep(for: .seconds(5)) }
/// test.advance(by: .seconds(5))   // the sleeper resumes inside this call, at now == its deadline
/// ```
public struct SchedulerClock: Clock {
    /// An instant of the scheduler's clock.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        public var time: SchedulerTime

        public init(_ time: SchedulerTime) { self.time = time }

        public func advanced(by duration: Duration) -> Instant { Instant(time.advanced(by: duration)) }
        public func duration(to other: Instant) -> Duration { time.duration(to: other.time) }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.time < rhs.time }
        public var description: String { time.description }
    }

    public let scheduler: any TimedScheduler

    public init(_ scheduler: any TimedScheduler) { self.scheduler = scheduler }

    public var now: Instant { Instant(scheduler.now) }

    /// One nanosecond: the unit of ``SchedulerTime``.
    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        if deadline <= now { return }
        let sleep = Sleep()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleep.begin(continuation) else { return }
                let wakeUp = WakeUp(sleep)
                let handle = scheduler.schedule(at: deadline.time) { wakeUp.fire() }
                sleep.attach(handle)
            }
        } onCancel: {
            sleep.end(cancelled: true)
        }
    }

    /// What the scheduled closure holds: firing it wakes the sleeper; released without firing (the scheduler refused
    /// the work, or cancelled it at its shutdown, and let go of its closure, as every scheduler of SchedulerKit does at
    /// once) it ends the sleep as cancelled, since nothing else ever will.
    private final class WakeUp: Sendable {
        private let sleep: Sleep
        init(_ sleep: Sleep) { self.sleep = sleep }
        func fire() { sleep.end(cancelled: false) }
        deinit { sleep.end(cancelled: true) }  // nothing once the sleep has ended: fired, or cancelled first
    }

    /// One sleeper: whichever of the wake-up and the cancellation comes first resumes the continuation, once.
    /// Cancellation may arrive before the continuation exists (the handler runs at once for a task cancelled in
    /// between) or before the wake-up is scheduled; the state says which, under its lock.
    private final class Sleep: Sendable {
        private enum Phase {
            case notStarted
            case sleeping(CheckedContinuation<Void, any Error>, (any Cancellable)?)
            case cancelledEarly
            case ended
        }
        private let phase = Locked(Phase.notStarted)

        /// Stores the continuation; false (after resuming it with `CancellationError`) if cancellation came first.
        func begin(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
            let cancelled = phase.withLock { phase -> Bool in
                if case .cancelledEarly = phase {
                    phase = .ended
                    return true
                }
                phase = .sleeping(continuation, nil)
                return false
            }
            if cancelled { continuation.resume(throwing: CancellationError()) }
            return !cancelled
        }

        /// Keeps the wake-up's handle so that a cancellation can cancel it; cancels it if the sleep already ended.
        func attach(_ handle: any Cancellable) {
            let ended = phase.withLock { phase -> Bool in
                guard case .sleeping(let continuation, _) = phase else { return true }
                phase = .sleeping(continuation, handle)
                return false
            }
            if ended { handle.cancel() }
        }

        func end(cancelled: Bool) {
            let (continuation, handle) = phase.withLock {
                phase -> (CheckedContinuation<Void, any Error>?, (any Cancellable)?) in
                switch phase {
                case .notStarted:
                    if cancelled { phase = .cancelledEarly }
                    return (nil, nil)
                case .sleeping(let continuation, let handle):
                    phase = .ended
                    return (continuation, handle)
                case .cancelledEarly, .ended:
                    return (nil, nil)
                }
            }
            guard let continuation else { return }
            if cancelled {
                handle?.cancel()
                continuation.resume(throwing: CancellationError())
            } else {
                continuation.resume()
            }
        }
    }
}
