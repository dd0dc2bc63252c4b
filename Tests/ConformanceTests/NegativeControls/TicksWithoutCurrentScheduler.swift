import Dispatch
import SchedulerKit

/// Negative control for K1: plain and delayed work run with the scheduler current, repeating ticks do not (RAC's
/// repeating timers skip `performAsCurrentScheduler:`, seen in its source). Ticks see the inner queue's scheduler.
final class TicksWithoutCurrentScheduler: DispatchForwardingControl {
    let name = "ticks-without-current"
    let inner = DispatchQueueScheduler(name: "ticks-without-current")
    var traits: SchedulerTraits {
        [.serial, .asynchronous, .timed, .repeating, .fixedRate, .setsCurrent, .sharedThreads]
    }

    /// The defect: the tick runs as the inner scheduler's, not as this one's.
    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }
}
