import Foundation
import SchedulerConformance

#if Combine
    import SchedulerConformanceCombine
#endif

/// The child that valgrind counts: one backend's schedule path and run path, each in a phase of its own.
///
/// The probe warms the backend up with a round as large as the largest counted one (first-use allocations of the
/// runtime and the backend, and whatever threads Dispatch's global pool grows to), then runs two rounds of `tasks`
/// and `2 × tasks` empty tasks. In each round, `schedulePhase` submits every task while the lane is held by
/// a gate (nothing runs yet), and `runPhase` opens the gate and waits until every task has run. callgrind dumps the
/// instructions of each phase as it leaves it (``InstructionCount`` runs it so), and the difference between the two
/// rounds, divided by `tasks`, is what one more task costs on each path: what every round does once (opening the
/// gate, waking a worker, spinning before sleep) cancels out.
public enum InstructionProbe {
    /// What callgrind must match: the two phase functions, by the words their symbols contain. Neither defines a
    /// closure (a closure's symbol would contain its function's name and match too).
    static let phasePattern = "*InstructionProbe*countedPhase*"

    /// Backends that are not counted: one spins without end by design (valgrind would count its spinning as its
    /// run path), one hosts only actors, and Combine's schedulers are a peer's code, not SchedulerKit's (the gate is
    /// for SchedulerKit's own paths; their W9 allocations are still measured).
    static let uncountable: [BackendID: String] = {
        var reasons: [BackendID: String] = [
            .spinHandOff: "its consumer thread never sleeps, so the instructions it spins would count as its run path",
            .defaultExecutor: "it hosts actors and tasks only; it has no schedule path of its own",
        ]
        #if Combine
            for entry in ConformanceBackend.combine { reasons[BackendID(entry)] = combinePeer }
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

    static func tasks(_ backend: BackendID) -> Int { fewerTasks[backend] ?? defaultTasks }

    /// A concurrent backend is not counted either: its tasks race each other for several workers, so how many
    /// instructions a task costs depends on how the threads met (callgrind's counts of such a backend never agreed
    /// twice in 4 runs).
    public static func countable(_ backend: Backend) -> Bool {
        uncountable[backend.id] == nil && !backend.has(.concurrent) && Workload.singleProducer.supports(backend)
    }

    /// The child's work; returns when both rounds have run.
    public static func run(backend: Backend, tasks: Int) {
        let lanes = backend.instance()
        defer { lanes.shutdown() }
        let lane = lanes.lane("probe")
        let gated = backend.handsOff
        for count in [2 * tasks, tasks, 2 * tasks] {
            let done = Countdown(count)
            let gate = gated ? LaneGate() : nil
            gate?.close(lane)
            countedPhaseOfScheduling(lane, count: count, work: { done.tick() })
            countedPhaseOfRunning(lane, gate: gate, done: done)
            countedPhaseOfSettling()
        }
    }

    /// How long the process sits idle after each round, so that threads winding down (a worker spinning before it
    /// sleeps, Dispatch parking its threads) do so here, in a dump of their own, not in the next round's.
    static let settling: Duration = .milliseconds(200)

    @inline(never)
    static func countedPhaseOfSettling() {
        Thread.sleep(
            forTimeInterval: Double(settling.components.attoseconds) / 1e18 + Double(settling.components.seconds))
    }

    @inline(never)
    static func countedPhaseOfScheduling(_ lane: any Lane, count: Int, work: @escaping @Sendable () -> Void) {
        for _ in 0..<count { lane.submit(work) }
    }

    @inline(never)
    static func countedPhaseOfRunning(_ lane: any Lane, gate: LaneGate?, done: Countdown) {
        gate?.open()
        lane.drain()
        done.wait()
    }
}
