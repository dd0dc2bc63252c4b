/// A scheduler that can be shut down: what it has not started is cancelled, and later work is refused.
public protocol ShutdownScheduler: Scheduler {
    /// Idempotent; safe to call from one of the scheduler's own tasks.
    func shutdown()
    var isShutDown: Bool { get }
}

/// A serial scheduler multiplexed with others over the workers of a ``ThreadPool``.
///
/// Tasks never overlap and run in submission order; delayed and repeating work share the pool's timer heap.
/// Scheduling allocates one node, which is also the handle. Pending work keeps the scheduler (and its pool)
/// alive and runs; ``shutdown()`` shuts the *whole pool* down, cancelling what has not started.
public final class ThreadPoolScheduler: TimedScheduler, ShutdownScheduler {
    public let name: String
    public let pool: ThreadPool
    /// Its tasks, consumed by whichever worker owns the queue (see ``TaskQueue``).
    let queue = TaskQueue()

    init(pool: ThreadPool, name: String) {
        self.pool = pool
        self.name = name
    }

    /// The promises every scheduler of this type keeps (see ``SchedulerTraits``).
    public static let traits: SchedulerTraits = [
        .serial, .asynchronous, .timed, .repeating, .fixedRate, .shutdown, .setsCurrent, .sharedThreads,
    ]

    public var traits: SchedulerTraits { Self.traits }

    public var now: SchedulerTime { .monotonicNow() }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        return pool.enqueue(task, on: self) ? task : SettledWork.refused
    }

    @discardableResult
    public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        pool.core.schedule(at: deadline, on: .serial(self), work)
    }

    @discardableResult
    public func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        pool.core.schedule(at: start, every: interval, leeway: leeway, on: .serial(self), work)
    }

    /// Shuts down the pool this scheduler runs on, and so every scheduler on it.
    public func shutdown() { pool.shutdown() }

    public var isShutDown: Bool { pool.isShutDown }
}

@_spi(Bench) extension ThreadPoolScheduler: NodeScheduler {
    public func enqueue(node: ScheduledWork) { _ = pool.enqueue(node, on: self) }
}
