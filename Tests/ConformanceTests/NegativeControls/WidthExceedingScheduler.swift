import Foundation
import SchedulerKit

/// Negative control for P2: declares width 2 but starts a thread per task, so any number run at once.
final class WidthExceedingScheduler: ConcurrentScheduler {
    let name = "width-exceeding"
    let width = 2
    var traits: SchedulerTraits { [.concurrent, .asynchronous, .setsCurrent] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        Thread { [self] in _ = Schedulers.performAsCurrent(self) { task.run() } }.start()
        return task
    }
}
