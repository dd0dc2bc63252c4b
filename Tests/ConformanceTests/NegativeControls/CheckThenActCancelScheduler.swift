import Dispatch
import SchedulerKit
import Synchronization

@testable import SchedulerConformance

/// Negative control for C2's race: a serial Dispatch scheduler whose cancel checks "started?" and then sets
/// "cancelled", while its task checks "cancelled?" and then sets "started": each step is atomic, the pair is not.
/// A cancel that lands between the task's check and its store says true, and the task runs anyway. A task reaches
/// its queue through a second one first (as work for RxSwift's `MainScheduler` goes through the main queue), and
/// checks where it arrives: a cancel with a head start of nanoseconds lands before the check, and only a cancel
/// swept across the hop finds the window (10 µs, below).
final class CheckThenActCancelScheduler: Scheduler {
    let name = "check-then-act-cancel"
    private let queue = DispatchQueue(label: "check-then-act-cancel")
    private let hop = DispatchQueue(label: "check-then-act-cancel-hop")
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent, .sharedThreads] }

    final class Handle: Cancellable {
        let started = Atomic<Bool>(false)
        let cancelled = Atomic<Bool>(false)

        func cancel() -> Bool {
            guard !started.load(ordering: .acquiring), !cancelled.load(ordering: .acquiring) else { return false }
            cancelled.store(true, ordering: .releasing)
            return true
        }

        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let handle = Handle()
        hop.async { [self] in
            queue.async { [self] in
                // The check, then 10 µs of bookkeeping, then the act: the window a cancel lands in. With the check
                // and the act a few instructions apart, C2 missed the window in 2 of 10 runs here. The check is
                // where the task arrives (checked on the first hop, a cancel made from inside an earlier task, as
                // C1's, came too late).
                guard !handle.cancelled.load(ordering: .acquiring) else { return }
                RaceWindow.spin(.microseconds(10))
                handle.started.store(true, ordering: .releasing)
                Schedulers.performAsCurrent(self) { work() }
            }
        }
        return handle
    }
}
