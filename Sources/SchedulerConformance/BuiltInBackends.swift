import Dispatch
import Foundation
import SchedulerKit

extension ConformanceBackend {
    /// One backend per SchedulerKit scheduler, with the rules each one honestly does not keep.
    public static let builtIn: [ConformanceBackend] = [
        immediate, subscription, dispatchQueue, threadPool, operationQueue, testScheduler, mainThread,
        concurrentDispatchQueue, threadPoolConcurrent, operationQueueConcurrent, callerOwnedOperationQueue,
    ]

    public static let immediate = ConformanceBackend(
        name: "ImmediateScheduler", traits: ImmediateScheduler.traits,
        declarations: [
            "S1":
                "Runs each task inline on the thread that schedules it, so tasks submitted from different threads run at the same time: serial per thread only.",
            "S4":
                "Runs each task inline on the submitting thread: tasks from different threads share no ordering, so unsynchronised state races.",
        ]
    ) {
        ConformanceSession(makeScheduler: { Schedulers.immediate })
    }

    public static let subscription = ConformanceBackend(
        name: "SubscriptionScheduler", traits: SubscriptionScheduler.traits,
        declarations: [
            "R2":
                "Runs work inline whenever a scheduler is current, so a recursive step rescheduled from inside a step runs on the stack (as RAC's subscriptionScheduler does).",
            "R3":
                "Recursion from inside a step runs inline on the stack (see R2), so its bookkeeping is the stack itself.",
        ]
    ) {
        ConformanceSession(makeScheduler: { Schedulers.subscription })
    }

    public static let dispatchQueue = ConformanceBackend(
        name: "DispatchQueueScheduler",
        traits: DispatchQueueScheduler.traits,
        declarations: [
            "S6":
                "libdispatch drains a serial queue for as long as it has work, so a queue that keeps re-enqueueing from its own tasks keeps its thread; with more such queues than Dispatch has threads, other queues on the same target starve (checked: a task on a seventh queue had not started after 2 s beside 6 busy queues on 2 cores)."
        ]
    ) {
        ConformanceSession(makeScheduler: { DispatchQueueScheduler(name: "conformance") })
    }

    /// Every check gets a private pool of 2 threads, shut down when the check ends.
    public static let threadPool = ConformanceBackend(
        name: "ThreadPoolScheduler",
        traits: ThreadPoolScheduler.traits
    ) {
        let pool = ThreadPool(threadCount: 2, name: "conformance-pool")
        return ConformanceSession(
            makeScheduler: { pool.makeScheduler(name: "conformance") }, tearDown: { pool.shutdown() })
    }

    public static let operationQueue = ConformanceBackend(
        name: "OperationQueueScheduler",
        traits: OperationQueueScheduler.traits
    ) {
        ConformanceSession(makeScheduler: { OperationQueueScheduler(name: "conformance") })
    }

    public static let testScheduler = ConformanceBackend(
        name: "TestScheduler", traits: TestScheduler.traits,
        pendingWorkOnRelease: .dropped
    ) {
        ConformanceSession(makeScheduler: { TestScheduler(name: "conformance") })
    }

    /// Checks call it from threads other than the main queue, so they judge its queued path; its inline path has
    /// unit tests of its own (`MainThreadSchedulerTests`).
    public static let mainThread = ConformanceBackend(
        name: "MainThreadScheduler", traits: MainThreadScheduler.traits,
        declarations: Dictionary(
            uniqueKeysWithValues: ExecutorRules.all.map {
                (
                    $0.id,
                    "Runs work inline when called on the main queue with nothing of its own queued, so an actor on it would run a job on the stack of the code that enqueued it; an executor must run jobs later (use DispatchQueueScheduler.main)."
                )
            })
    ) {
        ConformanceSession(makeScheduler: { Schedulers.mainThread })
    }

    public static let concurrentDispatchQueue = ConformanceBackend(
        name: "ConcurrentDispatchQueueScheduler", traits: ConcurrentDispatchQueueScheduler.traits,
        declarations: [
            "P2":
                "libdispatch brings up more threads for a concurrent queue when its blocks block, and nothing bounds how many of them run one queue's blocks: the width is what it reaches, not a limit (checked: 3 tasks that wait for one another ran all at once on 2 cores in 4 of 5 trials)."
        ]
    ) {
        ConformanceSession(makeScheduler: { ConcurrentDispatchQueueScheduler(name: "conformance") })
    }

    /// Width 2 on a private pool of 3 threads, beside a serial scheduler of the same pool in some checks.
    public static let threadPoolConcurrent = ConformanceBackend(
        name: "ThreadPoolConcurrentScheduler", traits: ThreadPoolConcurrentScheduler.traits
    ) {
        let pool = ThreadPool(threadCount: 3, name: "conformance-pool")
        return ConformanceSession(
            makeScheduler: { pool.makeConcurrentScheduler(name: "conformance", width: 2) },
            tearDown: { pool.shutdown() })
    }

    public static let operationQueueConcurrent = ConformanceBackend(
        name: "OperationQueueScheduler (width 2)", traits: OperationQueueScheduler.concurrentTraits
    ) {
        ConformanceSession(makeScheduler: {
            OperationQueueScheduler(name: "conformance", maxConcurrentOperationCount: 2)
        })
    }

    /// A serial queue the caller owns and shares: the check's schedulers all add to one queue, at high priority.
    public static let callerOwnedOperationQueue = ConformanceBackend(
        name: "OperationQueueScheduler (caller's queue)", traits: OperationQueueScheduler.traits
    ) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return ConformanceSession(makeScheduler: {
            OperationQueueScheduler(name: "conformance", operationQueue: queue, queuePriority: .high)
        })
    }
}
