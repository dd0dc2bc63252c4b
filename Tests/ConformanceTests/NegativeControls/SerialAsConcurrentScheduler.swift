import Dispatch
import SchedulerKit

/// Negative control for P1: declares width 2 but runs its tasks one at a time on a serial queue.
final class SerialAsConcurrentScheduler: ConcurrentScheduler {
    let name = "serial-as-concurrent"
    let width = 2
    private let queue = DispatchQueue(label: "serial-as-concurrent")
    var traits: SchedulerTraits { [.concurrent, .asynchronous, .setsCurrent, .sharedThreads] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        queue.async { [self] in _ = Schedulers.performAsCurrent(self) { task.run() } }
        return task
    }
}
