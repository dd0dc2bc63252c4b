/// A timer heap entry: one-shot work, or the next tick of repeating work.
enum PoolTimer {
    case once(PoolLane, ScheduledWork)
    case tick(PoolRepeating)
    /// A check that a job kept for a thread of the global executor's scheduler has not stranded there
    /// (`ThreadPoolConcurrentScheduler.keptJobCheckDue()`).
    case keptJobCheck(ThreadPoolConcurrentScheduler)

    var isDead: Bool {
        switch self {
        case .once(_, let task): task.isCancelled
        case .tick(let repeating): repeating.work.isCancelled
        case .keptJobCheck: false
        }
    }

    func cancel() {
        switch self {
        case .once(_, let task): task.cancel()
        case .tick(let repeating): repeating.work.cancel()
        case .keptJobCheck: break
        }
    }

    /// The task to queue when the entry is due (nil if cancelled).
    func task(due: SchedulerTime, core: ThreadPoolCore) -> (PoolLane, ScheduledWork?) {
        switch self {
        case .once(let lane, let task):
            return (lane, task.isCancelled ? nil : task)
        case .tick(let repeating):
            guard !repeating.work.isCancelled else { return (repeating.lane, nil) }
            return (
                repeating.lane,
                ScheduledWork { [core] in
                    if repeating.work.runTick().goesOn { core.rearm(repeating, after: due) }
                }
            )
        case .keptJobCheck(let scheduler):
            switch scheduler.keptJobCheckDue() {
            case .stranded: return (scheduler.lane, ScheduledWork {})
            case .watchAgain:
                // The pool's lock is held (its due timers are being moved): insert directly.
                core.timers.insert(self, at: due.advanced(by: ThreadPoolConcurrentScheduler.keptJobGrace))
                return (scheduler.lane, nil)
            case .done: return (scheduler.lane, nil)
            }
        }
    }
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
