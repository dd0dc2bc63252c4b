import Foundation
import SchedulerConformance
import SchedulerKit

/// A backend under test, or a raw primitive measured beside them (a reference row).
public struct Backend: Sendable {
    public let id: BackendID
    public let summary: String
    /// The reference row this backend is reported against (its ratio column); nil for the references themselves.
    public let wraps: BackendID?
    public let isReference: Bool
    public let capabilities: Capabilities
    /// The name of the same scheduler in the conformance matrix (`conformance.csv`), for the report to join the two.
    public let conformanceName: String?
    private let makeGroup: @Sendable () -> LaneGroup

    init(
        _ id: BackendID, summary: String, wraps: BackendID? = nil, isReference: Bool, capabilities: Capabilities,
        conformanceName: String? = nil, makeGroup: @escaping @Sendable () -> LaneGroup
    ) {
        self.id = id
        self.summary = summary
        self.wraps = wraps
        self.isReference = isReference
        self.capabilities = capabilities
        self.conformanceName = conformanceName
        self.makeGroup = makeGroup
    }

    /// A fresh instance of the backend (a new pool, new queues), for one run of a workload.
    func instance() -> LaneGroup {
        let group = makeGroup()
        return Self.laneWrapper.withLock { $0 }?(group, id) ?? group
    }

    /// What this process wraps around every backend instance's lanes: nil, except in a process of the tool that
    /// plants a known slowdown to measure its own verdicts (`bench power`). Package access keeps it out of reach of
    /// a program that links the runtime; the tool sets it once, at start-up, before any backend runs.
    package static let laneWrapper = Locked<(@Sendable (LaneGroup, BackendID) -> LaneGroup)?>(nil)

    public func has(_ required: Capabilities) -> Bool { capabilities.isSuperset(of: required) }

    /// Where and when a backend runs the work it is given.
    ///
    /// The kinds are ranked apart: a call on the caller's stack is no alternative to a hop onto another thread.
    public enum Execution: String, Sendable {
        /// On the caller's thread, at once or trampolined.
        case inline
        /// On the caller's thread, when the caller advances virtual time.
        case virtualTime = "virtual time"
        /// On another thread: a queue, a pool, an event loop, an executor, a timer.
        case handOff = "hand-off"
    }

    public var execution: Execution {
        if !capabilities.isDisjoint(with: [.virtualTime, .virtualClock]) { return .virtualTime }
        return capabilities.isDisjoint(with: Self.handOffCapabilities) ? .inline : .handOff
    }

    var handsOff: Bool { execution == .handOff }

    /// `spin-handoff` and `default-executor` are hand-offs without ``Capabilities/asynchronous`` (they take only the
    /// workloads they are floors of), so a hand-off is any of these, not that one alone.
    static let handOffCapabilities: Capabilities = [
        .asynchronous, .concurrent, .executor, .taskExecutor, .realTimers, .clock, .exploration,
    ]

    /// The `default-executor` reference hosts actors and tasks only: it is not a lane for the W1–W10 workloads.
    var hostsOnlyActors: Bool { capabilities.subtracting(.promptWakeUp) == [.executor, .taskExecutor] }
    /// The clock references (`continuous-clock`, `swift-clocks-testclock`): a clock, and nothing else (W19–W21).
    var hostsOnlyAClock: Bool { !capabilities.isEmpty && capabilities.isSubset(of: Self.clockCapabilities) }
    static let clockCapabilities: Capabilities = [.clock, .virtualClock]
    /// The exploration references (`explore-fifo`, `explore-random`, `explore-pct`): a strategy, nothing else (W22).
    var hostsOnlyExplorations: Bool { capabilities == .exploration }

    /// A raw primitive or a floor, measured beside the schedulers: the runtime's own (``references``), and the peers'
    /// that the tool registers.
    package static func reference(
        _ id: BackendID, _ summary: String, capabilities: Capabilities,
        make: @escaping @Sendable () -> LaneGroup
    ) -> Backend {
        Backend(id, summary: "reference: " + summary, isReference: true, capabilities: capabilities, makeGroup: make)
    }
}

extension Backend {
    /// A lane for a kit entry (your `ConformanceBackend`, or one of the kit's): its id, summary and name in the matrix
    /// come from the entry, its capabilities from the entry's traits and `harness` (what it is measured beside and
    /// how the bench calls it), and each round opens a fresh session planned for the bench.
    public static func subject(_ entry: ConformanceBackend, harness: BenchHarness = .standard) -> Backend {
        Backend(
            entry.id, summary: entry.summary, wraps: harness.wraps,
            isReference: false, capabilities: Capabilities(subject: entry, harness: harness),
            conformanceName: entry.name
        ) {
            let session = entry.session(.benchmark)
            return LaneGroup(make: { SchedulerLane(session.makeScheduler(named: $0)) }, close: session.close)
        }
    }

