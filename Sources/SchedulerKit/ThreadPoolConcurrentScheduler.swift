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
        /// Jobs kept for the thread that made them (``pushGlobalJob(_:core:)``) so far, and those taken from the queue:
        /// kept jobs are queued and taken in order, so the n-th taken is the n-th kept.
        var keptJobs: UInt64 = 0
        var keptJobsTaken: UInt64 = 0
        /// The kept job the pending check watches (0: no check pending).
        var checkWatches: UInt64 = 0
    }

    /// A queued task, or a job of Swift's global executor when the pool is the global executor: a job is queued as
    /// it is, since the runtime made it to be queued (Dispatch queues it with no allocation either), and one
    /// `ScheduledWork` per job was a third of that path's allocations.
    private enum Entry {
        case work(ScheduledWork)
        case globalJob(UnownedJob)
        /// A job kept for the thread that made it. Its number is its place among the kept jobs: they are queued and
        /// taken in order, so the queue need not hold it (a wider entry cost W9 a quarter more bytes a queued task).
        case keptJob(UnownedJob)

        func run() {
            switch self {
            case .work(let task): task.run()
            case .globalJob(let job), .keptJob(let job): ScheduledWork.runOnGenericExecutor(job)
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

    /// Queues a job of Swift's global executor (``ThreadPool/unsafeInstallAsGlobalExecutor()``); as ``push(_:)``,
    /// except that a job made inside a job of this scheduler, on the pool thread running it, while nothing else is
    /// queued, is *kept* for that thread: it takes no new slot (no other worker is woken for it), and the turn
    /// running there takes it next, once the job that made it returns or suspends. So a task started and then
    /// awaited (`await Task { }.value`, a continuation resumed by the task it waits for, a consumer started before a
    /// burst it will read) runs on the thread whose caches hold its data, with no wake-up, as the "next job" slot of
    /// Go's and Tokio's schedulers does. A job made while others are queued takes a slot as before, so a fan-out
    /// still spreads over the workers; and a kept job its thread has not taken within ``keptJobGrace`` (its maker
    /// blocked the thread, or runs on) is handed to the other workers (GE6).
    func pushGlobalJob(_ job: UnownedJob, core: ThreadPoolCore) -> Bool {
        guard ThreadState.forThisThread.pointee.pool === core, Schedulers.current === self else {
            return push(.globalJob(job))
        }
        // This thread is inside a turn of this scheduler, which holds a slot and takes queued entries until none is
        // left: a kept job among them.
        let (takesSlot, armsCheck) = state.withLock { state -> (Bool, Bool) in
            guard state.queue.isEmpty else {
                state.queue.append(.globalJob(job))
                guard state.slots < width else { return (false, false) }
                state.slots += 1
                return (true, false)
            }
            state.keptJobs += 1
            state.queue.append(.keptJob(job))
            guard state.checkWatches == 0 else { return (false, false) }
            state.checkWatches = state.keptJobs
            return (false, true)
        }
        if armsCheck { _ = core.addTimer(.keptJobCheck(self), at: .monotonicNow().advanced(by: Self.keptJobGrace)) }
        return takesSlot
    }

    /// How long a kept job may wait for its thread before the other workers may take it.
    static let keptJobGrace: Duration = .milliseconds(1)

    /// What a due check of kept jobs finds.
    enum KeptJobCheck {
        /// The job it watched is still queued: it waited a grace, so an empty task joins behind it and takes a slot.
        case stranded
        /// That job was taken, but a later one is queued: watch it for another grace.
        case watchAgain
        /// No kept job waits.
        case done
    }

    /// The pool's timer of the check is due (the pool's lock held; this scheduler's lock is only ever taken inside it).
    func keptJobCheckDue() -> KeptJobCheck {
        state.withLock { state in
            if state.keptJobsTaken < state.checkWatches {
                state.checkWatches = 0
                return .stranded
            }
            guard state.keptJobsTaken < state.keptJobs else {
                state.checkWatches = 0
                return .done
            }
            state.checkWatches = state.keptJobs
            return .watchAgain
        }
    }

    private func push(_ entry: Entry) -> Bool {
        state.withLock { state in
            state.queue.append(entry)
            guard state.slots < width else { return false }
            state.slots += 1
            return true
        }
    }

    /// One turn of a slot on a worker: runs queued tasks one at a time, at most `batchLimit`. Returns true if it
    /// keeps the slot (more work: the caller queues the turn again, or cancels what is queued after shutdown), false
    /// once the queue was empty and the slot was given back. Stops before the next task once shutdown has begun.
    func runTurn(batchLimit: Int, core: ThreadPoolCore) -> Bool {
        Schedulers.performAsCurrent(self) {
            for _ in 0..<batchLimit {
                if core.isShuttingDown { return true }
                let next = state.withLock { state -> Entry? in
                    if let task = state.queue.popFirst() {
                        if case .keptJob = task { state.keptJobsTaken += 1 }
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
        // A global job is never queued here after shutdown: a pool that is the global executor cannot shut down.
        for case .work(let task) in queued { task.cancel() }
    }
}
