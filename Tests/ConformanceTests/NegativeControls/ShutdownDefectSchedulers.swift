import Dispatch
import SchedulerConformance
import SchedulerKit

/// Negative controls for L3 and L4: a ThreadPoolScheduler on a pool of its own, correct but for one defect.
/// Tasks run with the pool's scheduler current, so they do not claim `setsCurrent`.
final class ShutdownDefectScheduler: TimedScheduler, ShutdownScheduler {
    enum Defect: Sendable {
        /// shutdown() called from one of its own tasks returns at once and shuts nothing down: the deadlock of
        /// waiting for its own thread avoided by giving up (SwiftNIO refuses syncShutdownGracefully on its own
        /// loop with a precondition; this one says nothing) (L3).
        case ignoredFromOwnTask
        /// Delayed work waits on a Dispatch timer of its own and joins the pool only when due, so shutdown, which
        /// cancels what the pool holds, never sees it: its captures live until the deadline (L4; SwiftNIO's
        /// testShutdownWhileScheduledTasksNotReady guards the same).
        case timersOutsideThePool
        /// A repetition built from one-shot ticks, each arming the next: shutdown cancels the tick the pool holds,
        /// but nothing cancels the repetition, so its handle says live for ever and keeps its closure (L7; the bug
        /// ThreadPool had when a due tick was queued behind busy workers at the shutdown).
        case repetitionOutlivesShutdown
    }

    let name = "shutdown-defect"
    private let inner: ThreadPoolScheduler
    private let defect: Defect
    static let traits = ThreadPoolScheduler.traits.subtracting(.setsCurrent)
    var traits: SchedulerTraits { Self.traits }
    var now: SchedulerTime { inner.now }
    var isShutDown: Bool { inner.isShutDown }

    init(_ inner: ThreadPoolScheduler, defect: Defect) {
        self.inner = inner
        self.defect = defect
    }

    func shutdown() {
        if defect == .ignoredFromOwnTask && Schedulers.current === inner { return }
        inner.shutdown()
    }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { inner.schedule(work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let delay = deadline - now
        guard defect == .timersOutsideThePool, delay > .zero, !inner.isShutDown else {
            return inner.schedule(at: deadline, work)
        }
        let handle = HandOver(ScheduledWork(work))
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [inner] in
            guard !handle.task.isCancelled else { return }
            handle.pool.withLock { $0 = inner.schedule { handle.task.run() } }
        }
        return handle
    }

    /// Delayed work on its Dispatch timer, and then in the pool: cancelled when either says so (shutdown cancels it
    /// in the pool, or the pool refuses it once shut down).
    private final class HandOver: Cancellable {
        let task: ScheduledWork
        let pool = Locked<(any Cancellable)?>(nil)
        init(_ task: ScheduledWork) { self.task = task }
        func cancel() -> Bool { task.cancel() }
        var isCancelled: Bool { task.isCancelled || pool.withLock { $0 }?.isCancelled == true }
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        // Refused once shut down, as the pool refuses it (L2): the defect is only a repetition live at the shutdown.
        guard defect == .repetitionOutlivesShutdown, !inner.isShutDown else {
            return inner.schedule(at: start, every: interval, leeway: leeway, work)
        }
        let repetition = OneShotRepetition(inner, every: interval, work)
        repetition.arm(at: start)
        return repetition
    }

    /// A repetition whose ticks are one-shot tasks of the inner scheduler; only its own cancel() ends it.
    private final class OneShotRepetition: Cancellable, Sendable {
        private struct State {
            var work: (@Sendable () -> Void)?
            var tick: (any Cancellable)?
        }
        private let inner: ThreadPoolScheduler
        private let interval: Duration
        private let state: Locked<State>

        init(_ inner: ThreadPoolScheduler, every interval: Duration, _ work: @escaping @Sendable () -> Void) {
            self.inner = inner
            self.interval = interval
            self.state = Locked(State(work: work))
        }

        func arm(at deadline: SchedulerTime) {
            // Armed under the lock, so a cancel() sees the tick that is live, not one that already ran.
            state.withLock { state in
                guard state.work != nil else { return }
                state.tick = inner.schedule(at: deadline) { [self] in
                    guard let work = self.state.withLock({ $0.work }) else { return }
                    work()
                    arm(at: deadline + interval)
                }
            }
        }

        func cancel() -> Bool {
            let (wasLive, tick) = state.withLock { state in
                defer { state = State() }
                return (state.work != nil, state.tick)
            }
            _ = tick?.cancel()
            return wasLive
        }

        var isCancelled: Bool { state.withLock { $0.work == nil } }
    }

    static func backend(_ defect: Defect, name: String) -> ConformanceBackend {
        ConformanceBackend(name: name, traits: traits) {
            let pool = ThreadPool(threadCount: 2, name: "shutdown-defect")
            return ConformanceSession(
                makeScheduler: { ShutdownDefectScheduler(pool.makeScheduler(name: "shutdown-defect"), defect: defect) },
                tearDown: { pool.shutdown() })
        }
    }
}

/// Negative control for L5: a Dispatch scheduler with an hourly housekeeping timer of its own, whose tick captures
/// the scheduler and is never cancelled, so a released scheduler is never freed (the cycle SwiftNIO's
/// testScheduleRepeatedTaskToNotRetainEventLoop guards against). Its pending work runs, as declared.
final class SelfRetainingScheduler: TimedScheduler {
    let name = "self-retaining"
    private let inner = DispatchQueueScheduler(name: "self-retaining")
    static let traits = DispatchQueueScheduler.traits.subtracting(.setsCurrent)
    var traits: SchedulerTraits { Self.traits }
    var now: SchedulerTime { inner.now }

    init() {
        // The defect: a strong capture of the scheduler in repeating work of its own queue, which nobody cancels.
        inner.schedule(at: inner.now + .seconds(3_600), every: .seconds(3_600)) { [self] in _ = name }
    }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { inner.schedule(work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        inner.schedule(at: deadline, work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }
}
