import Dispatch
import Foundation
import SchedulerKit

extension ConformanceBackend {
    /// The catalog's SchedulerKit part: one entry per scheduler, with the rules each one honestly does not keep.
    public static let builtIn: [ConformanceBackend] = [
        dispatchQueue, threadPool, operationQueue, immediate, subscription, testScheduler, mainThread,
        concurrentDispatchQueue, threadPoolConcurrent, operationQueueConcurrent, callerOwnedOperationQueue,
    ]

    public static let immediate = ConformanceBackend(
        id: "immediate", name: "ImmediateScheduler",
        summary: "Schedulers.immediate: runs inline, trampolines nested work",
        traits: ImmediateScheduler.traits,
        declarations: [
            .s1:
                "Runs each task inline on the thread that schedules it, so tasks submitted from different threads run at the same time: serial per thread only.",
            .s4:
                "Runs each task inline on the submitting thread: tasks from different threads share no ordering, so unsynchronised state races.",
        ]
    ) { _ in
        ConformanceSession(makeScheduler: { Schedulers.immediate })
    }

    /// Its traits promise nothing (inline under a current scheduler), but the bench calls it from threads with none,
    /// where it always hands work to its background scheduler: asynchronous there.
    public static let subscription = ConformanceBackend(
        id: "subscription", name: "SubscriptionScheduler",
        summary: "Schedulers.subscription from a thread with no current scheduler: a background Dispatch scheduler",
        traits: SubscriptionScheduler.traits,
        declarations: [
            .r2:
                "Runs work inline whenever a scheduler is current, so a recursive step rescheduled from inside a step runs on the stack (as RAC's subscriptionScheduler does).",
            .r3:
                "Recursion from inside a step runs inline on the stack (see R2), so its bookkeeping is the stack itself.",
        ]
    ) { _ in
        ConformanceSession(makeScheduler: { Schedulers.subscription })
    }

    public static let dispatchQueue = ConformanceBackend(
        id: "dispatch", name: "DispatchQueueScheduler",
        summary: "DispatchQueueScheduler: private serial queue targeting the default global queue",
        traits: DispatchQueueScheduler.traits,
        declarations: [
            .s6:
                "libdispatch drains a serial queue for as long as it has work, so a queue that keeps re-enqueueing from its own tasks keeps its thread; with more such queues than Dispatch has threads, other queues on the same target starve (checked: a task on a seventh queue had not started after 2 s beside 6 busy queues on 2 cores)."
        ]
    ) { _ in
        ConformanceSession(makeNamedScheduler: { DispatchQueueScheduler(name: $0) })
    }

    /// Every check gets a private pool of 2 threads, the bench one of a thread per core, shut down at the end.
    public static let threadPool = ConformanceBackend(
        id: "threadpool", name: "ThreadPoolScheduler",
        summary: "ThreadPoolScheduler on a fresh ThreadPool with one worker per core",
        traits: ThreadPoolScheduler.traits
    ) { plan in
        let pool = ThreadPool(
            threadCount: plan.choose(conformance: 2, benchmark: plan.cores), name: plan.prefix + "-pool")
        return ConformanceSession(makeNamedScheduler: { pool.makeScheduler(name: $0) }, tearDown: { pool.shutdown() })
    }

    public static let operationQueue = ConformanceBackend(
        id: "operationqueue", name: "OperationQueueScheduler",
        summary: "OperationQueueScheduler: OperationQueue with maxConcurrentOperationCount = 1",
        traits: OperationQueueScheduler.traits
    ) { _ in
        ConformanceSession(makeNamedScheduler: { OperationQueueScheduler(name: $0) })
    }

    public static let testScheduler = ConformanceBackend(
        id: "test", name: "TestScheduler",
        summary: "TestScheduler: virtual time, driven by run() on the producing thread",
        traits: TestScheduler.traits, pendingWorkOnRelease: .dropped
    ) { _ in
        ConformanceSession(makeNamedScheduler: { TestScheduler(name: $0) })
    }

    /// Checks call it from threads other than the main queue, so they judge its queued path; its inline path has
    /// unit tests of its own (`MainThreadSchedulerTests`). It is not asynchronous (inline when called on the main
    /// queue with nothing of its own queued), so the E rules do not apply: an actor on it would run a job on the
    /// stack of the code that enqueued it (use `DispatchQueueScheduler.main` as an executor).
    public static let mainThread = ConformanceBackend(
        id: "main-thread", name: "MainThreadScheduler",
        summary: "Schedulers.mainThread: inline on the main queue when nothing of its own is queued, else queued there",
        traits: MainThreadScheduler.traits
    ) { _ in
        ConformanceSession(makeScheduler: { Schedulers.mainThread })
    }

    public static let concurrentDispatchQueue = ConformanceBackend(
        id: "concurrent-dispatch", name: "ConcurrentDispatchQueueScheduler",
        summary: "ConcurrentDispatchQueueScheduler: a private concurrent queue (width: the cores)",
        traits: ConcurrentDispatchQueueScheduler.traits,
        declarations: [
            .p2:
                "libdispatch brings up more threads for a concurrent queue when its blocks block, and nothing bounds how many of them run one queue's blocks: the width is what it reaches, not a limit (checked: 3 tasks that wait for one another ran all at once on 2 cores in 4 of 5 trials)."
        ]
    ) { _ in
        ConformanceSession(makeNamedScheduler: { ConcurrentDispatchQueueScheduler(name: $0) })
    }

    /// Checks: width 2 on a private pool of 3 threads, beside a serial scheduler of the same pool in some checks. The
    /// bench: every core's worker, all of them as its width.
    public static let threadPoolConcurrent = ConformanceBackend(
        id: "threadpool-concurrent", name: "ThreadPoolConcurrentScheduler",
        summary: "ThreadPoolConcurrentScheduler on a fresh ThreadPool with one worker per core (width: all of them)",
        traits: ThreadPoolConcurrentScheduler.traits
    ) { plan in
        let pool = ThreadPool(
            threadCount: plan.choose(conformance: 3, benchmark: plan.cores), name: plan.prefix + "-pool")
        let width = plan.choose(conformance: 2, benchmark: plan.cores)
        return ConformanceSession(
            makeNamedScheduler: { pool.makeConcurrentScheduler(name: $0, width: width) }, tearDown: { pool.shutdown() })
    }

    /// Checks at width 2; the bench at the cores.
    public static let operationQueueConcurrent = ConformanceBackend(
        id: "operationqueue-concurrent", name: "OperationQueueScheduler (width 2)",
        summary: "OperationQueueScheduler with maxConcurrentOperationCount = the cores",
        traits: OperationQueueScheduler.concurrentTraits
    ) { plan in
        let width = plan.choose(conformance: 2, benchmark: plan.cores)
        return ConformanceSession(makeNamedScheduler: {
            OperationQueueScheduler(name: $0, maxConcurrentOperationCount: width)
        })
    }

    /// A serial queue the caller owns and shares: the check's schedulers all add to one queue, at high priority.
    public static let callerOwnedOperationQueue = ConformanceBackend(
        id: "operationqueue-callers-queue", name: "OperationQueueScheduler (caller's queue)",
        summary: "OperationQueueScheduler adding to a serial queue the caller owns, at high priority",
        traits: OperationQueueScheduler.traits
    ) { _ in
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return ConformanceSession(makeScheduler: {
            OperationQueueScheduler(name: "conformance", operationQueue: queue, queuePriority: .high)
        })
    }
}
