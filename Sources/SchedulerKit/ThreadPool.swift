import DequeModule
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
// already starting, and the rest of a batch it had taken is cancelled too (the pool used to finish such a batch: up
// to 128 tasks started after `shutdown()` was called). Scheduling afterwards returns an already-cancelled handle.
// Pending work keeps its scheduler and the pool alive; worker threads hold only the core, so a pool nobody references
// any more shuts itself down in `deinit`.
//
// Concurrent schedulers (``ThreadPoolConcurrentScheduler``) share the workers, the ready FIFO and the timer heap: a
// ready entry is a *lane*, either a serial scheduler's queue or one of a concurrent scheduler's `width` slots.

/// A fixed set of worker threads (lock + condition variable) over which many serial ``ThreadPoolScheduler``s are
/// multiplexed.
public final class ThreadPool: Sendable {
    let core: ThreadPoolCore

    /// A process-wide pool with one worker per active processor. Never shut it down.
    public static let shared = ThreadPool(name: "shared-pool")

    /// Starts `threadCount` workers (default: the active processors).
    public init(threadCount: Int = ThreadPool.activeProcessorCount, name: String = "pool") {
        precondition(threadCount > 0, "ThreadPool(threadCount:): must be > 0, got \(threadCount)")
        core = ThreadPoolCore(threadCount: threadCount, name: name)
    }

    /// A scheduler's task into the core. Called as `pool.core.enqueue(…)` from the scheduler, the core was retained and
    /// released around every `schedule` (34 of the pool's 320 schedule instructions); here `core` is a field of the
    /// pool, which the caller holds, so no reference is taken.
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
    public func shutdown() { core.shutdown() }

    public var isShutDown: Bool { core.isShutDown }

    deinit { core.shutdown() }
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
// @unchecked Sendable: every `var` below is read and written only with `lock` held; the rest are atomics.
final class ThreadPoolCore: @unchecked Sendable {
    let threadCount: Int
    let name: String
    let lock = ConditionLock()
    // Unchecked: `lock` already makes every access exclusive, so the runtime exclusivity checks would only cost time.
    @exclusivity(unchecked) private var ready = Deque<PoolLane>()
    @exclusivity(unchecked) private var timers = TimerQueue<PoolTimer>()
    @exclusivity(unchecked) private var sleeping = 0
    @exclusivity(unchecked) private var shutDown = false
    @exclusivity(unchecked) private var threads: [pthread_t] = []

    /// `shutDown`, readable without the lock by producers (a stale false is caught when they take the lock).
    private let isShutDownFlag = Atomic<Bool>(false)

    /// Whether `shutdown()` has taken effect, without the lock: a worker reads it before each task it starts, so no
    /// task starts once it is set except one a worker was already starting.
    var isShuttingDown: Bool { isShutDownFlag.load(ordering: .acquiring) }

    /// Number of workers spinning for work (at most one).
    private let spinning = Atomic<Int>(0)
    /// When the spinner last looked for work (monotonic nanoseconds): it is presumed descheduled once this is stale.
    private let spinnerLastLook = Atomic<Int64>(0)
    /// Ready schedulers plus due-timer hints, read by the spinner without the lock.
    private let readyHint = Atomic<Int>(0)
    /// Earliest timer deadline in nanoseconds, read by the spinner without the lock.
    private let earliestTimer = Atomic<Int64>(.max)

    static let batchLimit = 128
    /// How long a worker spins for work before it sleeps.
    static let spinBudget: Int64 = 50_000
    /// How long since its latest look before a spinner no longer counts as ready to take new work.
    static let staleSpinner: Int64 = 10_000

    init(threadCount: Int, name: String) {
        self.threadCount = threadCount
        self.name = name
        lock.lock()
        for index in 0..<threadCount {
            threads.append(startThread(name: "pool-\(name)-\(index)") { [self] in workerLoop() })
        }
        lock.unlock()
    }

    var isShutDown: Bool {
        lock.lock()
        defer { lock.unlock() }
        return shutDown
    }

    // MARK: Submitting (called by ThreadPoolScheduler)

    /// Appends `task` to `scheduler`'s queue; false if the pool is shut down. With `afterDueTimers` (work whose
    /// deadline has passed), timers that came due earlier are queued first, so equal deadlines stay FIFO.
    func enqueue(_ task: ScheduledWork, on scheduler: ThreadPoolScheduler, afterDueTimers: Bool = false) -> Bool {
        if isShutDownFlag.load(ordering: .acquiring) { return false }
        if afterDueTimers { queueDueTimers() }
        if scheduler.queue.push(task) { makeReady(.serial(scheduler)) }
        return true
    }

