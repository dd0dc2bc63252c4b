// The names of the runtime's lanes, workloads and parameters, as typed constants, spelt here once. A subject's id is
// its catalog entry's (`ConformanceBackend.id`, the one identity of a scheduler, kit and bench alike); the peers' lanes
// name theirs in SchedulerBenchPeers. `Backend.references` and `Workload.all` define what each one is; metrics are
// declared with their units in `Metric.swift`.

import SchedulerConformance

/// What a ``WorkloadID`` names.
public enum WorkloadKind: IdentifierKind {}
/// What a ``ParameterName`` names.
public enum ParameterKind: IdentifierKind {}

/// A workload (`W1`, `W2`, …: `Workload.all`).
public typealias WorkloadID = Identifier<WorkloadKind>
/// A workload parameter (`tasks`, `producers`, …).
public typealias ParameterName = Identifier<ParameterKind>

extension BackendID {
    // Reference rows: the primitives the backends wrap, and floors.
    public static let rawDispatch = BackendID(rawValue: "raw-dispatch")
    public static let rawDispatchGlobal = BackendID(rawValue: "raw-dispatch-global")
    public static let rawDispatchConcurrent = BackendID(rawValue: "raw-dispatch-concurrent")
    public static let rawOperationQueue = BackendID(rawValue: "raw-operationqueue")
    public static let spinHandOff = BackendID(rawValue: "spin-handoff")
    public static let poolBothRoles = BackendID(rawValue: "pool-both-roles")
    public static let directCall = BackendID(rawValue: "direct-call")
    public static let protocolCall = BackendID(rawValue: "protocol-call")
    public static let currentCall = BackendID(rawValue: "current-call")
    public static let virtualTimeFloor = BackendID(rawValue: "virtual-time-floor")
    public static let exploreFIFO = BackendID(rawValue: "explore-fifo")
    public static let exploreRandom = BackendID(rawValue: "explore-random")
    public static let explorePCT = BackendID(rawValue: "explore-pct")
    public static let defaultExecutor = BackendID(rawValue: "default-executor")
    public static let continuousClock = BackendID(rawValue: "continuous-clock")
}

extension WorkloadID {
    public static let throughput = WorkloadID(rawValue: "W1")
    public static let producers = WorkloadID(rawValue: "W2")
    public static let fanOut = WorkloadID(rawValue: "W3")
    public static let pingPong = WorkloadID(rawValue: "W4")
    public static let startLatency = WorkloadID(rawValue: "W5")
    public static let timerLateness = WorkloadID(rawValue: "W6")
    public static let cancellation = WorkloadID(rawValue: "W7")
    public static let recursion = WorkloadID(rawValue: "W8")
    public static let allocations = WorkloadID(rawValue: "W9")
    public static let reactiveHop = WorkloadID(rawValue: "W10")
    public static let actorHop = WorkloadID(rawValue: "W11")
    public static let taskLifecycle = WorkloadID(rawValue: "W12")
    public static let actorPingPong = WorkloadID(rawValue: "W13")
    public static let idleCPU = WorkloadID(rawValue: "W14")
    public static let parallelFanOut = WorkloadID(rawValue: "W15")
    public static let observeOn = WorkloadID(rawValue: "W16")
    public static let observeOnDrain = WorkloadID(rawValue: "W17")
    public static let receiveOn = WorkloadID(rawValue: "W18")
    public static let clockSleep = WorkloadID(rawValue: "W19")
    public static let timerDrift = WorkloadID(rawValue: "W20")
    public static let virtualSleepers = WorkloadID(rawValue: "W21")
    public static let exploredSchedules = WorkloadID(rawValue: "W22")
    public static let explorationStep = WorkloadID(rawValue: "W23")
    public static let taskFanIn = WorkloadID(rawValue: "W24")
    public static let actorPipeline = WorkloadID(rawValue: "W25")
}

extension ParameterName {
    public static let tasks = ParameterName(rawValue: "tasks")
    public static let producers = ParameterName(rawValue: "producers")
    public static let schedulers = ParameterName(rawValue: "schedulers")
    public static let roundTrips = ParameterName(rawValue: "round_trips")
    public static let load = ParameterName(rawValue: "load")
    public static let probes = ParameterName(rawValue: "probes")
    public static let timers = ParameterName(rawValue: "timers")
    public static let windowMilliseconds = ParameterName(rawValue: "window_ms")
    public static let cancelledPercent = ParameterName(rawValue: "cancelled_pct")
    public static let steps = ParameterName(rawValue: "steps")
    public static let queued = ParameterName(rawValue: "queued")
    public static let values = ParameterName(rawValue: "values")
    public static let calls = ParameterName(rawValue: "calls")
    public static let width = ParameterName(rawValue: "width")
    public static let caller = ParameterName(rawValue: "caller")
    public static let consumer = ParameterName(rawValue: "consumer")
    public static let idleMilliseconds = ParameterName(rawValue: "idle_ms")
    public static let workMicroseconds = ParameterName(rawValue: "work_us")
    public static let events = ParameterName(rawValue: "events")
    public static let ticks = ParameterName(rawValue: "ticks")
    public static let intervalMicroseconds = ParameterName(rawValue: "interval_us")
    public static let sleepers = ParameterName(rawValue: "sleepers")
    public static let schedules = ParameterName(rawValue: "schedules")
    public static let jobs = ParameterName(rawValue: "jobs")
    public static let ready = ParameterName(rawValue: "ready")
}
