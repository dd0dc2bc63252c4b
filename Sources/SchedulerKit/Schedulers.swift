import Dispatch

/// RAC's class methods: the current scheduler, the shared schedulers, and factories for the backends.
public enum Schedulers {
    /// Runs work now on the caller's thread, trampolining nested work.
    public static let immediate = ImmediateScheduler()

    /// Inline when a current scheduler exists, else on a background serial scheduler.
    public static let subscription = SubscriptionScheduler()

    /// The main queue. On Linux it runs only while the main thread pumps it: see ``DispatchQueueScheduler/main``.
    public static var main: DispatchQueueScheduler { DispatchQueueScheduler.main }

    /// The main queue with no extra hop: inline when already there and nothing of its own is queued.
    public static var mainThread: MainThreadScheduler { MainThreadScheduler.shared }

    /// A new concurrent scheduler on a private concurrent Dispatch queue (RxSwift's
    /// `ConcurrentDispatchQueueScheduler(qos:)`).
    public static func concurrent(qos: DispatchQoS = .default, name: String = "concurrent")
        -> ConcurrentDispatchQueueScheduler
    {
        ConcurrentDispatchQueueScheduler(name: name, qos: qos)
    }

    /// A new serial scheduler on Dispatch, targeting the global queue of `qos`.
    public static func background(qos: DispatchQoS.QoSClass = .default, name: String = "background")
        -> DispatchQueueScheduler
    {
        DispatchQueueScheduler(name: name, targetQueue: .global(qos: qos))
    }

    /// RAC's `scheduler(priority:name:)`: a new serial Dispatch scheduler at one of RAC's four priorities.
    public static func scheduler(priority: SchedulerPriority = .default, name: String = "scheduler")
        -> DispatchQueueScheduler
    {
        background(qos: priority.qos, name: name)
    }

    /// A new serial scheduler on the process-wide ``ThreadPool/shared`` pool.
    public static func pooled(name: String = "pooled") -> ThreadPoolScheduler {
        ThreadPool.shared.makeScheduler(name: name)
    }

    /// A new serial scheduler on an `OperationQueue` with `maxConcurrentOperationCount = 1`.
    public static func operationQueue(name: String = "operation-queue") -> OperationQueueScheduler {
        OperationQueueScheduler(name: name)
    }
}

/// RAC's four scheduler priorities, mapped to Dispatch quality-of-service classes.
public enum SchedulerPriority: String, Sendable, CaseIterable {
    case high, `default`, low, background

    public var qos: DispatchQoS.QoSClass {
        switch self {
        case .high: .userInitiated
        case .default: .default
        case .low: .utility
        case .background: .background
        }
    }
}
