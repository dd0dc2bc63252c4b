import SchedulerConformance

#if NIO
    import SchedulerConformanceNIO
#endif
#if Combine
    import SchedulerConformanceCombine
#endif
#if SwiftClocks
    import SchedulerConformanceClocks
#endif

/// The catalog as the bench and `bench conformance` see it: every subject the project judges, one entry each
/// (`ConformanceBackend`), SchedulerKit's first, then the peers whose package traits are enabled (`NIO`, `Combine`).
/// The bench's lanes, its reports and `Docs/Catalog.md` are derived from these entries; references and floors, which
/// are no subjects, are the bench's own entries (`Backend.references`).
public enum Catalog {
    public static let subjects: [ConformanceBackend] = ConformanceBackend.builtIn + peers

    static var peers: [ConformanceBackend] {
        var peers: [ConformanceBackend] = []
        #if NIO
            peers += ConformanceBackend.nio
        #endif
        #if Combine
            peers += ConformanceBackend.combine
        #endif
        return peers
    }

    /// Every subject the project judges, of every kind: the schedulers, then the clocks, then the executors.
    public static var everySubject: [any ConformanceSubject] {
        subjects + clocks + executors + globalExecutors + ExplorerSubject.builtIn
    }

    /// Every clock the project judges (the CL rules): the standard library's, SchedulerKit's, then swift-clocks'.
    public static var clocks: [ClockSubject] {
        var clocks = ClockSubject.builtIn
        #if SwiftClocks
            clocks += ClockSubject.swiftClocks
        #endif
        return clocks
    }

    /// Every global executor the project judges (the GE rules, each in a process of its own): Swift's, the pool's,
    /// then the peers'.
    public static var globalExecutors: [GlobalExecutorSubject] {
        var globalExecutors = GlobalExecutorSubject.builtIn
        #if NIO
            globalExecutors += GlobalExecutorSubject.nio
        #endif
        return globalExecutors
    }

    /// Every executor the project judges (the X rules): SchedulerKit's, the runtime's, then the peers'.
    public static var executors: [ExecutorSubject] {
        var executors = ExecutorSubject.builtIn
        #if NIO
            executors += ExecutorSubject.nio
        #endif
        return executors
    }
}
