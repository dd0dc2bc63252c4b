import SchedulerBench
import SchedulerConformance

#if Combine
    import SchedulerConformanceCombine
#endif

// Which backends the parent counts under valgrind, and with how many tasks: the project's own choices about its
// catalog, so they live on the tool's side; the child's side (`InstructionProbe.run`) is the runtime's.
extension InstructionProbe {
    /// Backends that are not counted: one spins without end by design (valgrind would count its spinning as its
    /// run path), one hosts only actors, and Combine's schedulers are a peer's code, not SchedulerKit's (the gate is
    /// for SchedulerKit's own paths; their W9 allocations are still measured).
    static let uncountable: [BackendID: String] = {
        var reasons: [BackendID: String] = [
            .spinHandOff: "its consumer thread never sleeps, so the instructions it spins would count as its run path",
            .defaultExecutor: "it hosts actors and tasks only; it has no schedule path of its own",
        ]
        #if Combine
            for entry in ConformanceBackend.combine { reasons[entry.id] = combinePeer }
        #endif
        return reasons
    }()
    static let combinePeer =
        "Combine's scheduler is a peer's code: the instruction gate is for SchedulerKit's own paths"

    /// Tasks in the smaller counted round: enough that what a round does once (a wake-up, a spin before sleep, a
    /// thread Dispatch parks) is a fraction of a percent of what its tasks cost.
    static let defaultTasks = 20_000
    /// OperationQueue costs some 15 000 instructions a task: 20 000 of them would take a minute under valgrind.
    static let fewerTasks: [BackendID: Int] = [.operationQueue: 2_000, .rawOperationQueue: 2_000]

    package static func tasks(_ backend: BackendID) -> Int { fewerTasks[backend] ?? defaultTasks }

    /// A concurrent backend is not counted either: its tasks race each other for several workers, so how many
    /// instructions a task costs depends on how the threads met (callgrind's counts of such a backend never agreed
    /// twice in 4 runs).
    package static func countable(_ backend: Backend) -> Bool {
        uncountable[backend.id] == nil && !backend.has(.concurrent) && Workload.withID(.throughput)!.supports(backend)
    }
}
