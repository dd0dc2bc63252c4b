import Dispatch
import SchedulerKit

/// Negative control for K: every instance shares one serial queue, and a drain runs whatever is queued, of any
/// instance, inside the scope of the first task's scheduler. So a task can see another scheduler as current.
final class LeakyCurrentScheduler: Scheduler {
    let name = "leaky-current"
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }

    private struct Pending {
        var tasks: [(LeakyCurrentScheduler, ScheduledWork)] = []
        var head = 0
        var drainQueued = false

        mutating func pop() -> (LeakyCurrentScheduler, ScheduledWork)? {
            guard head < tasks.count else {
                tasks.removeAll(keepingCapacity: true)
                head = 0
                drainQueued = false
                return nil
            }
            let next = tasks[head]
            head += 1
            // Drop the run prefix now and then, so a drain that never empties does not keep every finished task.
            if head >= 1_024 && head * 2 >= tasks.count {
                tasks.removeFirst(head)
                head = 0
            }
            return next
        }
    }
    private static let queue = DispatchQueue(label: "leaky-current")
    private static let pending = Locked(Pending())

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        let queueDrain = Self.pending.withLock { pending in
            pending.tasks.append((self, task))
            defer { pending.drainQueued = true }
            return !pending.drainQueued
        }
        if queueDrain { Self.queue.async { Self.drain() } }
        return task
    }

    private static func drain() {
        let first = pending.withLock { pending -> LeakyCurrentScheduler? in
            if pending.head < pending.tasks.count { return pending.tasks[pending.head].0 }
            pending.drainQueued = false
            return nil
        }
        guard let first else { return }
        Schedulers.performAsCurrent(first) {
            while let (_, task) = pending.withLock({ $0.pop() }) { task.run() }
        }
    }
}
