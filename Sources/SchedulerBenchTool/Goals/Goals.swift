import SchedulerBench
import SchedulerBenchPeers
import SchedulerConformance

/// A performance goal (`Docs/Goals.md`): a figure computed from one run's cells, and the limit it must keep.
/// Goals are data: each names the cells it reads by identifiers, and a test checks that every one of them is in a
/// full run's plan, so a renamed lane or parameter fails the tests instead of reading "not measured" in a report.
package struct Goal: Sendable {
    package let id: GoalID
    /// What is promised, in words, for the report.
    package let statement: String
    package let allocator: AllocatorChoice
    package let measure: Measure
    package let limit: Double
    package let direction: Direction
    /// How the figure reads for people (e.g. "1.07x", "4.1 M tasks/s").
    package let presentation: Presentation
    /// The best figure a design of this kind can reach on this machine, measured in the same run (nil: none known).
    /// A `var` with a default only so that the memberwise initialiser lets goals without one leave it out.
    package var floor: Floor? = nil

    /// A reference lane that does only what every design of the goal's kind must do, so no such design gets past
    /// its figure: where the floor itself misses the limit, the goal asks for another design, not more tuning. Its
    /// measure is in the goal's own terms (the same ratio or difference with the floor lane in place of the backend).
    package struct Floor: Sendable {
        package let measure: Measure
        /// What the floor lane does, for the report.
        package let explanation: String
    }

    package enum Direction: Sendable { case atMost, atLeast }

    package enum Presentation: Sendable {
        /// "1.07x"
        case times
        /// "3.4x faster": the figure is how many times faster (a ratio of costs, the other over this one).
        case timesFaster
        /// "2.1 ns"
        case nanoseconds
        /// Nanoseconds per task shown as millions of tasks per second.
        case millionsPerSecond
        /// "1 more", "0 more".
        case extraAllocations
        /// "8 allocations".
        case allocations
    }

    /// A cell of a run: a backend's metric in the configurations of a workload whose parameters include these.
    package struct Cell: Sendable {
        package let backend: BackendID
        package let workload: WorkloadID
        package let metric: Metric
        package let parameters: Parameters

        package init(
            _ backend: BackendID, _ workload: WorkloadID, _ metric: Metric, _ parameters: Parameters = Parameters([:])
        ) {
            self.backend = backend
            self.workload = workload
            self.metric = metric
            self.parameters = parameters
        }
    }

    package enum Measure: Sendable {
        /// first / second: paired by round when both are in one workload configuration, else of the two medians.
        case ratio(Cell, over: Cell)
        /// first − second, paired by round.
        case difference(Cell, minus: Cell)
        /// The cell's median.
        case median(Cell)
        /// first − second of exact counts.
        case countDifference(Cell, minus: Cell)
        /// An exact count.
        case count(Cell)

        package var cells: [Cell] {
            switch self {
            case .ratio(let a, let b), .difference(let a, let b), .countDifference(let a, let b): [a, b]
            case .median(let a), .count(let a): [a]
            }
        }

        /// Timed figures vary from run to run; counts do not.
        package var isMeasured: Bool {
            switch self {
            case .countDifference, .count: false
            case .ratio, .difference, .median: true
            }
        }
    }
}

