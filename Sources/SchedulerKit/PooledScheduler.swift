/// What ``ThreadPoolScheduler`` and ``ThreadPoolConcurrentScheduler`` share, written once: the pool's clock, plain
/// work into the pool's core, delayed and repeating work on the pool's timer heap, and shutdown of the whole pool. They
/// differ in the lane their tasks take (a serial queue, or slots up to a width) and in their traits.
protocol PooledScheduler: TimedScheduler, ShutdownScheduler {
    static var traits: SchedulerTraits { get }
    var pool: ThreadPool { get }
    /// The lane the pool's core knows this scheduler by.
    var lane: PoolLane { get }
    /// Queues a task; false once the pool is shut down.
    func enqueue(_ task: ScheduledWork) -> Bool
}

extension PooledScheduler {
    public var traits: SchedulerTraits { Self.traits }

    public var now: SchedulerTime { .monotonicNow() }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        return enqueue(task) ? task : SettledWork.refused
    }

    @discardableResult
    public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        pool.core.schedule(at: deadline, on: lane, work)
    }

    @discardableResult
    public func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        pool.core.schedule(at: start, every: interval, leeway: leeway, on: lane, work)
    }

    /// Shuts down the pool this scheduler runs on, and so every scheduler on it.
    public func shutdown() { pool.shutdown() }

    public var isShutDown: Bool { pool.isShutDown }
}
