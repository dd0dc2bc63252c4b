import SchedulerBench
import SchedulerBenchPeers
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
/// are no subjects, are the runtime's own lanes (`Backend.references`) and the peers' (`PeerReferences`). The tool's
/// side: a package that benches its own scheduler links the runtime without this catalog or the peers' lanes.
package enum Catalog {
    package static let subjects: [ConformanceBackend] = ConformanceBackend.builtIn + peers

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

    /// The measured subjects as the bench's backends, each with what it is measured beside (``BenchHarness/of(_:)``).
    package static let backends: [Backend] =
        subjects.filter { BenchHarness.of($0).measured }.map { .subject($0, harness: .of($0)) }

    /// Every reference lane `bench` measures, in table order: the runtime's, then the peers'.
    package static var references: [Backend] { Backend.references + PeerReferences.all }

    /// Every backend `bench` knows, in table order: the catalog's, then the references.
    package static var allBackends: [Backend] { backends + references }

    /// The catalog's backend with `id`, or a reference's; registers the catalog first (``registerBackends()``).
    package static func backend(_ id: BackendID) -> Backend? {
        registerBackends()
        return Backend.withID(id)
    }

    /// Makes the catalog's backends and the peers' reference lanes known to the runtime's lookups by id (a run
    /// request, `Backend.withID`), in table order: `bench` does it first thing in every process it starts. Once per process; later calls
    /// do nothing.
    package static func registerBackends() { _ = registration }

    private static let registration: Void = {
        do {
            try Backend.register(backends + PeerReferences.all)
        } catch {
            // The catalog's own entries clashing with a reference, or a virtual-time entry the bench cannot drive,
            // is this repository's mistake, caught by its first test.
            preconditionFailure("the catalog's backends cannot be registered: \(error)")
        }
    }()

    /// Every subject the project judges, of every kind: the schedulers, then the clocks, then the executors.
    package static var everySubject: [any ConformanceSubject] {
        subjects + clocks + executors + globalExecutors + ExplorerSubject.builtIn
    }

    /// Every clock the project judges (the CL rules): the standard library's, SchedulerKit's, then swift-clocks'.
    package static var clocks: [ClockSubject] {
        var clocks = ClockSubject.builtIn
        #if SwiftClocks
            clocks += ClockSubject.swiftClocks
        #endif
        return clocks
    }

    /// Every global executor the project judges (the GE rules, each in a process of its own): Swift's, the pool's,
    /// then the peers'.
    package static var globalExecutors: [GlobalExecutorSubject] {
        var globalExecutors = GlobalExecutorSubject.builtIn
        #if NIO
            globalExecutors += GlobalExecutorSubject.nio
        #endif
        return globalExecutors
    }

    /// Every executor the project judges (the X rules): SchedulerKit's, the runtime's, then the peers'.
    package static var executors: [ExecutorSubject] {
        var executors = ExecutorSubject.builtIn
        #if NIO
            executors += ExecutorSubject.nio
        #endif
        return executors
    }
}
