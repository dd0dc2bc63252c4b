import Foundation
import SchedulerConformance
import SchedulerKit

/// The two worst subjects a matrix can meet, for the bounds `Docs/Conformance.md` states: one whose every call
/// blocks forever (a lock taken and never given back) and one whose every call traps. Both claim a serial
/// Dispatch scheduler's promises, so every rule that applies to one of those runs on them.
final class WorstCaseScheduler: TimedScheduler {
    enum Fault: Sendable { case blocksForever, traps }

    let name: String
    let fault: Fault
    var traits: SchedulerTraits { DispatchQueueScheduler.traits }

    init(_ fault: Fault) {
        self.fault = fault
        name = "worst case: \(fault)"
    }

    /// Never signalled: a call that waits here waits as a deadlocked scheduler would.
    private static let neverSignalled = DispatchSemaphore(value: 0)

    private func fail() -> Never {
        switch fault {
        case .blocksForever:
            Self.neverSignalled.wait()
            fatalError("unreachable: nothing signals the semaphore")
        case .traps:
            preconditionFailure("WorstCaseScheduler: every call traps")
        }
    }

    var now: SchedulerTime { fail() }
    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { fail() }
    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable { fail() }
    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable { fail() }

    static func backend(_ fault: Fault) -> ConformanceBackend {
        ConformanceBackend(name: "Worst case: \(fault)", traits: DispatchQueueScheduler.traits) {
            ConformanceSession(makeScheduler: { WorstCaseScheduler(fault) })
        }
    }
}
