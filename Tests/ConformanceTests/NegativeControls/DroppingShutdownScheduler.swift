import Dispatch
import SchedulerKit
import Synchronization

/// Negative control for L: shutdown silently drops queued work (its handles are neither run nor cancelled), and
/// work scheduled afterwards gets a live-looking handle that never runs.
final class DroppingShutdownScheduler: ShutdownScheduler {
    let name = "dropping-shutdown"
    private let queue = DispatchQueue(label: "dropping-shutdown")
    private let stopped = Atomic<Bool>(false)
    var traits: SchedulerTraits { [.serial, .asynchronous, .shutdown, .setsCurrent, .sharedThreads] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        guard !isShutDown else { return task }
        queue.async { [self] in
            guard !isShutDown else { return }
            _ = Schedulers.performAsCurrent(self) { task.run() }
        }
        return task
    }

    func shutdown() { stopped.store(true, ordering: .releasing) }
    var isShutDown: Bool { stopped.load(ordering: .acquiring) }
}
