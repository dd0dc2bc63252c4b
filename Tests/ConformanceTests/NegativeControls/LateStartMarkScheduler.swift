import Dispatch
import SchedulerKit
import Synchronization

/// Negative control for C3: delayed work whose handle is marked started only after the work returned, so a cancel
/// while it runs says true (the shape of a NIO scheduled task marked started after it ran). Plain work is the inner
/// scheduler's; tasks run on the inner scheduler, so it does not claim `setsCurrent`.
final class LateStartMarkScheduler: TimedScheduler {
    let name = "late-start-mark"
    private let inner = DispatchQueueScheduler(name: "late-start-mark")
    var traits: SchedulerTraits { [.serial, .asynchronous, .timed, .sharedThreads] }
    var now: SchedulerTime { inner.now }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { inner.schedule(work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let handle = LateMarkHandle(work)
        inner.schedule(at: deadline) { handle.run() }
        return handle
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration,
        _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }
}

private final class LateMarkHandle: Cancellable {
    private let started = Atomic<Bool>(false)
    private let cancelled = Atomic<Bool>(false)
    /// Let go of at a cancel, as every handle must (C4): only the start mark is late.
    private let work: Locked<(@Sendable () -> Void)?>

    init(_ work: @escaping @Sendable () -> Void) { self.work = Locked(work) }

    func run() {
        guard !isCancelled, let work = work.withLock({ $0 }) else { return }
        work()
        started.store(true, ordering: .releasing)
        self.work.withLock { $0 = nil }
    }

    func cancel() -> Bool {
        guard !started.load(ordering: .acquiring), !cancelled.exchange(true, ordering: .acquiringAndReleasing) else {
            return false
        }
        work.withLock { $0 = nil }
        return true
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}
