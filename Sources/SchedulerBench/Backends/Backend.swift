import Foundation
import SchedulerKit

/// What a backend can do; workloads select backends by these.
public struct Capabilities: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Tasks never overlap and one producer's tasks run in order.
    public static let serial = Capabilities(rawValue: 1 << 0)
    /// Work runs on another thread, never on the caller's stack.
    public static let asynchronous = Capabilities(rawValue: 1 << 1)
    /// Deadlines on the monotonic clock, in real time.
    public static let realTimers = Capabilities(rawValue: 1 << 2)
    /// A `Scheduler`: handles that cancel, `scheduleRecursive`.
    public static let scheduler = Capabilities(rawValue: 1 << 3)
    /// Recursion does not grow the stack (asynchronous, trampolined or virtual).
    public static let flatRecursion = Capabilities(rawValue: 1 << 4)
    /// Needs `drain()` to run anything (virtual time).
    public static let virtualTime = Capabilities(rawValue: 1 << 5)
    /// Can host actors and tasks (Swift concurrency): a ``SchedulerExecutor`` over the lane's scheduler, or Swift's
    /// default executor for the `default-executor` reference.
    public static let executor = Capabilities(rawValue: 1 << 6)
    /// The handle of plain work can cancel it (W7). Every SchedulerKit scheduler's can; the SwiftNIO adapters' cannot
    /// (`EventLoop.execute` and `NIOThreadPool.submit` have no cancellation).
    public static let cancellation = Capabilities(rawValue: 1 << 7)

    static let names: [(Capabilities, String)] = [
        (.serial, "serial"), (.asynchronous, "async"), (.realTimers, "timers"), (.scheduler, "scheduler"),
        (.flatRecursion, "flat-recursion"), (.virtualTime, "virtual-time"), (.executor, "executor"), (.cancellation, "cancel"),
    ]

    public var names: [String] { Self.names.filter { contains($0.0) }.map(\.1) }

    /// What a scheduler's declared traits let a workload do with it.
    init(traits: SchedulerTraits) {
        var capabilities: Capabilities = [.scheduler, .cancellation]
        if traits.contains(.serial) { capabilities.insert(.serial) }
        if traits.contains(.asynchronous) { capabilities.insert(.asynchronous) }
        if traits.contains(.timed) && !traits.contains(.virtualTime) { capabilities.insert(.realTimers) }
        if traits.contains(.virtualTime) { capabilities.insert(.virtualTime) }
        if !traits.isDisjoint(with: [.asynchronous, .trampoline, .virtualTime]) { capabilities.insert(.flatRecursion) }
        // Actor workloads have no driver for virtual time, so they need an asynchronous executor.
        if traits.contains(.asynchronous) && SchedulerExecutor.accepts(traits) { capabilities.insert(.executor) }
        self = capabilities
    }
}

/// A backend under test, or a raw primitive measured beside them (a reference row).
public struct Backend: Sendable {
    public let name: String
    public let summary: String
    /// The reference row this backend is reported against (its ratio column); nil for the references themselves.
    public let wraps: String?
    public let isReference: Bool
    public let capabilities: Capabilities
    private let makeGroup: @Sendable () -> LaneGroup

    init(name: String, summary: String, wraps: String?, isReference: Bool, capabilities: Capabilities,
         makeGroup: @escaping @Sendable () -> LaneGroup) {
        self.name = name
        self.summary = summary
        self.wraps = wraps
        self.isReference = isReference
        self.capabilities = capabilities
        self.makeGroup = makeGroup
    }

    /// A fresh instance of the backend (a new pool, new queues), for one round.
    public func instance() -> LaneGroup { makeGroup() }

    public func has(_ required: Capabilities) -> Bool { capabilities.isSuperset(of: required) }

    /// The `default-executor` reference hosts actors and tasks only: it is not a lane for the W1–W10 workloads.
    public var hostsOnlyActors: Bool { capabilities == .executor }

    /// A scheduler backend; `lacking` removes what its traits do not say (e.g. handles that cannot cancel).
    static func scheduler(_ name: String, _ summary: String, wraps: String?, traits: SchedulerTraits,
                          lacking: Capabilities = [], make: @escaping @Sendable () -> LaneGroup) -> Backend {
        Backend(name: name, summary: summary, wraps: wraps, isReference: false,
                capabilities: Capabilities(traits: traits).subtracting(lacking), makeGroup: make)
    }
}

