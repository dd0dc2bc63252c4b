import Foundation
import SchedulerKit

/// Negative control for P6: a concurrent scheduler of width 2 whose queue is a stack, so work queued behind a busy
/// width starts newest first (a pool that puts new work at the front of its queue, the mutation pass's mutant 57).
final class StackStartingScheduler: ConcurrentScheduler {
    let name = "stack-starting"
    let width = 2
    var traits: SchedulerTraits { [.concurrent, .asynchronous, .setsCurrent] }
    private let workers = StackWorkers()

    init() {
        for index in 0..<width {
            // Weak: the threads end when the scheduler goes (deinit stops them).
            let thread = Thread { [workers, weak self] in workers.run(as: { self }) }
            thread.name = "stack-starting-\(index)"
            thread.start()
        }
    }

    deinit { workers.stop() }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        workers.push(task)
        return task
    }
}

/// The stack and the two threads that take from its top.
// @unchecked Sendable: `stack` and `stopped` are read and written only with `condition` locked.
private final class StackWorkers: @unchecked Sendable {
    private let condition = NSCondition()
    private var stack: [ScheduledWork] = []
    private var stopped = false

    func push(_ task: ScheduledWork) {
        condition.lock()
        stack.append(task)
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Takes the newest task until stopped, running each with the scheduler `current()` gives as current.
    func run(as current: () -> (any Scheduler)?) {
        while true {
            condition.lock()
            while stack.isEmpty && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            let task = stack.removeLast()
            condition.unlock()
            if let scheduler = current() {
                _ = Schedulers.performAsCurrent(scheduler) { task.run() }
            } else {
                task.run()
            }
        }
    }
}
