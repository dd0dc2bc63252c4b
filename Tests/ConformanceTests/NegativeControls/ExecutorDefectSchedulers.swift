import Dispatch
import SchedulerKit

/// Negative control for E2 (and E1's forced part): a wrapper that claims `setsCurrent` but runs its tasks on a
/// Dispatch scheduler without making itself current, so the wrapped scheduler is current instead. An executor
/// over it denies its isolation inside its own jobs, the way RAC's repeating timers skip
/// performAsCurrentScheduler.
final class WrappedCurrentScheduler: Scheduler {
    let name = "wrapped-current"
    private let inner = DispatchQueueScheduler(name: "wrapped-current")
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { inner.schedule(work) }
}

/// Negative control for E3: a serial scheduler that coalesces wake-ups, taking what was submitted in the last
/// millisecond as one batch, and runs each batch newest first (on Linux an OperationQueue with one operation at
/// a time is not FIFO either: swift-corelibs-foundation#3272, ProcedureKit#671). One job at a time, each with the
/// scheduler current, and work a job submits waits for the next batch.
final class NewestFirstBatchScheduler: Scheduler {
    let name = "newest-first-batch"
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }
    private let queue = DispatchQueue(label: "newest-first-batch")
    private let batch = Locked<(tasks: [ScheduledWork], drainQueued: Bool)>(([], false))

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        let queueDrain = batch.withLock { batch -> Bool in
            batch.tasks.append(task)
            defer { batch.drainQueued = true }
            return !batch.drainQueued
        }
        if queueDrain { queue.asyncAfter(deadline: .now() + .milliseconds(1)) { [self] in drain() } }
        return task
    }

    private func drain() {
        let tasks = batch.withLock { batch in
            batch.drainQueued = false
            defer { batch.tasks = [] }
            return batch.tasks
        }
        // The defect: the batch runs newest first.
        for task in tasks.reversed() { Schedulers.performAsCurrent(self) { _ = task.run() } }
    }
}

/// Negative control for E4: a serial queue kept in an array whose run slots keep their closures until 1 024 have
/// run and the array is compacted (the same laziness as swift-nio#2373, where a cancelled task lived until the
/// loop's next tick). A job's closure holds its executor, so an executor over it outlives its last actor.
final class LazyCompactingScheduler: Scheduler {
    let name = "lazy-compacting"
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }
    private let queue = DispatchQueue(label: "lazy-compacting")
    private let slots = Locked<(closures: [@Sendable () -> Void], head: Int)>(([], 0))

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        slots.withLock { $0.closures.append(work) }
        queue.async { [self] in
            Schedulers.performAsCurrent(self) { _ = task.run() }
            slots.withLock { slots in
                // The defect: the slot is passed over, not cleared, until 1 024 have run.
                slots.head += 1
                if slots.head >= 1_024 {
                    slots.closures.removeFirst(slots.head)
                    slots.head = 0
                }
            }
        }
        return task
    }
}