extension Backend {
    public static let rawDispatchName = "raw-dispatch"
    public static let rawOperationQueueName = "raw-operationqueue"
    public static let directCallName = "direct-call"
    public static let handOffFloorName = "spin-handoff"
    public static let defaultExecutorName = "default-executor"

    /// Every backend and reference, in table order.
    public static let all: [Backend] = [
        .scheduler("dispatch", "DispatchQueueScheduler: private serial queue targeting the default global queue",
                   wraps: rawDispatchName, traits: DispatchQueueScheduler(name: "probe").traits) {
            LaneGroup { SchedulerLane(DispatchQueueScheduler(name: $0, targetQueue: .global())) }
        },
        .scheduler("threadpool", "ThreadPoolScheduler on a fresh ThreadPool with one worker per core",
                   wraps: rawDispatchName, traits: ThreadPoolTraits.value) {
            let pool = ThreadPool(name: "bench-pool")
            return LaneGroup(make: { SchedulerLane(pool.makeScheduler(name: $0)) }, close: { pool.shutdown() })
        },
        .scheduler("operationqueue", "OperationQueueScheduler: OperationQueue with maxConcurrentOperationCount = 1",
                   wraps: rawOperationQueueName, traits: OperationQueueScheduler(name: "probe").traits) {
            LaneGroup { SchedulerLane(OperationQueueScheduler(name: $0)) }
        },
        .scheduler("immediate", "Schedulers.immediate: runs inline, trampolines nested work",
                   wraps: directCallName, traits: Schedulers.immediate.traits) {
            LaneGroup { _ in SchedulerLane(Schedulers.immediate) }
        },
        .scheduler("subscription", "Schedulers.subscription from a thread with no current scheduler: a background Dispatch scheduler",
                   wraps: rawDispatchName, traits: Schedulers.subscription.traits) {
            LaneGroup { _ in SchedulerLane(Schedulers.subscription) }
        },
        .scheduler("test", "TestScheduler: virtual time, driven by run() on the producing thread",
                   wraps: nil, traits: TestScheduler().traits) {
            LaneGroup { SchedulerLane(TestScheduler(name: $0)) }
        },
        nioEventLoop,
        nioThreadPool,
        Backend(name: rawDispatchName, summary: "reference: DispatchQueue(label:).async on a serial queue",
                wraps: nil, isReference: true, capabilities: [.serial, .asynchronous, .realTimers]) {
            LaneGroup { DispatchLane(label: $0) }
        },
        Backend(name: "raw-dispatch-global", summary: "reference: DispatchQueue(label:target: .global()).async, the queue DispatchQueueScheduler wraps",
                wraps: nil, isReference: true, capabilities: [.serial, .asynchronous, .realTimers]) {
            LaneGroup { DispatchLane(label: $0, target: .global()) }
        },
        Backend(name: rawOperationQueueName, summary: "reference: OperationQueue, maxConcurrentOperationCount = 1, addOperation",
                wraps: nil, isReference: true, capabilities: [.serial, .asynchronous]) {
            LaneGroup { OperationQueueLane(label: $0) }
        },
        rawNIOExecute,
        Backend(name: handOffFloorName, summary: "reference: the floor of a hand-off with one allocation per task: the pool's node and lock-free queue, drained by a thread that never sleeps",
                wraps: nil, isReference: true, capabilities: [.serial]) {
            let lanes = Locked<[HandOffFloorLane]>([])
            return LaneGroup(make: { name in
                let lane = HandOffFloorLane(name: name)
                lanes.withLock { $0.append(lane) }
                return lane
            }, close: {
                for lane in lanes.withLock({ $0 }) { lane.stop() }
            })
        },
        Backend(name: directCallName, summary: "reference: calls the closure directly",
                wraps: nil, isReference: true, capabilities: [.serial]) {
            LaneGroup { _ in DirectLane() }
        },
        Backend(name: defaultExecutorName, summary: "reference: default actors and tasks on Swift's global concurrent executor",
                wraps: nil, isReference: true, capabilities: [.executor]) {
            LaneGroup { _ in DefaultExecutorLane() }
        },
    ]

    public static func named(_ name: String) -> Backend? { all.first { $0.name == name } }
}

/// The traits of a pool scheduler, read once from a throwaway one-thread pool.
private enum ThreadPoolTraits {
    static let value: SchedulerTraits = {
        let pool = ThreadPool(threadCount: 1, name: "probe")
        defer { pool.shutdown() }
        return pool.makeScheduler(name: "probe").traits
    }()
}
