import DequeModule
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Design
//
// Queues. Each serial scheduler has a lock-free multi-producer, single-consumer task queue (``TaskQueue``) with an
// ownership flag: the producer that finds the queue idle takes ownership and puts the scheduler in the pool's
// *ready* FIFO; a worker pops the scheduler from that FIFO, runs the tasks that were queued when it did (at most
// `batchLimit`) with `Schedulers.current` set, and then either puts it back at the end of the FIFO (more work: one
// busy scheduler, even one whose tasks make more work arrive, cannot starve the others) or gives ownership back.
// Only the owner consumes a queue, so a scheduler's tasks never overlap and run in queue order. Scheduling is
// therefore one allocation (the node, which is also the handle), one atomic exchange and one store; the pool's lock
// (a pthread mutex with a condition variable) is taken only when a scheduler goes from idle to ready, and guards the
// ready FIFO, the timer heap and the sleeper count. No lock is held while user work runs.
//
// Hand-off without a wake-up: a worker that runs out of ready schedulers first *spins* for at most `spinBudget`
// (one spinner at a time, `sched_yield` between looks, so a spinner gives its core to any runnable thread) before it
// sleeps on the condition variable. A scheduler made ready signals a sleeper only when no *live* spinner exists. A
// ping-pong between two schedulers thus bounces between a running and a spinning worker and never waits for a futex
// wake. A spinner is live while its latest look is recent (`staleSpinner`): on an oversubscribed machine a yield can
// lose the core for a whole time slice, and work must not wait milliseconds for a spinner that is not running, so
// a producer that finds the spinner stale signals a sleeper too. Correctness does not rest on the spinner: a worker
// re-checks the ready FIFO under the lock before it sleeps, a producer that saw no live spinner signals, and a worker
// that takes a scheduler while others are still ready and nobody spins signals a sleeper, so ready work never waits
// on a worker whose task blocks (say, on work of another scheduler). Spinning costs CPU only after a task, at most
// `spinBudget` each time; an idle pool sleeps (bench W14 measures it). What is left: a spinner that loses its core
// right after a look (the machine is oversubscribed by other processes) holds what it was trusted with until it
// runs again; waking a sleeper on every hand-off would close that window at the price of a futex wake per hand-off.
//
// Timers: one (deadline, sequence) heap. Workers move due entries into their schedulers' queues at the top of each
// loop, so timers are not starved by busy schedulers and immediate work is never held behind far-future timers;
// sleepers wait with a time-out at the earliest deadline (on CLOCK_MONOTONIC). Repeating work re-arms itself on the
// fixed-rate grid after each tick ran, so ticks never overlap and missed ticks coalesce.
//
// Shutdown: under the lock, mark the pool shut down and take the ready FIFO and the timers; outside it, cancel every
// queued task and timer (exactly once: the task's own atomic state decides ran vs cancelled), wake every worker, and
// join them (or detach them when called from a pool thread, so shutdown from a pool task cannot deadlock). A
// producer that takes ownership of an idle queue after shutdown cancels what the queue holds; a worker checks the
// shut-down flag before every task it starts, so once shutdown has begun no task starts except one a worker was
// already starting, and the rest of a batch it had taken is cancelled too (finishing it would start up to
// `batchLimit` tasks after `shutdown()` returned). Scheduling afterwards returns an already-cancelled handle.
// Pending work keeps its scheduler and the pool alive; worker threads hold only the core, so a pool nobody references
// any more shuts itself down in `deinit`.
//
// Concurrent schedulers (``ThreadPoolConcurrentScheduler``) share the workers, the ready FIFO and the timer heap: a
// ready entry is a *lane*, either a serial scheduler's queue or one of a concurrent scheduler's `width` slots.

/// A fixed set of worker threads (lock + condition variable) over which many serial ``ThreadPoolScheduler``s are
/// multiplexed.
public final class ThreadPool: Sendable {
    let core: ThreadPoolCore
    /// What takes Swift's global jobs while this pool is the global executor (``unsafeInstallAsGlobalExecutor()``).
    let globalJobs = Locked<GlobalJobReplacement?>(nil)

