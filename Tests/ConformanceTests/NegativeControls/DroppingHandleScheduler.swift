import SchedulerKit

/// Negative control for C5: a Dispatch scheduler whose repeating work stops when its handle is dropped, while
/// one-shot work goes on (ReactiveSwift#582, fixed by #584: dropping a repeating timer's disposable cancelled it).
final class DroppingHandleScheduler: TimedScheduler {
    let name = "dropping-handle"
    private let inner = DispatchQueueScheduler(name: "dropping-handle")
    var traits: SchedulerTraits { DispatchQueueScheduler.traits }
    var now: SchedulerTime { inner.now }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        inner.schedule { [self] in Schedulers.performAsCurrent(self, work) }
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        inner.schedule(at: deadline) { [self] in Schedulers.performAsCurrent(self, work) }
    }

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
