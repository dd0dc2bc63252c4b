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
/// alive and runs; ``ThreadPool/shutdown()`` shuts the *whole pool* down, cancelling what has not started.
public final class ThreadPoolScheduler: PooledScheduler, TimedScheduler, ShutdownScheduler {
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

    var lane: PoolLane { .serial(self) }

    func enqueue(_ task: ScheduledWork) -> Bool { pool.enqueue(task, on: self) }
}

@_spi(Bench) extension ThreadPoolScheduler: NodeScheduler {
    public func enqueue(node: ScheduledWork) { _ = pool.enqueue(node, on: self) }
}