    /// The same for a concurrent scheduler: the task joins its queue, and the queue gets one more slot (a turn in
    /// the ready FIFO) while fewer than its width are taken.
    func enqueue(_ task: ScheduledWork, on scheduler: ThreadPoolConcurrentScheduler, afterDueTimers: Bool = false)
        -> Bool
    {
        if isShutDownFlag.load(ordering: .acquiring) { return false }
        if afterDueTimers { queueDueTimers() }
        if scheduler.push(task) { makeReady(.concurrent(scheduler)) }
        return true
    }

    /// Before work that is due already: the timers that came due earlier go first.
    private func queueDueTimers() {
        lock.lock()
        let wake = !timers.isEmpty && moveDueTimers()
        lock.unlock()
        if wake { lock.signal() }
    }

    /// The caller holds `lane` (owns a serial queue, or took a slot of a concurrent one): put it in the ready FIFO
    /// (or, after shutdown, cancel what it holds).
    private func makeReady(_ lane: PoolLane) {
        lock.lock()
        if shutDown {
            lock.unlock()
            cancelQueued(on: lane)
            return
        }
        let wake = appendReady(lane)
        lock.unlock()
        if wake { lock.signal() }
    }

    /// Adds a timer entry; false if the pool is shut down.
    func addTimer(_ timer: PoolTimer, at deadline: SchedulerTime, sequence: UInt64? = nil) -> Bool {
        lock.lock()
        if shutDown {
            lock.unlock()
            return false
        }
        let wasEarliest = timers.earliestDeadline ?? .distantFuture
        timers.insert(timer, at: deadline, sequence: sequence)
        timers.purgeIfGrown(\.isDead)
        earliestTimer.store(timers.earliestDeadline?.nanoseconds ?? .max, ordering: .relaxed)
        let wake = deadline < wasEarliest && sleeping > 0
        lock.unlock()
        if wake { lock.signal() }  // a sleeper re-computes its time-out
        return true
    }

    func takeSequence() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return timers.takeSequence()
    }

    /// Delayed work on `lane` (a serial or a concurrent scheduler of this pool): queued at once when due, after the
    /// timers that came due before it, else put in the timer heap.
    func schedule(at deadline: SchedulerTime, on lane: PoolLane, _ work: @escaping @Sendable () -> Void)
        -> any Cancellable
    {
        let task = ScheduledWork(work)
        let accepted: Bool
        if deadline <= .monotonicNow() {
            switch lane {
            case .serial(let scheduler): accepted = enqueue(task, on: scheduler, afterDueTimers: true)
            case .concurrent(let scheduler): accepted = enqueue(task, on: scheduler, afterDueTimers: true)
            }
        } else {
            accepted = addTimer(.once(lane, task), at: deadline)
        }
        return accepted ? task : SettledWork.refused
    }

