import Foundation
import SchedulerKit

/// Negative control for T2: a scheduler on the wall clock, as RAC's and ReactiveSwift's `QueueScheduler` are (`now`
/// is `Date()`, delays are wall deadlines). Its `now` reads seconds since 1970; its deadlines follow that clock too,
/// converted to the monotonic clock with the offset between the two taken once, so that without a clock change it
/// keeps every other T rule (and a change of the wall clock would move its deadlines, the bug).
final class WallClockScheduler: TimedScheduler {
    let name = "wall-clock"
    private let inner = DispatchQueueScheduler(name: "wall-clock")
    /// Wall minus monotonic, in nanoseconds, when the scheduler was made.
    private let offset: Duration

    init() { offset = Self.wallNow() - SchedulerTime.monotonicNow() }

    var traits: SchedulerTraits { [.serial, .asynchronous, .timed, .repeating, .fixedRate, .sharedThreads] }
    var now: SchedulerTime { Self.wallNow() }

    private static func wallNow() -> SchedulerTime {
        SchedulerTime(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
    }

    /// The inner (monotonic) scheduler's time for a wall deadline.
    private func monotonic(_ deadline: SchedulerTime) -> SchedulerTime { deadline - offset }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { inner.schedule(work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        inner.schedule(at: monotonic(deadline), work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration,
        _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: monotonic(start), every: interval, leeway: leeway, work)
    }
}
