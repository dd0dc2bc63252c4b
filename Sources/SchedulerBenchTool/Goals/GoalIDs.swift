import SchedulerBench

/// The goals by name, as `bench report` and the goal tables spell them.
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
    public static let explorationStepRandom = GoalID(rawValue: "exploration-step-random")
    public static let explorationStepPCT = GoalID(rawValue: "exploration-step-pct")
    public static let explorationStepGrowth = GoalID(rawValue: "exploration-step-growth")
    public static let poolTaskFromGlobal = GoalID(rawValue: "pool-task-from-global")
    public static let poolTaskAllocations = GoalID(rawValue: "pool-task-allocations")
    public static let poolTaskFromBackend = GoalID(rawValue: "pool-task-from-backend")
    public static let poolTaskFromGlobalVsDispatch = GoalID(rawValue: "pool-task-from-global-vs-dispatch")
    public static let poolTaskFromBackendFloor = GoalID(rawValue: "pool-task-from-backend-floor")
    public static let poolActorHopFloor = GoalID(rawValue: "pool-actor-hop-floor")
    public static let poolActorRoundTripFloor = GoalID(rawValue: "pool-actor-round-trip-floor")
    public static let poolActorHopVsDispatch = GoalID(rawValue: "pool-actor-hop-vs-dispatch")
    public static let poolActorRoundTripVsDispatch = GoalID(rawValue: "pool-actor-round-trip-vs-dispatch")
}