extension Goal {
    /// Every goal, in the report's order.
    package static let all: [Goal] = [
        Goal(
            id: .dispatchOverhead, statement: "DispatchQueueScheduler ≤ 1.10x raw DispatchQueue.async (W1)",
            allocator: .jemalloc, measure: .ratio(w1(.dispatch), over: w1(.rawDispatch)), limit: 1.1,
            direction: .atMost, presentation: .times),
        Goal(
            id: .dispatchOverheadGlibc,
            statement: "DispatchQueueScheduler ≤ 1.30x raw DispatchQueue.async under glibc (W1)",
            allocator: .system, measure: .ratio(w1(.dispatch), over: w1(.rawDispatch)), limit: 1.3,
            direction: .atMost, presentation: .times),
        Goal(
            id: .operationQueueOverhead, statement: "OperationQueueScheduler ≤ 1.05x raw OperationQueue (W1)",
            allocator: .jemalloc, measure: .ratio(w1(.operationQueue), over: w1(.rawOperationQueue)), limit: 1.05,
            direction: .atMost, presentation: .times),
        Goal(
            id: .poolThroughputOverDispatch, statement: "ThreadPoolScheduler ≥ 4x faster than raw Dispatch (W1)",
            allocator: .jemalloc, measure: .ratio(w1(.rawDispatch), over: w1(.threadPool)), limit: 4,
            direction: .atLeast, presentation: .timesFaster,
            floor: Floor(measure: .ratio(w1(.rawDispatch), over: w1(.spinHandOff)), explanation: handOffFloor)),
        Goal(
            id: .poolThroughputOverNIO,
            statement: "ThreadPoolScheduler ≥ 2x faster than NIO's event loop, raw EventLoop.execute (W1)",
            allocator: .jemalloc, measure: .ratio(w1(.rawNIOExecute), over: w1(.threadPool)), limit: 2,
            direction: .atLeast, presentation: .timesFaster,
            floor: Floor(measure: .ratio(w1(.rawNIOExecute), over: w1(.spinHandOff)), explanation: handOffFloor)),
        Goal(
            id: .poolRoundTrip, statement: "ThreadPoolScheduler round trip ≤ 0.5x raw Dispatch's (W4)",
            allocator: .jemalloc,
            measure: .ratio(
                Cell(.threadPool, .pingPong, .nsPerRoundTrip), over: Cell(.rawDispatch, .pingPong, .nsPerRoundTrip)),
            limit: 0.5, direction: .atMost, presentation: .times),
        Goal(
            id: .poolFanOut, statement: "ThreadPoolScheduler, 1 000 schedulers within 1.5x of 1 (W3)",
            allocator: .jemalloc,
            measure: .ratio(
                Cell(.threadPool, .fanOut, .nsPerTask, Parameters([.schedulers: 1_000])),
                over: Cell(.threadPool, .fanOut, .nsPerTask, Parameters([.schedulers: 1]))),
            limit: 1.5, direction: .atMost, presentation: .times),
        Goal(
            id: .poolProducers,
            statement: "ThreadPoolScheduler does not collapse with 8 producers on 2 cores: P=8 ≤ 2x P=1 (W2)",
            allocator: .jemalloc,
            measure: .ratio(
                Cell(.threadPool, .producers, .nsPerTask, Parameters([.producers: 8])),
                over: Cell(.threadPool, .producers, .nsPerTask, Parameters([.producers: 1]))),
            limit: 2, direction: .atMost, presentation: .times),
        Goal(
            id: .poolAllocations,
            statement: "ThreadPoolScheduler: exactly 1 allocation per schedule beyond the closure context (W9)",
            allocator: .jemalloc,
            measure: .countDifference(
                Cell(.threadPool, .allocations, .allocsPerTask),
                minus: Cell(.directCall, .allocations, .allocsPerTask)),
            limit: 1, direction: .atMost, presentation: .extraAllocations),
        Goal(
            id: .dispatchAllocations,
            statement: "DispatchQueueScheduler: at most 1 allocation more than raw Dispatch (W9)",
            allocator: .jemalloc,
            measure: .countDifference(
                Cell(.dispatch, .allocations, .allocsPerTask),
                minus: Cell(.rawDispatch, .allocations, .allocsPerTask)),
            limit: 1, direction: .atMost, presentation: .extraAllocations),
        Goal(
            // Measured against the floor itself (`protocol-call`: a Scheduler whose `schedule` only calls the closure
            // and returns a settled handle), so the share is what ImmediateScheduler adds: the current scheduler and
            // its trampoline.
            id: .immediateShare,
            statement: "ImmediateScheduler's own share above a call through the Scheduler protocol ≤ 1 ns (W1)",
            allocator: .jemalloc, measure: .difference(w1(.immediate), minus: w1(.protocolCall)), limit: 1,
            direction: .atMost, presentation: .nanoseconds,
            floor: Floor(
                measure: .difference(w1(.currentCall), minus: w1(.protocolCall)),
                explanation:
                    "`current-call`: the same protocol call with the scheduler set current around the closure and "
                    + "restored after it, the promise every scheduler of the kit keeps, with no trampoline")),
        Goal(
            id: .virtualTimeRate, statement: "TestScheduler ≥ 20 000 000 virtual tasks/s (W1)",
            allocator: .jemalloc, measure: .median(w1(.testScheduler)), limit: 50, direction: .atMost,
            presentation: .millionsPerSecond,
            floor: Floor(
                measure: .median(w1(.virtualTimeFloor)),
                explanation:
                    "`virtual-time-floor`: a node per task (the handle) on the pool's lock-free queue, run in order "
                    + "by the caller's drain, with no clock, deadline order or current scheduler")),
        Goal(
            id: .explorationStepRandom, statement: "An exploration step among 10 ready jobs ≤ 300 ns, random (W23)",
            allocator: .jemalloc, measure: .median(w23(.exploreRandom, ready: 10)), limit: 300, direction: .atMost,
            presentation: .nanoseconds),
        Goal(
            id: .explorationStepPCT, statement: "An exploration step among 10 ready jobs ≤ 300 ns, PCT (W23)",
            allocator: .jemalloc, measure: .median(w23(.explorePCT, ready: 10)), limit: 300, direction: .atMost,
            presentation: .nanoseconds),
        Goal(
            id: .explorationStepGrowth,
            statement: "A random step among 1 000 ready jobs ≤ 2x one among 10: no worse than logarithmic (W23)",
            allocator: .jemalloc,
            measure: .ratio(w23(.exploreRandom, ready: 1_000), over: w23(.exploreRandom, ready: 10)), limit: 2,
            direction: .atMost, presentation: .times),
        Goal(
            id: .poolTaskFromGlobal,
            statement: "A task on the pool awaited from the global executor ≤ 1.5x the default executor's (W12)",
            allocator: .jemalloc,
            measure: .ratio(w12(.threadPool, .global), over: w12(.defaultExecutor, .global)),
            limit: 1.5, direction: .atMost, presentation: .times,
            floor: Floor(
                measure: .ratio(w12(.spinHandOff, .global), over: w12(.defaultExecutor, .global)),
                explanation:
                    "`spin-handoff` as the task's executor: the task runs on a thread that never sleeps, and what is "
                    + "left is the global executor waking one of its threads to resume the awaiting task")),
        Goal(
            id: .poolTaskAllocations,
            statement: "A task on the pool awaited from the global executor: ≤ 6 allocations of every thread (W12)",
            allocator: .jemalloc, measure: .count(w12(.threadPool, .global, .allocsPerTask)), limit: 6,
            direction: .atMost, presentation: .allocations,
            floor: Floor(
                measure: .count(w12(.spinHandOff, .global, .allocsPerTask)),
                explanation:
                    "the same task on `spin-handoff`: the runtime's task (4 allocations on the default executor too), "
                    + "the node the job travels in, and Dispatch's 2 when a thread outside its pool resumes the "
                    + "awaiting task")),
        Goal(
            id: .poolTaskFromBackend,
            statement: "A task on the pool awaited from a task on the pool ≤ 1.2x the default executor's (W12)",
            allocator: .jemalloc,
            measure: .ratio(w12(.threadPool, .backend), over: w12(.defaultExecutor, .backend)),
            limit: 1.2, direction: .atMost, presentation: .times),
        // The actor rows against the custom-executor floor and the Dispatch-backed executor (`Docs/Goals.md`, "What
        // the runtime charges a custom executor"): no custom executor can match the default executor's figures, so
        // the pool is held to the floor of its own kind and to the fastest other custom executor.
        Goal(
            id: .poolTaskFromGlobalVsDispatch,
            statement:
                "A task on the pool awaited from the global executor ≤ 1.2x the Dispatch-backed executor's (W12)",
            allocator: .jemalloc,
            measure: .ratio(w12(.threadPool, .global), over: w12(.dispatch, .global)),
            limit: 1.2, direction: .atMost, presentation: .times,
            floor: Floor(
                measure: .ratio(w12(.spinHandOff, .global), over: w12(.dispatch, .global)),
                explanation:
                    "`spin-handoff` as the task's executor, over the Dispatch-backed one: a thread that never sleeps "
                    + "still hands the awaiting task back to the global executor, which wakes one of its threads; "
                    + "a Dispatch-backed executor's thread is the global executor's own and resumes it in place")),
        Goal(
            id: .poolTaskFromBackendFloor,
            statement: "A task on the pool awaited from a task on the pool ≤ 1.1x the custom-executor floor (W12)",
            allocator: .jemalloc,
            measure: .ratio(w12(.threadPool, .backend), over: w12(.spinHandOff, .backend)),
            limit: 1.1, direction: .atMost, presentation: .times),
        Goal(
            id: .poolActorHopFloor,
            statement: "An actor call from a task on the pool ≤ 1.1x the custom-executor floor (W11, caller=backend)",
            allocator: .jemalloc,
            measure: .ratio(w11(.threadPool, .backend), over: w11(.spinHandOff, .backend)),
            limit: 1.1, direction: .atMost, presentation: .times),
        Goal(
            id: .poolActorRoundTripFloor,
            statement: "A round trip between two actors on the pool ≤ 1.1x the custom-executor floor (W13)",
            allocator: .jemalloc, measure: .ratio(w13(.threadPool), over: w13(.spinHandOff)),
            limit: 1.1, direction: .atMost, presentation: .times),
        Goal(
            id: .poolActorHopVsDispatch,
            statement:
                "An actor call from a task on the pool ahead of the Dispatch-backed executor (W11, caller=backend)",
            allocator: .jemalloc,
            measure: .ratio(w11(.threadPool, .backend), over: w11(.dispatch, .backend)),
            limit: 1, direction: .atMost, presentation: .times),
        Goal(
            id: .poolActorRoundTripVsDispatch,
            statement: "A round trip between two actors on the pool ahead of the Dispatch-backed executor (W13)",
            allocator: .jemalloc, measure: .ratio(w13(.threadPool), over: w13(.dispatch)),
            limit: 1, direction: .atMost, presentation: .times),
    ]

    static let handOffFloor =
        "`spin-handoff`: the pool's node and queue, drained by a thread that never sleeps (no wake-up, no books)"

    private static func w1(_ backend: BackendID) -> Cell { Cell(backend, .throughput, .nsPerTask) }

    private static func w11(_ backend: BackendID, _ caller: ActorHopCaller) -> Cell {
        Cell(backend, .actorHop, .nsPerCall, Parameters([:], choices: [.caller: caller.rawValue]))
    }

    private static func w23(_ backend: BackendID, ready: Int) -> Cell {
        Cell(backend, .explorationStep, .nsPerStep, Parameters([.ready: ready]))
    }

    private static func w13(_ backend: BackendID) -> Cell { Cell(backend, .actorPingPong, .nsPerRoundTrip) }

    private static func w12(_ backend: BackendID, _ caller: ActorHopCaller, _ metric: Metric = .nsPerTask) -> Cell {
        Cell(backend, .taskLifecycle, metric, Parameters([:], choices: [.caller: caller.rawValue]))
    }
}
