import DequeModule
import Foundation
import SchedulerKit

/// Negative control for S6: every instance shares one worker thread, which drains a scheduler's queue until it is
/// empty before it turns to the next ready one (as libdispatch drains a serial queue). Correct in every other
/// respect, but a scheduler that keeps re-enqueueing work holds the thread for good.
final class GreedySharedThreadScheduler: Scheduler {
    let name = "greedy-shared-thread"
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }
    /// Guarded by `GreedyWorker.shared.condition`.
    nonisolated(unsafe) fileprivate var queue = Deque<ScheduledWork>()

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        GreedyWorker.shared.enqueue(task, on: self)
        return task
    }
}

// @unchecked Sendable: `ready` and every scheduler's `queue` are touched only with `condition` locked.
private final class GreedyWorker: @unchecked Sendable {
    static let shared = GreedyWorker()
    let condition = NSCondition()
    private var ready = Deque<GreedySharedThreadScheduler>()

    private init() {
        Thread.detachNewThread { [self] in run() }
    }

    func enqueue(_ task: ScheduledWork, on scheduler: GreedySharedThreadScheduler) {
        condition.lock()
        if scheduler.queue.isEmpty && !ready.contains(where: { $0 === scheduler }) { ready.append(scheduler) }
        scheduler.queue.append(task)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            guard let scheduler = ready.first else {
                condition.wait()
                continue
            }
            // The defect: stay with this scheduler until its queue is empty, however long it keeps refilling it.
            while let task = scheduler.queue.popFirst() {
                condition.unlock()
                _ = Schedulers.performAsCurrent(scheduler) { task.run() }
                condition.lock()
            }
            ready.removeFirst()
        }
    }
}
