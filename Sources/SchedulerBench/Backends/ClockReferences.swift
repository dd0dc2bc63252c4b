import SchedulerConformance

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
            LaneGroup { _ in ClockOnlyLane(virtualClock: ClockSubject.testClock.make()) }
        }
    #endif
}
