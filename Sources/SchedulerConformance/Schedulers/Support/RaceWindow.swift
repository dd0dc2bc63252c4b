import Foundation
import SchedulerKit

/// Where a race's window lies in time: an observed rule that races a call against a scheduler's hop (C2's cancel
/// against the task's start) must move the call across the whole hop, or a check-then-act bug shows only when the
/// hop happens to be as short as the head start. The hop is measured under the machine's present load, so on a
/// busy machine, where hops are slower, the sweep is wider and the stated odds still hold.
enum RaceWindow {
    /// The median time from `submit` returning to the task's first line, over 64 tasks run one at a time (at least
    /// 1 µs, at most 100 µs: a run loop's hop of milliseconds would make C2 a minute long; a sweep of 200 µs covers a
    /// Dispatch hop on a busy 2-core machine).
    static func hop(
        _ context: ConformanceContext, _ scheduler: any Scheduler,
        submit: (@escaping @Sendable () -> Void) -> any Cancellable
    ) throws -> Duration {
        var hops: [Duration] = []
        for probe in 0..<64 {
            let started = Shared<ContinuousClock.Instant?>(nil)
            let submitted = ContinuousClock.now
            _ = submit { started.update { $0 = ContinuousClock.now } }
            // A hop is microseconds: waited for by yielding first, as the races that follow spin. The kit's wait
            // polls every millisecond, up to 64 ms of sleeping a round (C2 over 17 subjects: 32.0 s with it, 21.4 s
            // with this); it takes over after `probeSpin` (a run loop's hop), or at once on a virtual clock, which its
            // driver moves.
            let spinUntil = ContinuousClock.now + (scheduler is any VirtualTimeDriver ? .zero : probeSpin)
            while started.value == nil && ContinuousClock.now < spinUntil { sched_yield() }
            try context.waitUntil("probe \(probe + 1) of the scheduler's hop", on: scheduler) { started.value != nil }
            if let start = started.value { hops.append(submitted.duration(to: start)) }
        }
        hops.sort()
        return min(max(hops[hops.count / 2], .microseconds(1)), .microseconds(100))
    }

    /// How long a probe yields before it waits as the kit does: above the 100 µs cap on the hop.
    static let probeSpin: Duration = .microseconds(500)

    /// Busy-waits for `duration` (a head start measured in nanoseconds; a sleep would take far longer).
    static func spin(_ duration: Duration) {
        let until = ContinuousClock.now + duration
        while ContinuousClock.now < until {}
    }
}
