import SchedulerConformance
import SchedulerKit

#if SwiftClocks
    import SchedulerConformanceClocks
#endif

// Peers' clocks as reference lanes: a clock and nothing else (``Backend/hostsOnlyAClock``), made by the same
// catalog entry the conformance kit judges (`ClockSubject`), so the bench and the kit measure one definition.

extension Backend {
    static var clockReferences: [Backend] {
        #if SwiftClocks
            [swiftClocksTestClock]
        #else
            []
        #endif
    }

    #if SwiftClocks
        static let swiftClocksTestClock = Backend.reference(
            .swiftClocksTestClock, "swift-clocks' TestClock, driven by its advance(by:) (W21)",
            capabilities: [.virtualClock]
        ) {
            LaneGroup { _ in VirtualClockLane(ClockSubject.testClock) }
        }
    #endif
}

/// A lane that is only a virtual clock: a fresh one, from a clock subject, per lane.
final class VirtualClockLane: Lane {
    let virtualClock: ClockUnderTest?
    init(_ subject: ClockSubject) { virtualClock = subject.make() }

    var scheduler: (any Scheduler)? { nil }
    func submit(_ work: @escaping @Sendable () -> Void) { preconditionFailure("a virtual clock lane only sleeps") }
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        preconditionFailure("a virtual clock lane only sleeps")
    }
    func drain() {}
}
