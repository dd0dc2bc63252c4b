import Foundation
import SchedulerKit

/// Negative control for E: claims to be serial but runs every task on a thread of its own, so an executor built on
/// it runs tasks' jobs side by side (the Swift runtime still keeps one actor's own jobs apart). A new thread per task,
/// not Dispatch's global queue, so the overlap happens even when a loaded machine gives Dispatch one thread.
final class ConcurrentExecutorScheduler: Scheduler {
    let name = "concurrent-executor"
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        Thread.detachNewThread { [self] in
            _ = Schedulers.performAsCurrent(self) { task.run() }
        }
        return task
    }
}
