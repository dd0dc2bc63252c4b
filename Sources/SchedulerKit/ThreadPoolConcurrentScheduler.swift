import DequeModule

/// A concurrent scheduler on the workers of a ``ThreadPool``: up to ``width`` of its tasks run at once, beside the
/// pool's serial schedulers (RxSwift's `ConcurrentDispatchQueueScheduler`, on a pool you size and shut down).
///
/// - Tasks start in the order they were queued and may finish in any order; `width` of them run at once whenever
///   that many are queued and the pool has `width` free workers (`width` ≤ the pool's threads).
/// - Each running task holds one of `width` *slots*; a slot is a turn in the pool's ready FIFO that runs queued
///   tasks one after another, at most a batch of them, and then goes to the back of the FIFO, so a busy concurrent
///   scheduler takes its turns with the serial ones and never starves them.
/// - Delayed and repeating work share the pool's timer heap; a repeating tick re-arms the next only after it ran,
///   so ticks of one repetition never overlap. `Schedulers.current === self` inside every task; `cancel()` is
///   truthful; ``ThreadPool/shutdown()`` shuts the whole pool down, and no queued task starts after it.
public final class ThreadPoolConcurrentScheduler: PooledScheduler, TimedScheduler, ConcurrentScheduler,
    ShutdownScheduler
{
    public let name: String
    public let pool: ThreadPool
    public let width: Int
    private let state = Locked(State())

    private struct State {
        var queue = Deque<Entry>()
        /// Slots out in the ready FIFO or running; at most `width`.
        var slots = 0
        /// Jobs queued for the turn running on their thread (``pushForRunningTurn(_:queued:)``) so far, and those
        /// taken: they are queued and taken in order, so the n-th taken is the n-th queued.
        var turnJobs: UInt64 = 0
        var turnJobsTaken: UInt64 = 0

        /// Queues `entry`; true if it took a new slot (fewer than `width` were out), which the caller must put in the
        /// ready FIFO.
        mutating func append(_ entry: Entry, width: Int) -> Bool {
            queue.append(entry)
            guard slots < width else { return false }
            slots += 1
            return true
        }
    }

    /// A queued task, or a job of Swift's executor queued as it is (the pool as the global or default executor): the
    /// runtime made the job to be queued (Dispatch queues it with no allocation either), and one `ScheduledWork` per
    /// job was a third of that path's allocations.
    private enum Entry {
        case work(ScheduledWork)
        case job(UnownedJob)
        /// A job queued for the turn running on its thread. Its number is its place among such jobs: they are queued
        /// and taken in order, so the queue need not hold it (a wider entry cost W9 a quarter more bytes a queued
        /// task).
        case turnJob(UnownedJob)

        func run() {
            switch self {
            case .work(let task): task.run()
            case .job(let job), .turnJob(let job): ScheduledWork.runOnGenericExecutor(job)
            }
        }
    }

    init(pool: ThreadPool, name: String, width: Int) {
        self.pool = pool
        self.name = name
        self.width = width
    }

    /// The promises every scheduler of this type keeps (see ``SchedulerTraits``).
    public static let traits: SchedulerTraits = [
        .concurrent, .asynchronous, .timed, .repeating, .fixedRate, .shutdown, .setsCurrent, .sharedThreads,
    ]

    var lane: PoolLane { .concurrent(self) }

    func enqueue(_ task: ScheduledWork) -> Bool { pool.enqueue(task, on: self) }

    // MARK: Lanes (called by the pool)

    /// Queues `task`; true if the caller took a new slot and must put it in the ready FIFO.
    func push(_ task: ScheduledWork) -> Bool { push(.work(task)) }

    /// Queues a job of Swift's executor as it is; as ``push(_:)``.
    func push(job: UnownedJob) -> Bool { push(.job(job)) }

    /// Queues `job` for the turn of this scheduler that runs on the calling thread (the caller is inside one): while
    /// nothing else is queued, it takes no new slot, since that turn takes queued entries until none is left and so
    /// takes it next; `queued` is then told its number among the jobs so queued (1, 2, …), under this scheduler's
    /// lock. While others are queued it joins them as ``push(job:)`` does. True if the caller took a new slot.
    func pushForRunningTurn(_ job: UnownedJob, queued: (UInt64) -> Void) -> Bool {
        state.withLock { state in
            guard state.queue.isEmpty else { return state.append(.job(job), width: width) }
            state.turnJobs += 1
            state.queue.append(.turnJob(job))
            queued(state.turnJobs)
            return false
        }
    }

    /// Runs `body` under this scheduler's lock with how many jobs were queued for a running turn so far and how many
    /// of them were taken.
    func withTurnJobCounts<Result>(_ body: (_ queued: UInt64, _ taken: UInt64) -> Result) -> Result {
        state.withLock { body($0.turnJobs, $0.turnJobsTaken) }
    }

    private func push(_ entry: Entry) -> Bool { state.withLock { $0.append(entry, width: width) } }

    /// One turn of a slot on a worker: runs queued tasks one at a time, at most `batchLimit`. Returns true if it
    /// keeps the slot (more work: the caller queues the turn again, or cancels what is queued after shutdown), false
    /// once the queue was empty and the slot was given back. Stops before the next task once shutdown has begun.
    func runTurn(batchLimit: Int, core: ThreadPoolCore) -> Bool {
        Schedulers.performAsCurrent(self) {
            for _ in 0..<batchLimit {
                if core.isShuttingDown { return true }
                let next = state.withLock { state -> Entry? in
                    if let task = state.queue.popFirst() {
                        if case .turnJob = task { state.turnJobsTaken += 1 }
                        return task
                    }
                    state.slots -= 1
                    return nil
                }
                guard let next else { return false }
                next.run()
            }
            return true
        }
    }

    /// After shutdown, by the holder of a slot: cancels every queued task (outside the lock, since dropping a closure
    /// runs deinit code) and gives the slot back.
    func cancelQueuedAndReleaseSlot() {
        let queued = state.withLock { state -> Deque<Entry> in
            state.slots -= 1
            defer { state.queue.removeAll() }
            return state.queue
        }
        // A job of Swift's executor is never queued here after shutdown: a pool that is one cannot shut down.
        for case .work(let task) in queued { task.cancel() }
    }
}
