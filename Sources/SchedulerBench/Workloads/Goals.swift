/// A performance goal (`Docs/Goals.md`): a figure computed from one run's cells, and the limit it must keep.
/// Goals are data: each names the cells it reads by identifiers, and a test checks that every one of them is in a
/// full run's plan, so a renamed lane or parameter fails the tests instead of reading "not measured" in a report.
public struct Goal: Sendable {
    public let id: GoalID
    /// What is promised, in words, for the report.
    public let statement: String
    public let allocator: AllocatorChoice
    public let measure: Measure
    public let limit: Double
    public let direction: Direction
    /// How the figure reads for people (e.g. "1.07x", "4.1 M tasks/s").
    public let presentation: Presentation

    public enum Direction: Sendable { case atMost, atLeast }

    public enum Presentation: Sendable {
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
    }

    /// A cell of a run: a backend's metric in the configurations of a workload whose parameters include these.
    public struct Cell: Sendable {
        public let backend: BackendID
        public let workload: WorkloadID
        public let metric: Metric
        public let parameters: Parameters

        public init(
            _ backend: BackendID, _ workload: WorkloadID, _ metric: Metric, _ parameters: Parameters = Parameters([:])
        ) {
            self.backend = backend
            self.workload = workload
            self.metric = metric
            self.parameters = parameters
        }
    }

    public enum Measure: Sendable {
        /// first / second: paired by round when both are in one workload configuration, else of the two medians.
        case ratio(Cell, over: Cell)
        /// first − second, paired by round.
        case difference(Cell, minus: Cell)
        /// The cell's median.
        case median(Cell)
        /// first − second of exact counts.
        case countDifference(Cell, minus: Cell)

        public var cells: [Cell] {
            switch self {
            case .ratio(let a, let b), .difference(let a, let b), .countDifference(let a, let b): [a, b]
            case .median(let a): [a]
            }
        }

        /// Timed figures vary from run to run; counts do not.
        public var isMeasured: Bool {
            if case .countDifference = self { return false }
            return true
        }
    }
}

extension GoalID {
    public static let dispatchOverhead = GoalID(rawValue: "dispatch-overhead")
    public static let dispatchOverheadGlibc = GoalID(rawValue: "dispatch-overhead-glibc")
    public static let operationQueueOverhead = GoalID(rawValue: "operationqueue-overhead")
    public static let poolThroughputOverDispatch = GoalID(rawValue: "pool-throughput-vs-dispatch")
    public static let poolThroughputOverNIO = GoalID(rawValue: "pool-throughput-vs-nio")
    public static let poolRoundTrip = GoalID(rawValue: "pool-round-trip")
    public static let poolFanOut = GoalID(rawValue: "pool-fan-out")
    public static let poolProducers = GoalID(rawValue: "pool-producers")
    public static let poolAllocations = GoalID(rawValue: "pool-allocations")
    public static let dispatchAllocations = GoalID(rawValue: "dispatch-allocations")
    public static let immediateShare = GoalID(rawValue: "immediate-share")
    public static let virtualTimeRate = GoalID(rawValue: "virtual-time-rate")
    public static let poolTaskFromGlobal = GoalID(rawValue: "pool-task-from-global")
}

extension Goal {
    /// Every goal, in the report's order.
    public static let all: [Goal] = [
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
            direction: .atLeast, presentation: .timesFaster),
        Goal(
            id: .poolThroughputOverNIO,
            statement: "ThreadPoolScheduler ≥ 2x faster than NIO's event loop, raw EventLoop.execute (W1)",
            allocator: .jemalloc, measure: .ratio(w1(.rawNIOExecute), over: w1(.threadPool)), limit: 2,
            direction: .atLeast, presentation: .timesFaster),
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
            id: .immediateShare, statement: "ImmediateScheduler's own share above a direct call ≤ 3 ns (W1)",
            allocator: .jemalloc, measure: .difference(w1(.immediate), minus: w1(.directCall)), limit: 3,
            direction: .atMost, presentation: .nanoseconds),
        Goal(
            id: .virtualTimeRate, statement: "TestScheduler ≥ 10 000 000 virtual tasks/s (W1)",
            allocator: .jemalloc, measure: .median(w1(.testScheduler)), limit: 100, direction: .atMost,
            presentation: .millionsPerSecond),
        Goal(
            id: .poolTaskFromGlobal,
            statement: "A task on the pool awaited from the global executor ≤ 1.5x the default executor's (W12)",
            allocator: .jemalloc,
            measure: .ratio(
                Cell(
                    .threadPool, .taskLifecycle, .nsPerTask,
                    Parameters([:], choices: [.caller: ActorHopCaller.global.rawValue])),
                over: Cell(
                    .defaultExecutor, .taskLifecycle, .nsPerTask,
                    Parameters([:], choices: [.caller: ActorHopCaller.global.rawValue]))),
            limit: 1.5, direction: .atMost, presentation: .times),
    ]

    private static func w1(_ backend: BackendID) -> Cell { Cell(backend, .throughput, .nsPerTask) }
}