    /// The primitives schedulers wrap, and floors: the runtime's own lanes, measured in the same sweeps as the
    /// backends a program registers (``register(_:)``) and known without registering.
    public static let references: [Backend] =
        [
            .reference(
                .rawDispatch, "DispatchQueue(label:).async on a serial queue",
                capabilities: [.serial, .asynchronous, .realTimers, .promptWakeUp]
            ) {
                LaneGroup { DispatchLane(label: $0) }
            },
            .reference(
                .rawDispatchGlobal,
                "DispatchQueue(label:target: .global()).async, the queue DispatchQueueScheduler wraps",
                capabilities: [.serial, .asynchronous, .realTimers, .promptWakeUp]
            ) {
                LaneGroup { DispatchLane(label: $0, target: .global()) }
            },
            .reference(
                .rawDispatchConcurrent, "DispatchQueue(label:attributes: .concurrent).async",
                capabilities: [.concurrent, .asynchronous, .realTimers, .promptWakeUp]
            ) {
                LaneGroup { DispatchLane(label: $0, attributes: .concurrent) }
            },
            .reference(
                .rawOperationQueue, "OperationQueue, maxConcurrentOperationCount = 1, addOperation",
                capabilities: [.serial, .asynchronous, .promptWakeUp]
            ) {
                LaneGroup { OperationQueueLane(label: $0) }
            },
            .reference(
                .spinHandOff,
                "the floor of a hand-off with one allocation per task (a closure, an actor's or a task's job): the "
                    + "pool's node and lock-free queue, drained by a thread that never sleeps",
                capabilities: [.serial, .executor, .taskExecutor, .promptWakeUp]
            ) {
                HandOffFloorLane.group()
            },
            .reference(
                .poolBothRoles,
                "the pool's schedulers behind one executor type that is both SerialExecutor and TaskExecutor, "
                    + "against the two types SchedulerKit ships (W11-W13)",
                capabilities: [.executor, .taskExecutor, .promptWakeUp]
            ) {
                BothRolesLane.group()
            },
            .reference(.directCall, "calls the closure directly", capabilities: [.serial, .promptWakeUp]) {
                LaneGroup { _ in DirectLane() }
            },
            .reference(
                .protocolCall,
                "calls the closure through the Scheduler protocol (a witness call and a returned handle): the floor of "
                    + "any scheduler behind `any Scheduler`", capabilities: [.serial, .promptWakeUp]
            ) {
                LaneGroup { _ in ProtocolCallLane() }
            },
            .reference(
                .currentCall,
                "protocol-call with itself current while the closure runs (Schedulers.performAsCurrent), and no "
                    + "trampoline: the floor of an inline scheduler that keeps the current-scheduler promise",
                capabilities: [.serial, .promptWakeUp]
            ) {
                LaneGroup { _ in ProtocolCallLane(setsCurrent: true) }
            },
            .reference(
                .virtualTimeFloor,
                "the floor of a virtual-time scheduler with a handle per task: the pool's node and lock-free queue, "
                    + "run in order by the caller's drain(), with no clock, deadline order or current scheduler",
                capabilities: [.virtualTime]
            ) {
                LaneGroup { _ in VirtualTimeFloorLane() }
            },
            .reference(
                .exploreFIFO, "explore(schedules:) with the first-in-first-out strategy, today's order (W22)",
                capabilities: [.exploration]
            ) {
                LaneGroup { _ in ExplorerLane(.firstInFirstOut) }
            },
            .reference(
                .exploreRandom, "explore(schedules:) choosing each job at random (W22)", capabilities: [.exploration]
            ) {
                LaneGroup { _ in ExplorerLane(.random) }
            },
            .reference(
                .explorePCT, "explore(schedules:) with PCT, depth 3 over 100 steps (W22)", capabilities: [.exploration]
            ) {
                LaneGroup { _ in ExplorerLane(.pct(depth: 3, steps: 100)) }
            },
            .reference(
                .defaultExecutor, "default actors and tasks on Swift's global concurrent executor",
                capabilities: [.executor, .taskExecutor, .promptWakeUp]
            ) {
                LaneGroup { _ in DefaultExecutorLane() }
            },
            .reference(
                .continuousClock,
                "Task.sleep on the standard library's ContinuousClock (W19); AsyncTimerSequence on it (W20)",
                capabilities: [.clock]
            ) {
                LaneGroup { _ in ClockOnlyLane(clock: SleepingClock(ContinuousClock()), ticker: .asyncTimerSequence) }
            },
        ]

    /// A reference or a registered backend (``register(_:)``).
    public static func withID(_ id: BackendID) -> Backend? { known.first { $0.id == id } }
}
