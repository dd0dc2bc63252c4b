import SchedulerKit

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
        // The defect: the chain is re-armed after each action, whether or not the action cancelled the ticks.
        let ticks = OneShotTimerChain(stopsWhenCancelled: false)
        ticks.arm(
            on: self, at: start,
            next: { due, now in
                var next = due + interval
                while next <= now { next = next + interval }
                return next
            }, work)
        return ticks
    }
}
