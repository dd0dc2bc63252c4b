import Dispatch
import SchedulerKit

/// Negative control for T: a Dispatch scheduler whose delayed work fires 5 ms before its deadline (a clock
/// mix-up or a wrongly applied leeway). Tasks run on the inner scheduler, so it does not claim `setsCurrent`.
final class EarlyTimerScheduler: TimedScheduler {
    let name = "early-timer"
    private let inner = DispatchQueueScheduler(name: "early-timer")
    var traits: SchedulerTraits { [.serial, .asynchronous, .timed, .sharedThreads] }
    var now: SchedulerTime { inner.now }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { inner.schedule(work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        inner.schedule(at: deadline - .milliseconds(5), work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration,
        _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }
}
