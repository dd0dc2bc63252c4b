import SchedulerConformance
import SchedulerKit
import Synchronization

/// Negative control for what a verdict says: a virtual-time scheduler that silently loses one task (the 151st it is
/// given, counting every kind of schedule) and hands back a handle as if it had queued it. A rule that waits for its
/// tasks must name the one that never ran, not only say that the wait ran out.
final class TaskLosingVirtualScheduler: VirtualTimeDriver {
    let name = "task-losing"
    private let inner = TestScheduler(name: "task-losing")
    private let given = Atomic(0)
    static let lost = 151

    var traits: SchedulerTraits { inner.traits }
    var now: SchedulerTime { inner.now }

    /// The defect: the lost task's closure is dropped, and a handle that was never queued is returned.
    private func keeps() -> Bool { given.add(1, ordering: .relaxed).newValue != Self.lost }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        keeps() ? inner.schedule(work) : ScheduledWork {}
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        keeps() ? inner.schedule(at: deadline, work) : ScheduledWork {}
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration,
        _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }

    func advance(by duration: Duration) { inner.advance(by: duration) }
    func advance(to target: SchedulerTime) { inner.advance(to: target) }
    func step() -> Bool { inner.step() }
    func run(maxSteps: Int) -> VirtualTimeRunOutcome { inner.run(maxSteps: maxSteps) }
}
