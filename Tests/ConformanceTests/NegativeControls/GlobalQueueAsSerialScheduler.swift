import Dispatch
import SchedulerKit

/// Negative control for S1: claims to be serial but sends every task to the global concurrent queue (a trial
/// scheduler of this kind passed the old, unforced S1 in 2 of 5 runs).
final class GlobalQueueAsSerialScheduler: Scheduler {
    let name = "global-queue-as-serial"
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        DispatchQueue.global().async { [self] in _ = Schedulers.performAsCurrent(self) { task.run() } }
        return task
    }
}
