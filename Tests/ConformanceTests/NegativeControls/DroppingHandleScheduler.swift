import SchedulerKit

/// Negative control for C5: a Dispatch scheduler whose repeating work stops when its handle is dropped, while
/// one-shot work goes on (ReactiveSwift#582, fixed by #584: dropping a repeating timer's disposable cancelled it).
final class DroppingHandleScheduler: DispatchForwardingControl {
    let name = "dropping-handle"
    let inner = DispatchQueueScheduler(name: "dropping-handle")
    var traits: SchedulerTraits { DispatchQueueScheduler.traits }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        // Weak: ticks must not keep the scheduler alive.
        CancelsOnDrop(
            inner.schedule(at: start, every: interval, leeway: leeway) { [weak self] in
                guard let self else { return }
                Schedulers.performAsCurrent(self, work)
            })
    }

    /// The defect: the handle cancels the work when the last reference to it goes away.
    private final class CancelsOnDrop: Cancellable {
        let inner: any Cancellable
        init(_ inner: any Cancellable) { self.inner = inner }
        deinit { inner.cancel() }
        func cancel() -> Bool { inner.cancel() }
        var isCancelled: Bool { inner.isCancelled }
    }
}