    /// A process-wide pool with one worker per active processor. Never shut it down.
    public static let shared = ThreadPool(name: "shared-pool")

    /// Starts `threadCount` workers (default: the active processors).
    public init(threadCount: Int = ThreadPool.activeProcessorCount, name: String = "pool") {
        precondition(threadCount > 0, "ThreadPool(threadCount:): must be > 0, got \(threadCount)")
        core = ThreadPoolCore(threadCount: threadCount, name: name)
    }

    /// A scheduler's task into the core. `core` is a field of the pool, which the calling scheduler holds, so the call
    /// takes no reference to it (a plain `pool.core.enqueue(…)` would retain and release the core on every `schedule`).
    func enqueue(_ task: ScheduledWork, on scheduler: ThreadPoolScheduler) -> Bool {
        Unmanaged.passUnretained(core)._withUnsafeGuaranteedRef { $0.enqueue(task, on: scheduler) }
    }

    /// The same for a concurrent scheduler's task.
    func enqueue(_ task: ScheduledWork, on scheduler: ThreadPoolConcurrentScheduler) -> Bool {
        Unmanaged.passUnretained(core)._withUnsafeGuaranteedRef { $0.enqueue(task, on: scheduler) }
    }

    public static var activeProcessorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    public var threadCount: Int { core.threadCount }
    public var name: String { core.name }

    /// A new serial scheduler whose tasks run on this pool's workers.
    public func makeScheduler(name: String) -> ThreadPoolScheduler {
        ThreadPoolScheduler(pool: self, name: name)
    }

    /// A new concurrent scheduler that runs up to `width` of its tasks at once on this pool's workers (default:
    /// all of them), beside the pool's serial schedulers.
    public func makeConcurrentScheduler(name: String, width: Int? = nil) -> ThreadPoolConcurrentScheduler {
        let width = width ?? threadCount
        precondition(
            (1...threadCount).contains(width),
            "makeConcurrentScheduler(width:): must be 1...\(threadCount) (the pool's threads), got \(width)")
        return ThreadPoolConcurrentScheduler(pool: self, name: name, width: width)
    }

    /// Cancels every task and timer that has not started, stops the workers and waits for them (unless called from
    /// one of them). Idempotent. Scheduling afterwards returns an already-cancelled handle.
    public func shutdown() {
        precondition(
            !isGlobalExecutor,
            "ThreadPool.shutdown(): \(name) is Swift's global executor; every task would stop. Call unsafeUninstallAsGlobalExecutor() first"
        )
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
            precondition(
                !isDefaultExecutor,
                "ThreadPool.shutdown(): \(name) is Swift's default executor for the rest of the process; every task would stop"
            )
        }
        core.shutdown()
    }

    public var isShutDown: Bool { core.isShutDown }

    deinit {
        // The last reference can go on one of the pool's own workers, with the core's lock held (a ready lane holds
        // its scheduler, which holds the pool, until the worker is done with it): shutting down there would take that
        // lock again and stop both workers for good. Such a worker hands the shutdown to a thread of Dispatch's.
        if ThreadState.forThisThread.pointee.pool === core {
            let core = core
            DispatchQueue.global().async { core.shutdown() }
        } else {
            core.shutdown()
        }
    }
}

/// What a worker takes from the ready FIFO: the queue of a serial scheduler (whose ownership the entry carries), or
/// one slot of a concurrent scheduler (a concurrent scheduler of width w has at most w entries out at once).
enum PoolLane {
    case serial(ThreadPoolScheduler)
    case concurrent(ThreadPoolConcurrentScheduler)

    /// Queues `task`; true if the caller now holds the lane and must make it ready.
    func push(_ task: ScheduledWork) -> Bool {
        switch self {
        case .serial(let scheduler): scheduler.queue.push(task)
        case .concurrent(let scheduler): scheduler.push(task)
        }
    }
}

/// What worker threads reference (not the public ``ThreadPool``, so that the pool can be released and shut down).