    /// Fixed-rate repeating work on `lane`: each tick re-arms the next after it ran (see ``rearm(_:after:)``).
    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, on lane: PoolLane,
        _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        ArgumentCheck.repeating(interval: interval, leeway: leeway)
        let work = RepeatingWork(work)
        let repeating = PoolRepeating(
            lane: lane, work: work, start: start, interval: interval, sequence: takeSequence())
        if !addTimer(.tick(repeating), at: start, sequence: repeating.sequence) {
            work.cancel()
        }
        return work
    }

    /// Lock held. Puts a lane the caller holds in the ready FIFO; returns whether a sleeper should be signalled.
    private func appendReady(_ lane: PoolLane) -> Bool {
        ready.append(lane)
        readyHint.add(1, ordering: .relaxed)
        return sleeping > 0 && !hasLiveSpinner
    }

    /// A worker is spinning and looked for work recently enough to take what was just made ready.
    private var hasLiveSpinner: Bool {
        spinning.load(ordering: .relaxed) != 0
            && SchedulerTime.monotonicNow().nanoseconds - spinnerLastLook.load(ordering: .relaxed) < Self.staleSpinner
    }

    // MARK: Workers

    private func workerLoop() {
        ThreadState.forThisThread.pointee.pool = self
        var justSpun = false
        lock.lock()
        while true {
            if !timers.isEmpty { moveDueTimers() }
            if let lane = ready.popFirst() {
                readyHint.subtract(1, ordering: .relaxed)
                justSpun = false
                // More ready work and nobody spinning for it: pass the wake-up on, so that work never waits on a
                // worker whose task blocks (e.g. on work of another scheduler).
                if !ready.isEmpty && sleeping > 0 && !hasLiveSpinner { lock.signal() }
                lock.unlock()
                let more: Bool
                switch lane {
                case .serial(let scheduler): more = runBatch(of: scheduler)
                case .concurrent(let scheduler): more = scheduler.runTurn(batchLimit: Self.batchLimit, core: self)
                }
                lock.lock()
                if more {
                    if shutDown {
                        lock.unlock()
                        cancelQueued(on: lane)
                        lock.lock()
                    } else {
                        ready.append(lane)
                        readyHint.add(1, ordering: .relaxed)
                    }
                }
                continue
            }
            if shutDown { break }
            if !justSpun, spinning.compareExchange(expected: 0, desired: 1, ordering: .relaxed).exchanged {
                lock.unlock()
                spinForWork()
                spinning.store(0, ordering: .relaxed)
                lock.lock()
                justSpun = true
                continue
            }
            justSpun = false
            sleeping += 1
            lock.wait(until: timers.earliestDeadline)
            sleeping -= 1
        }
        lock.unlock()
    }

    /// Runs one turn of a scheduler whose queue this worker owns: the tasks queued when the turn began, at most
    /// `batchLimit` of them. Work pushed during the turn (say, by a producer that each task wakes) waits for the next
    /// turn, behind the other ready schedulers; without that, such a pair could hold a worker for `batchLimit` tasks
    /// while a task of another scheduler waits (W5 saturated: p99 2 ms, now 45 µs). Returns true if it still owns
    /// the queue (more work), false once it has given ownership back. Once shutdown has begun it starts no more
    /// tasks: what is left is cancelled by the caller, also the rest of a batch already taken.
    private func runBatch(of scheduler: ThreadPoolScheduler) -> Bool {
        Schedulers.performAsCurrent(scheduler) {
            let last = scheduler.queue.newest
            var ran = 0
            while ran < Self.batchLimit {
                if isShutDownFlag.load(ordering: .acquiring) { return true }
                guard let task = scheduler.queue.pop() else { return scheduler.queue.relinquish() }
                let wasLast = Unmanaged.passUnretained(task).toOpaque() == last
                task.run()
                ran += 1
                if wasLast { break }
            }
            return true
        }
    }

    /// The caller holds `lane` and the pool is shut down: cancel everything queued on it, then give it back.
    private func cancelQueued(on lane: PoolLane) {
        switch lane {
        case .serial(let scheduler):
            repeat {
                while let task = scheduler.queue.pop() { task.cancel() }
            } while scheduler.queue.relinquish()
        case .concurrent(let scheduler):
            scheduler.cancelQueuedAndReleaseSlot()
        }
    }

    /// Bounded by `spinBudget`; yields the processor between looks and records each look (see `hasLiveSpinner`).
    private func spinForWork() {
        let start = SchedulerTime.monotonicNow().nanoseconds
        var look = start
        repeat {
            spinnerLastLook.store(look, ordering: .relaxed)
            if readyHint.load(ordering: .relaxed) > 0 || earliestTimer.load(ordering: .relaxed) <= look { return }
            sched_yield()
            look = SchedulerTime.monotonicNow().nanoseconds
        } while look - start < Self.spinBudget
    }

    /// Lock held. Moves every due timer into its scheduler's queue, in (deadline, sequence) order. Returns whether
    /// a sleeper should be signalled (a worker calling this pops next, and passes wake-ups on itself).
    @discardableResult
    private func moveDueTimers() -> Bool {
        let now = SchedulerTime.monotonicNow()
        var wake = false
        while let entry = timers.popDue(at: now) {
            let (lane, task) = entry.payload.task(due: entry.deadline, core: self)
            guard let task else { continue }
            if lane.push(task) { wake = appendReady(lane) || wake }
        }
        earliestTimer.store(timers.earliestDeadline?.nanoseconds ?? .max, ordering: .relaxed)
        return wake
    }

    /// After a repeating tick ran: arm the next tick on the fixed-rate grid.
    func rearm(_ repeating: PoolRepeating, after due: SchedulerTime) {
        let next = nextFixedRateTick(
            start: repeating.start, interval: repeating.interval,
            previous: due, now: .monotonicNow())
        if !addTimer(.tick(repeating), at: next, sequence: repeating.sequence) {
            repeating.work.cancel()
        }
    }

    // MARK: Shutdown

    func shutdown() {
        lock.lock()
        if shutDown {
            lock.unlock()
            return
        }
        shutDown = true
        isShutDownFlag.store(true, ordering: .releasing)
        let owned = ready
        ready.removeAll()
        readyHint.store(0, ordering: .relaxed)
        let pendingTimers = timers.removeAll()
        earliestTimer.store(.max, ordering: .relaxed)
        let workers = threads
        threads = []
        lock.broadcast()
        lock.unlock()
        // Outside the lock: dropping closures may run arbitrary deinit code.
        for lane in owned { cancelQueued(on: lane) }
        for timer in pendingTimers { timer.cancel() }
        let onPoolThread = ThreadState.forThisThread.pointee.pool === self
        for thread in workers {
            if onPoolThread { pthread_detach(thread) } else { pthread_join(thread, nil) }
        }
    }
}
