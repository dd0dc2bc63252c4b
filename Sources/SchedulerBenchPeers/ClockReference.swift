#if SwiftClocks
    import SchedulerBench
    import SchedulerConformance
    import SchedulerConformanceClocks

    // swift-clocks' TestClock as a reference lane: a clock and nothing else (W21), made by the same catalog entry the
    // conformance kit judges (`ClockSubject.testClock`), so that the bench and the kit measure one definition.

    extension PeerReferences {
        static let swiftClocksTestClock = Backend.reference(
            .swiftClocksTestClock, "swift-clocks' TestClock, driven by its advance(by:) (W21)",
            capabilities: [.virtualClock]
        ) {
            LaneGroup.virtualClock { ClockSubject.testClock.make() }
        }
    }
#endif
