import Dispatch
import SchedulerKit
import Synchronization

/// Negative control for L6: `shutdown()` refuses new work but lets everything already queued run, as ThreadPool
/// did with the batch a worker had taken.
final class LateShutdownScheduler: ShutdownScheduler {
    let name = "late-shutdown"
    private let queue = DispatchQueue(label: "late-shutdown")
    private let stopped = Atomic<Bool>(false)
    var traits: SchedulerTraits { [.serial, .asynchronous, .shutdown, .setsCurrent, .sharedThreads] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        guard !isShutDown else { return SettledWork.refused }
        let task = ScheduledWork(work)
        queue.async { [self] in _ = Schedulers.performAsCurrent(self) { task.run() } }
        return task
    }

    func shutdown() { stopped.store(true, ordering: .releasing) }
    var isShutDown: Bool { stopped.load(ordering: .acquiring) }
}
