import Foundation
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
    public func instance() -> LaneGroup { makeGroup() }

    public func has(_ required: Capabilities) -> Bool { capabilities.isSuperset(of: required) }

    /// The `default-executor` reference hosts actors and tasks only: it is not a lane for the W1–W10 workloads.
    public var hostsOnlyActors: Bool { capabilities.subtracting(.promptWakeUp) == [.executor, .taskExecutor] }

    /// A scheduler backend; `lacking` removes what its traits do not say (e.g. handles that cannot cancel), `adding`
    /// what the bench's use of it adds to them.
    static func scheduler(
        _ id: BackendID, _ summary: String, wraps: BackendID?, traits: SchedulerTraits,
        lacking: Capabilities = [], adding: Capabilities = [], conformanceName: String,
        make: @escaping @Sendable () -> LaneGroup
    ) -> Backend {
        Backend(
            id, summary: summary, wraps: wraps, isReference: false,
            capabilities: Capabilities(traits: traits).subtracting(lacking).union(adding),
            conformanceName: conformanceName, makeGroup: make)
    }

    /// A raw primitive or a floor, measured beside the schedulers.
    static func reference(
        _ id: BackendID, _ summary: String, capabilities: Capabilities,
        make: @escaping @Sendable () -> LaneGroup
    ) -> Backend {
        Backend(id, summary: "reference: " + summary, isReference: true, capabilities: capabilities, makeGroup: make)
    }
}

extension Backend {
    /// Every backend and reference, in table order (the SwiftNIO ones are defined in `NIOBackends.swift`, Combine's in
    /// `CombineBackends.swift`).
    public static let all: [Backend] = [
        .scheduler(
            .dispatch, "DispatchQueueScheduler: private serial queue targeting the default global queue",
            wraps: .rawDispatch, traits: DispatchQueueScheduler.traits,
            conformanceName: "DispatchQueueScheduler"
        ) {
            LaneGroup { SchedulerLane(DispatchQueueScheduler(name: $0, targetQueue: .global())) }
        },
        .scheduler(
            .threadPool, "ThreadPoolScheduler on a fresh ThreadPool with one worker per core",
            wraps: .rawDispatch, traits: ThreadPoolScheduler.traits,
            conformanceName: "ThreadPoolScheduler"
        ) {
            let pool = ThreadPool(name: "bench-pool")
            return LaneGroup(make: { SchedulerLane(pool.makeScheduler(name: $0)) }, close: { pool.shutdown() })
        },
        .scheduler(
            .operationQueue, "OperationQueueScheduler: OperationQueue with maxConcurrentOperationCount = 1",
            wraps: .rawOperationQueue, traits: OperationQueueScheduler.traits,
            conformanceName: "OperationQueueScheduler"
        ) {
            LaneGroup { SchedulerLane(OperationQueueScheduler(name: $0)) }
        },
        .scheduler(
            .immediate, "Schedulers.immediate: runs inline, trampolines nested work",
            wraps: .directCall, traits: ImmediateScheduler.traits,
            conformanceName: "ImmediateScheduler"
        ) {
            LaneGroup { _ in SchedulerLane(Schedulers.immediate) }
        },
        .scheduler(
            .subscription,
            "Schedulers.subscription from a thread with no current scheduler: a background Dispatch scheduler",
            // Its traits promise nothing (inline under a current scheduler), but the bench calls it from threads
            // with none, where it always hands work to its background scheduler.
            wraps: .rawDispatch, traits: SubscriptionScheduler.traits, adding: .asynchronous,
            conformanceName: "SubscriptionScheduler"
        ) {
            LaneGroup { _ in SchedulerLane(Schedulers.subscription) }
        },
        .scheduler(
            .testScheduler, "TestScheduler: virtual time, driven by run() on the producing thread",
            wraps: nil, traits: TestScheduler.traits,
            conformanceName: "TestScheduler"
        ) {
            LaneGroup { SchedulerLane(TestScheduler(name: $0)) }
        },
        .scheduler(
            .concurrentDispatch, "ConcurrentDispatchQueueScheduler: a private concurrent queue (width: the cores)",
            wraps: .rawDispatchConcurrent, traits: ConcurrentDispatchQueueScheduler.traits,
            conformanceName: "ConcurrentDispatchQueueScheduler"
        ) {
            LaneGroup { SchedulerLane(ConcurrentDispatchQueueScheduler(name: $0)) }
        },
        .scheduler(
            .threadPoolConcurrent,
            "ThreadPoolConcurrentScheduler on a fresh ThreadPool with one worker per core (width: all of them)",
            wraps: .rawDispatchConcurrent, traits: ThreadPoolConcurrentScheduler.traits,
            conformanceName: "ThreadPoolConcurrentScheduler"
        ) {
            let pool = ThreadPool(name: "bench-pool")
            return LaneGroup(
                make: { SchedulerLane(pool.makeConcurrentScheduler(name: $0)) }, close: { pool.shutdown() })
        },
        .scheduler(
            .operationQueueConcurrent,
            "OperationQueueScheduler with maxConcurrentOperationCount = the cores",
            wraps: .rawDispatchConcurrent, traits: OperationQueueScheduler.concurrentTraits,
            conformanceName: "OperationQueueScheduler (width 2)"
        ) {
            LaneGroup {
                SchedulerLane(
                    OperationQueueScheduler(name: $0, maxConcurrentOperationCount: ThreadPool.activeProcessorCount))
            }
        },
        nioEventLoop,
        nioThreadPool,
        combineDispatch,
        combineOperationQueue,
        combineRunLoop,
        combineImmediate,
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
        rawNIOExecute,
        .reference(
            .spinHandOff,
            "the floor of a hand-off with one allocation per task: the pool's node and lock-free "
                + "queue, drained by a thread that never sleeps", capabilities: [.serial, .taskExecutor, .promptWakeUp]
        ) {
            HandOffFloorLane.group()
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
            .defaultExecutor, "default actors and tasks on Swift's global concurrent executor",
            capabilities: [.executor, .taskExecutor, .promptWakeUp]
        ) {
            LaneGroup { _ in DefaultExecutorLane() }
        },
    ]

    /// A built-in or registered backend (``register(_:)``).
    public static func withID(_ id: BackendID) -> Backend? { known.first { $0.id == id } }
}
