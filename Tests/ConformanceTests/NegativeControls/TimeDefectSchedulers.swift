import SchedulerKit
import Synchronization

/// Negative control for T5: delayed and plain work wait in one list kept in submission order, and nothing runs
/// before what was queued ahead of it has come due. Timers due in an hour then hold back every plain task queued
/// after them (the stuck immediate tasks SwiftNIO's testImmediateTasksDontGetStuck guards against). Work is never
/// early and keeps its order, so only T5 sees the defect.
final class HeadOfLineTimerScheduler: TimedScheduler {
    let name = "head-of-line-timers"
    private let inner = DispatchQueueScheduler(name: "head-of-line-timers")
    /// The latest deadline queued so far: nothing queued after it runs before it.
    private let horizon = Locked(SchedulerTime.zero)
    static let traits = DispatchQueueScheduler.traits.subtracting(.setsCurrent)
    var traits: SchedulerTraits { Self.traits }
    var now: SchedulerTime { inner.now }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let ahead = horizon.withLock { $0 }
        return ahead > now ? inner.schedule(at: ahead, work) : inner.schedule(work)
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let ahead = horizon.withLock { latest in
            defer { latest = max(latest, deadline) }
            return latest
        }
        return inner.schedule(at: max(deadline, ahead), work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }
}

/// Negative control for T6: repeating work that re-arms one interval after each tick ends, as OpenCombine's
/// OperationQueue scheduler does, so every tick's duration adds to the next start and the ticks drift off the
/// grid (ReactiveCocoa#2552's drift). Ticks never overlap, never start early and stop when cancelled.
final class FixedDelayScheduler: DispatchForwardingControl {
    let name = "fixed-delay"
    let inner = DispatchQueueScheduler(name: "fixed-delay")
    var traits: SchedulerTraits { DispatchQueueScheduler.traits }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        // The defect: the next tick is due one interval after this one ended, not after it was due.
        let ticks = OneShotTimerChain(stopsWhenCancelled: true)
        ticks.arm(on: self, at: start, next: { _, now in now + interval }, work)
        return ticks
    }
}

/// Negative control for T7: an immediate scheduler that also offers delayed and repeating work, so that operators
/// needing time (debounce, delay) accept it, but runs delayed work at once and repeating work once, and does not
/// claim the timed trait (pointfreeco/combine-schedulers#11; OpenCombine's ImmediateScheduler runs repeating work
/// once).
final class PretendingImmediateScheduler: TimedScheduler {
    let name = "pretending-immediate"
    var traits: SchedulerTraits { ImmediateScheduler.traits }
    var now: SchedulerTime { .monotonicNow() }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { Schedulers.immediate.schedule(work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        Schedulers.immediate.schedule(work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        Schedulers.immediate.schedule(work)
    }
}

/// Negative control for T8 (and T1): a Dispatch scheduler that claims the timed trait but runs delayed work as plain
/// work, at once, whatever its deadline (Combine's `ImmediateScheduler` runs `schedule(after:)` so). Through
/// `.combine`, work Combine schedules 20 ms ahead starts at once, every time.
final class DeadlineIgnoringScheduler: TimedScheduler {
    let name = "deadline-ignoring"
    private let inner = DispatchQueueScheduler(name: "deadline-ignoring")
    var traits: SchedulerTraits { DispatchQueueScheduler.traits }
    var now: SchedulerTime { inner.now }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { inner.schedule(work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        inner.schedule(work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }
}
