import Dispatch

/// What ``DispatchQueueScheduler`` and ``ConcurrentDispatchQueueScheduler`` share, written once: delayed work in the
/// scheduler's own (deadline, FIFO) heap behind one Dispatch timer, and fixed-rate repeating work on a Dispatch timer
/// source of its queue. They differ only in how plain work reaches the queue.
protocol DispatchBackedScheduler: TimedScheduler {
    var queue: DispatchQueue { get }
    var timers: DispatchTimerHeap! { get }
}

extension DispatchBackedScheduler {
    public var now: SchedulerTime { .monotonicNow() }

    @discardableResult
    public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        timers.schedule(task, at: deadline, owner: self)
        return task
    }

    @discardableResult
    public func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        dispatchRepeating(on: queue, scheduler: self, at: start, every: interval, leeway: leeway, work)
    }
}
