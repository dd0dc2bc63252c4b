import Dispatch
import SchedulerKit

/// Not a defect: a scheduler whose plain work cannot be cancelled (its handle says false, as NIO's `execute` gives
/// nothing to cancel) and starts 1 ms after it is scheduled, so it may still be running after a program has settled.
/// M1 must not judge what such a task schedules once it was no longer waited for.
final class LatePlainWorkScheduler: TimedScheduler {
    let name = "late-plain-work"
    private let inner = DispatchQueueScheduler(name: "late-plain-work")
    var traits: SchedulerTraits { [.serial, .asynchronous, .timed, .sharedThreads] }
    var now: SchedulerTime { inner.now }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        inner.schedule(at: now + .milliseconds(1), work)
        return SettledWork.uncancellable
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        inner.schedule(at: deadline, work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration,
        _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }
}
