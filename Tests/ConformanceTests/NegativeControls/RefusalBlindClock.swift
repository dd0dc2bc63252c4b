import SchedulerKit

/// Negative control for CL9: a clock over a timed scheduler whose sleep waits for the scheduler's wake-up whatever
/// happens to it, so a sleep on a scheduler that shut down (and refused or cancelled the wake-up) never ends. The
/// shape of `SchedulerClock` before it watched its wake-up's release.
struct RefusalBlindClock: Clock {
    let scheduler: any TimedScheduler

    var now: SchedulerClock.Instant { SchedulerClock.Instant(scheduler.now) }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: SchedulerClock.Instant, tolerance: Duration? = nil) async throws {
        if deadline <= now { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduler.schedule(at: deadline.time) { continuation.resume() }
        }
    }
}
