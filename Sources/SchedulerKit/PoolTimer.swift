import Synchronization

/// A timer heap entry: one-shot work, or the next tick of repeating work.
enum PoolTimer {
    case once(PoolLane, ScheduledWork)
    case tick(PoolRepeating)
    /// Something of the pool's own to look at when due, rather than work (the global executor's watch on a kept job).
    case check(any PoolTimerCheck)

    var isDead: Bool {
        switch self {
        case .once(_, let task): task.isCancelled
        case .tick(let repeating): repeating.work.isCancelled
        case .check: false
        }
    }

    func cancel() {
        switch self {
        case .once(_, let task): task.cancel()
        case .tick(let repeating): repeating.work.cancel()
        case .check: break
        }
    }

    /// The task to queue when the entry is due (nil if cancelled).
    func task(due: SchedulerTime, core: ThreadPoolCore) -> (PoolLane, ScheduledWork?) {
        switch self {
        case .once(let lane, let task):
            return (lane, task.isCancelled ? nil : task)
        case .tick(let repeating):
            guard !repeating.work.isCancelled else { return (repeating.lane, nil) }
            let tick = PoolTick(repeating)
            return (repeating.lane, ScheduledWork { [core] in tick.run(after: due, core: core) })
        case .check(let check):
            return check.due(at: due, core: core)
        }
    }
}

/// A due tick of repeating work, queued as a task of its lane. A queued task the pool drops without running it (at
/// its shutdown, which cancels what is queued) lets go of its closure, and with it of this tick: a tick released
/// without running ends its repetition, so the repetition's handle says cancelled and frees its closure, as every
/// task accepted before a shutdown ends as ran or as cancelled.
final class PoolTick: Sendable {
    private let repeating: PoolRepeating
    private let ran = Atomic<Bool>(false)

    init(_ repeating: PoolRepeating) { self.repeating = repeating }

    func run(after due: SchedulerTime, core: ThreadPoolCore) {
        ran.store(true, ordering: .releasing)
        if repeating.work.runTick().goesOn { core.rearm(repeating, after: due) }
    }

    deinit {
        if !ran.load(ordering: .acquiring) { repeating.work.cancel() }
    }
}

/// A timer of the pool that checks something when due (``PoolTimer/check(_:)``): the extension point through which
/// the pool as Swift's global executor watches the jobs it keeps for a thread (`PoolKeptJobs`).
protocol PoolTimerCheck: AnyObject, Sendable {
    /// Called with the pool's lock held, as the check's timer comes due: the lane and the work to queue there (nil:
    /// nothing). It may insert timers into `core.timers` directly (the lock is held).
    func due(at due: SchedulerTime, core: ThreadPoolCore) -> (PoolLane, ScheduledWork?)
}

/// Repeating work on a pool: its grid and its place among equal deadlines.
final class PoolRepeating: Sendable {
    /// Where its ticks run; a tick re-arms the next only after it ran, so ticks never overlap, also on a concurrent
    /// scheduler.
    let lane: PoolLane
    let work: RepeatingWork
    let start: SchedulerTime
    let interval: Duration
    let sequence: UInt64

    init(
        lane: PoolLane, work: RepeatingWork, start: SchedulerTime, interval: Duration, sequence: UInt64
    ) {
        self.lane = lane
        self.work = work
        self.start = start
        self.interval = interval
        self.sequence = sequence
    }
}
