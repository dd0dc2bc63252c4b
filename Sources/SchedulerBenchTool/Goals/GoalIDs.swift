import SchedulerBench
import SchedulerConformance

/// What a ``GoalID`` names.
package enum GoalKind: IdentifierKind {}
/// A performance goal of `Docs/Goals.md`.
package typealias GoalID = Identifier<GoalKind>

/// The goals by name, as `bench report` and the goal tables spell them.
extension GoalID {
    package static let dispatchOverhead = GoalID(rawValue: "dispatch-overhead")
    package static let dispatchOverheadGlibc = GoalID(rawValue: "dispatch-overhead-glibc")
    package static let operationQueueOverhead = GoalID(rawValue: "operationqueue-overhead")
    package static let poolThroughputOverDispatch = GoalID(rawValue: "pool-throughput-vs-dispatch")
    package static let poolThroughputOverNIO = GoalID(rawValue: "pool-throughput-vs-nio")
    package static let poolRoundTrip = GoalID(rawValue: "pool-round-trip")
    package static let poolFanOut = GoalID(rawValue: "pool-fan-out")
    package static let poolProducers = GoalID(rawValue: "pool-producers")
    package static let poolAllocations = GoalID(rawValue: "pool-allocations")
    package static let dispatchAllocations = GoalID(rawValue: "dispatch-allocations")
    package static let immediateShare = GoalID(rawValue: "immediate-share")
    package static let virtualTimeRate = GoalID(rawValue: "virtual-time-rate")
    package static let explorationStepRandom = GoalID(rawValue: "exploration-step-random")
    package static let explorationStepPCT = GoalID(rawValue: "exploration-step-pct")
    package static let explorationStepGrowth = GoalID(rawValue: "exploration-step-growth")
    package static let poolTaskFromGlobal = GoalID(rawValue: "pool-task-from-global")
    package static let poolTaskAllocations = GoalID(rawValue: "pool-task-allocations")
    package static let poolTaskFromBackend = GoalID(rawValue: "pool-task-from-backend")
    package static let poolTaskFromGlobalVsDispatch = GoalID(rawValue: "pool-task-from-global-vs-dispatch")
    package static let poolTaskFromBackendFloor = GoalID(rawValue: "pool-task-from-backend-floor")
    package static let poolActorHopFloor = GoalID(rawValue: "pool-actor-hop-floor")
    package static let poolActorRoundTripFloor = GoalID(rawValue: "pool-actor-round-trip-floor")
    package static let poolActorHopVsDispatch = GoalID(rawValue: "pool-actor-hop-vs-dispatch")
    package static let poolActorRoundTripVsDispatch = GoalID(rawValue: "pool-actor-round-trip-vs-dispatch")
}
