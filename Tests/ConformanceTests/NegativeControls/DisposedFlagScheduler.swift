import Dispatch
import SchedulerKit
import Synchronization

/// Negative control for C2: the shape of RxSwift's `MainScheduler` and `OperationQueueScheduler` wrapped as a new user
/// would. The queued block checks the disposable (`if cancel.isDisposed { return }`) and then calls the action, whose
/// first line marks the task started; the handle's `cancel()` says false once started, else disposes and says whether
/// it was the first to. A cancel that lands between the block's check and the action's mark says true, and the task
/// runs: a window of a few instructions, nothing widened.
final class DisposedFlagScheduler: Scheduler {
    let name = "disposed-flag"
    private let queue = DispatchQueue(label: "disposed-flag")
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }

    final class Handle: Cancellable {
        let disposed = Atomic<Bool>(false)
        let started = Atomic<Bool>(false)

        func cancel() -> Bool {
            guard !started.load(ordering: .acquiring) else { return false }
            return !disposed.exchange(true, ordering: .acquiringAndReleasing)
        }

        var isCancelled: Bool { disposed.load(ordering: .acquiring) }
    }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let handle = Handle()
        let action: @Sendable () -> Void = { [self] in
            handle.started.store(true, ordering: .releasing)
            Schedulers.performAsCurrent(self) { work() }
        }
        queue.async {
            if handle.disposed.load(ordering: .acquiring) { return }
            action()
        }
        return handle
    }
}
