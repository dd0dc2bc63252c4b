import Foundation
import SchedulerConformance
import SchedulerKit

/// Negative control for the kit's deadlines: a virtual clock whose `advance(to:)` returns while still holding its
/// lock (a shipping test scheduler's defect: an early return that skipped the unlock). After the first advance, every
/// call from any thread blocks forever, so a check that drives it never finishes: the kit must fail each such rule as
/// not finished instead of hanging.
final class LockKeepingVirtualClock: VirtualTimeDriver {
    let name = "lock-keeping"
    private let inner = TestScheduler(name: "lock-keeping")
    /// The lock the defect keeps.
    private let lock = NSLock()

    var traits: SchedulerTraits { inner.traits }
    var now: SchedulerTime { locked { inner.now } }

    private func locked<R>(_ body: () -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { locked { inner.schedule(work) } }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        locked { inner.schedule(at: deadline, work) }
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration,
        _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        locked { inner.schedule(at: start, every: interval, leeway: leeway, work) }
    }

    func advance(by duration: Duration) { advance(to: now + duration) }

    /// The defect: the lock is taken and never given back.
    func advance(to target: SchedulerTime) {
        lock.lock()
        inner.advance(to: target)
    }

    func step() -> Bool { locked { inner.step() } }
    func run(maxSteps: Int) -> VirtualTimeRunOutcome { locked { inner.run(maxSteps: maxSteps) } }
}
