import SchedulerKit
import Synchronization

/// Negative control for C6: repeating work as a chain of one-shot timers that re-arms after each action, and a
/// cancel that reaches only the pending timer, as OpenCombine's OperationQueue scheduler does (its
/// testScheduleRepeatingWithRealQueue). Cancelled from inside a tick, it cancels the tick that is running, and the
/// re-arm after the action starts the next one anyway. Ticks go by the grid, so only C6 sees the defect.
final class RearmingTicksScheduler: DispatchForwardingControl {
    let name = "rearming-ticks"
    let inner = DispatchQueueScheduler(name: "rearming-ticks")
    var traits: SchedulerTraits { DispatchQueueScheduler.traits }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let ticks = Ticks()
        arm(ticks, at: start, every: interval, work)
        return ticks
    }

    private func arm(
        _ ticks: Ticks, at due: SchedulerTime, every interval: Duration, _ work: @escaping @Sendable () -> Void
    ) {
        ticks.pending.withLock {
            // Weak: a chain that a cancel failed to stop ends with the scheduler.
            $0 = inner.schedule(at: due) { [weak self] in
                guard let self else { return }
                Schedulers.performAsCurrent(self, work)
                // The defect: re-armed after the action, whether or not the action cancelled the ticks.
                var next = due + interval
                while next <= now { next = next + interval }
                arm(ticks, at: next, every: interval, work)
            }
        }
    }

    private final class Ticks: Cancellable {
        let pending = Locked<(any Cancellable)?>(nil)
        private let cancelled = Atomic<Bool>(false)

        /// Says yes once, and cancels the one-shot timer pending now: from inside a tick that is the running one.
        func cancel() -> Bool {
            guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return false }
            _ = pending.withLock { $0 }?.cancel()
            return true
        }
        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    }
}
