@_spi(Bench) @_spi(Threads) import SchedulerKit

/// The `virtual-time-floor` reference: what a virtual-time scheduler with a handle per task must at least do. Each
/// task is the pool's node (the handle), pushed on the pool's lock-free queue (any thread may schedule), and run in
/// order by the caller's `drain()`; no clock, no deadline order, no current scheduler, no lock. `TestScheduler`'s W1
/// figure over this one is what its clock, (deadline, sequence) order and current scheduler cost; a rate goal this
/// floor misses too asks for another design (no node per task), not more tuning.
final class VirtualTimeFloorLane: Lane {
    private let queue = TaskQueue()

    var scheduler: (any Scheduler)? { nil }

    func submit(_ work: @escaping @Sendable () -> Void) { _ = queue.push(ScheduledWork(work)) }

    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        preconditionFailure("the virtual-time floor has no deadlines")
    }

    /// One consumer at a time, as the queue requires: workloads drain from the thread that drives the round.
    func drain() {
        while let task = queue.pop() { task.run() }
    }
}
