import Dispatch
import SchedulerKit
import Synchronization

/// A handle that only remembers it was cancelled.
final class FlagHandle: Cancellable {
    private let cancelled = Atomic<Bool>(false)
    func cancel() -> Bool { !cancelled.exchange(true, ordering: .acquiringAndReleasing) }
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}

/// Negative control for N1: a timed scheduler whose timers are Dispatch timer sources with handlers that hold the
/// scheduler, and whose cancel only raises a flag: the source is never cancelled, so a cancelled timer keeps its
/// scheduler (and the closure) alive until it fires, and a cancelled repeating one keeps it forever.
final class SourceKeepingScheduler: TimedScheduler {
    let name = "source-keeping"
    private let queue = DispatchQueue(label: "source-keeping")
    var traits: SchedulerTraits { [.serial, .asynchronous, .timed, .repeating, .sharedThreads] }
    var now: SchedulerTime { .monotonicNow() }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        queue.async { _ = task.run() }
        return task
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        arm(at: deadline, every: nil, work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        arm(at: start, every: interval, work)
    }

    private func arm(
        at deadline: SchedulerTime, every interval: Duration?, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let handle = FlagHandle()
        let source = DispatchSource.makeTimerSource(queue: queue)
        let delay = DispatchTimeInterval.nanoseconds(Int(max(0, now.duration(to: deadline).nanosecondsChecked())))
        if let interval {
            source.schedule(deadline: .now() + delay, repeating: .nanoseconds(Int(interval.nanosecondsChecked())))
        } else {
            source.schedule(deadline: .now() + delay)
        }
        // The defect: the handler holds the scheduler, the work and the source itself, and a cancel does not cancel
        // the source: only a one-shot that fires lets go of it all.
        source.setEventHandler { [self] in
            guard !handle.isCancelled else { return }
            _ = self.name
            work()
            if interval == nil { source.cancel() }
        }
        source.resume()
        return handle
    }
}

/// Negative control for N2: a serial scheduler whose repeating ticks read the cancel flag when a tick is queued,
/// not when it runs: a tick that came due while a task held the scheduler runs after cancel() returned true.
final class QueuedTickScheduler: TimedScheduler {
    let name = "queued-tick"
    private let queue = DispatchQueue(label: "queued-tick")
    var traits: SchedulerTraits { [.serial, .asynchronous, .timed, .repeating, .sharedThreads] }
    var now: SchedulerTime { .monotonicNow() }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        queue.async { _ = task.run() }
        return task
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        let delay = DispatchTimeInterval.nanoseconds(Int(max(0, now.duration(to: deadline).nanosecondsChecked())))
        queue.asyncAfter(deadline: .now() + delay) { _ = task.run() }
        return task
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let handle = FlagHandle()
        let source = DispatchSource.makeTimerSource(queue: .global())
        let delay = DispatchTimeInterval.nanoseconds(Int(max(0, now.duration(to: start).nanosecondsChecked())))
        source.schedule(deadline: .now() + delay, repeating: .nanoseconds(Int(interval.nanosecondsChecked())))
        source.setEventHandler { [queue] in
            if handle.isCancelled {
                source.cancel()
                return
            }
            queue.async(execute: work)  // the defect: the flag was read here, not when the tick runs
        }
        source.resume()
        return handle
    }
}

/// Negative control for N3: a virtual-time scheduler whose `run()` moves the clock to the latest deadline it was
/// ever given, cancelled or not (a queue that skips a cancelled entry only after moving the clock to it).
final class DeadDeadlineVirtualScheduler: VirtualTimeDriver {
    let name = "dead-deadline"
    private let inner = TestScheduler(name: "dead-deadline")
    private let latest = Locked<SchedulerTime?>(nil)

    var traits: SchedulerTraits { inner.traits }
    var now: SchedulerTime { inner.now }

    private func remember(_ deadline: SchedulerTime) { latest.withLock { $0 = max($0 ?? deadline, deadline) } }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { inner.schedule(work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        remember(deadline)
        return inner.schedule(at: deadline, work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }

    func advance(by duration: Duration) { inner.advance(by: duration) }
    func advance(to target: SchedulerTime) { inner.advance(to: target) }
    func step() -> Bool { inner.step() }

    func run(maxSteps: Int) -> VirtualTimeRunOutcome {
        let outcome = inner.run(maxSteps: maxSteps)
        if let last = latest.withLock({ $0 }), last > inner.now { inner.advance(to: last) }
        return outcome
    }
}
