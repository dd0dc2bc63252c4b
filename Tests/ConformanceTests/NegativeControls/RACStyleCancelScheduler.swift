import Dispatch
import SchedulerKit
import Synchronization

/// Negative control for C: cancellation the way RAC's GCD schedulers do it. A flag is checked when the queue
/// reaches the block, the closure stays queued until then, and `cancel()` always says yes.
final class RACStyleCancelScheduler: Scheduler {
    let name = "rac-style-cancel"
    let queue = DispatchQueue(label: "rac-style-cancel")
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }

    final class Disposable: Cancellable {
        let disposed = Atomic<Bool>(false)
        func cancel() -> Bool {
            disposed.store(true, ordering: .releasing)
            return true
        }
        var isCancelled: Bool { disposed.load(ordering: .acquiring) }
    }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let disposable = Disposable()
        queue.async { [self] in
            guard !disposable.isCancelled else { return }
            Schedulers.performAsCurrent(self) { work() }
        }
        return disposable
    }
}
