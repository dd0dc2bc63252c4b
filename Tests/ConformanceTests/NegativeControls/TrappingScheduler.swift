import SchedulerConformance
import SchedulerKit

/// A third-party scheduler that traps: a serial Dispatch scheduler whose repeating work is a failed precondition.
/// Used to show that a crash in one rule fails that rule and the other rules still run.
final class TrappingScheduler: DispatchForwardingControl {
    let name = "trapping"
    let inner = DispatchQueueScheduler(name: "trapping")
    var traits: SchedulerTraits { DispatchQueueScheduler.traits }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        preconditionFailure("TrappingScheduler: repeating work is not implemented")
    }

    static let backend = ConformanceBackend(name: "Control: traps on repeating work") { TrappingScheduler() }
}
