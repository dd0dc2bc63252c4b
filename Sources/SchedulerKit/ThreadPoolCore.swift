import DequeModule
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Sendable though unchecked: every `var` below is read and written only with `lock` held; the rest are atomics.
final class ThreadPoolCore: @unchecked Sendable {
    let threadCount: Int
    let name: String
    let lock = ConditionLock()
    // Unchecked: `lock` already makes every access exclusive, so the runtime exclusivity checks would only cost time.
    @exclusivity(unchecked) var ready = Deque<PoolLane>()
    @exclusivity(unchecked) var timers = TimerQueue<PoolTimer>()
    /// When the timers' cancelled entries are next dropped (``moveDueTimers()``): a cancelled one-shot holds its
    /// scheduler's lane, so it must not wait for its deadline to be let go (rule N1).
    @exclusivity(unchecked) var nextTimerSweep = SchedulerTime.monotonicNow()
    static let timerSweepInterval: Duration = .seconds(1)
    @exclusivity(unchecked) var sleeping = 0
    @exclusivity(unchecked) var shutDown = false
    @exclusivity(unchecked) var threads: [pthread_t] = []

    /// `shutDown`, readable without the lock by producers (a stale false is caught when they take the lock).
    let isShutDownFlag = Atomic<Bool>(false)

    /// Whether `shutdown()` has taken effect, without the lock: a worker reads it before each task it starts, so no
    /// task starts once it is set except one a worker was already starting.
    var isShuttingDown: Bool { isShutDownFlag.load(ordering: .acquiring) }

    /// Number of workers spinning for work (at most one).
    let spinning = Atomic<Int>(0)
    /// When the spinner last looked for work (monotonic nanoseconds): it is presumed descheduled once this is stale.
    let spinnerLastLook = Atomic<Int64>(0)
    /// Ready schedulers plus due-timer hints, read by the spinner without the lock.
    let readyHint = Atomic<Int>(0)
    /// Earliest timer deadline in nanoseconds, read by the spinner without the lock.
    let earliestTimer = Atomic<Int64>(.max)

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

    /// How many timers the pool holds now (tests: a sleep of the default executor waits on one of these).
    var timerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return timers.count
    }

    /// Before work that is due already: the timers that came due earlier go first.
    func queueDueTimers() {
        lock.lock()
        let wake = !timers.isEmpty && moveDueTimers()
        lock.unlock()
        if wake { lock.signal() }
    }

    /// The caller holds `lane` (owns a serial queue, or took a slot of a concurrent one): put it in the ready FIFO
    /// (or, after shutdown, cancel what it holds).
    func makeReady(_ lane: PoolLane) {
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
    func appendReady(_ lane: PoolLane) -> Bool {
        ready.append(lane)
        readyHint.add(1, ordering: .relaxed)
        return sleeping > 0 && !hasLiveSpinner
    }

    /// A worker is spinning and looked for work recently enough to take what was just made ready.
    var hasLiveSpinner: Bool {
        spinning.load(ordering: .relaxed) != 0
            && SchedulerTime.monotonicNow().nanoseconds - spinnerLastLook.load(ordering: .relaxed) < Self.staleSpinner
    }
}
