import Dispatch
import SchedulerKit
import Synchronization

/// Negative control for S: work submitted from outside the scheduler goes, every other time, straight to a
/// concurrent queue instead of the serial one, so two tasks now and then run at once and overtake each other.
/// Work a task submits stays serial, so checks that gate the scheduler from inside a task still work.
final class SometimesConcurrentScheduler: Scheduler {
    let name = "sometimes-concurrent"
    private let serial = DispatchQueue(label: "sometimes-concurrent")
    private let submissions = Atomic<Int>(0)
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        let fromOutside = Schedulers.current !== self
        let bypass = fromOutside && submissions.add(1, ordering: .relaxed).newValue % 2 == 0
        (bypass ? DispatchQueue.global() : serial).async { [self] in
            _ = Schedulers.performAsCurrent(self) { task.run() }
        }
        return task
    }
}
