import Dispatch

/// Delayed work of a Dispatch-backed scheduler (serial or concurrent): a (deadline, sequence) heap behind one
/// Dispatch timer armed at the earliest deadline, because `asyncAfter` runs equal deadlines in no particular order.
/// Deadlines are on `CLOCK_MONOTONIC`, which is Dispatch's uptime clock, never the wall clock.
///
/// Two ways out, given by the scheduler: `enqueue` queues a task behind the scheduler's plain work (used for a task
/// that is due already when scheduled, after the delayed tasks that came due before it, so equal deadlines stay FIFO
/// when the timer runs late); `fire` is called on `queue` by the timer handler, for each due task in order.
/// A scheduler whose timer handler only passes tasks on (its work runs elsewhere) gives one `handOff` for both: it is
/// then called with the heap's lock held, so a task scheduled as due cannot be handed off between the handler's
/// popping an earlier task and handing it off (that overtaking broke deadline order, rule T4, on a slow run).
/// Pending delayed work keeps the owner alive (`keepAlive`); the handler holds the heap only weakly. While work is
/// pending the timer also fires at least every ``sweepInterval`` and drops cancelled entries: a task cancelled long
/// before its deadline keeps neither its entry nor the owner alive for more than a sweep (rule N1).
final class DispatchTimerHeap: Sendable {
    /// How long a cancelled entry may stay in the heap (and keep the owner alive) at most.
    static let sweepInterval: Duration = .seconds(1)

    private let state = Locked(State())
    private let queue: DispatchQueue
    private let enqueue: @Sendable (ScheduledWork) -> Void
    private let fire: @Sendable (ScheduledWork) -> Void

    private struct State {
        var heap = TimerQueue<ScheduledWork>()
        var source: TimerSource?
        var armedAt = SchedulerTime.distantFuture
        /// Holds the owner alive while delayed work is pending.
        var keepAlive: (any Sendable & AnyObject)?
        /// When cancelled entries are next dropped: once a sweep at most, so a timer that fires often does not scan
        /// the heap each time.
        var nextSweep = SchedulerTime.monotonicNow()
    }

    /// Whether `fire` is `enqueue`, called under the lock (``init(queue:handOff:)``).
    private let handsOffUnderLock: Bool

    /// For a scheduler whose timer handler runs due work itself (`fire`), outside the lock.
    init(
        queue: DispatchQueue, enqueue: @escaping @Sendable (ScheduledWork) -> Void,
        fire: @escaping @Sendable (ScheduledWork) -> Void
    ) {
        self.queue = queue
        self.enqueue = enqueue
        self.fire = fire
        self.handsOffUnderLock = false
    }

    /// For a scheduler whose timer handler only passes due work on: `handOff` must not run the work or block, because
    /// it is called with the heap's lock held.
    init(queue: DispatchQueue, handOff: @escaping @Sendable (ScheduledWork) -> Void) {
        self.queue = queue
        self.enqueue = handOff
        self.fire = handOff
        self.handsOffUnderLock = true
    }

    func schedule(_ task: ScheduledWork, at deadline: SchedulerTime, owner: any Sendable & AnyObject) {
        state.withLock { state in
            let now = SchedulerTime.monotonicNow()
            if deadline <= now {
                while let due = state.heap.popDue(at: now) { enqueue(due.payload) }
                enqueue(task)
                return
            }
            state.heap.insert(task, at: deadline)
            state.heap.purgeIfGrown { $0.isCancelled }
            state.keepAlive = owner
            let armAt = min(deadline, now + Self.sweepInterval)
            if armAt < state.armedAt {
                state.armedAt = armAt
                timerSource(&state).schedule(deadline: armAt.dispatchTime, leeway: .nanoseconds(0))
            }
        }
    }

    private func timerSource(_ state: inout State) -> any DispatchSourceTimer {
        if let source = state.source { return source.timer }
        let source = TimerSource(queue: queue)
        source.timer.setEventHandler { [weak self] in self?.fireDue() }
        source.timer.resume()
        state.source = source
        return source.timer
    }

    /// On `queue`, when the timer fires: every due task in (deadline, sequence) order, then re-arms.
    private func fireDue() {
        let now = SchedulerTime.monotonicNow()
        if handsOffUnderLock {
            state.withLock { state in
                while let entry = state.heap.popDue(at: now) { fire(entry.payload) }
                Self.rearm(&state)
            }
            return
        }
        while true {
            let next: ScheduledWork? = state.withLock { state in
                if let entry = state.heap.popDue(at: now) { return entry.payload }
                Self.rearm(&state)
                return nil
            }
            guard let next else { return }
            fire(next)
        }
    }

    /// Drops cancelled entries, then arms the timer at the earliest deadline left (a sweep away at most), or lets the
    /// owner go when nothing is left.
    private static func rearm(_ state: inout State) {
        let now = SchedulerTime.monotonicNow()
        if now >= state.nextSweep {
            state.heap.purge { $0.isCancelled }
            state.nextSweep = now + sweepInterval
        }
        guard let deadline = state.heap.earliestDeadline else {
            state.armedAt = .distantFuture
            state.keepAlive = nil
            return
        }
        state.armedAt = min(deadline, max(now, state.nextSweep))
        state.source?.timer.schedule(deadline: state.armedAt.dispatchTime, leeway: .nanoseconds(0))
    }

    deinit {
        state.withLock { $0.source?.timer.cancel() }
    }
}

/// Fixed-rate repeating work on a Dispatch queue: a `DispatchSourceTimer` with leeway. A source never runs its
/// handler twice at once, so ticks never overlap, also on a concurrent queue.
///
/// The handler keeps `scheduler` and the work alive until the repetition ends; ending cancels the source, which
/// releases the handler. So dropping the handle never stops the ticks. Dispatch coalesces missed ticks, but under
/// load it can still deliver a late tick and then another for a grid slot already served; the handler runs one tick
/// per slot of `start + k·interval` and skips the rest.
func dispatchRepeating(
    on queue: DispatchQueue, scheduler: any Scheduler, at start: SchedulerTime, every interval: Duration,
    leeway: Duration, _ work: @escaping @Sendable () -> Void
) -> RepeatingWork {
    ArgumentCheck.repeating(interval: interval, leeway: leeway)
    let repeating = RepeatingWork(work)
    let source = TimerSource(queue: queue)
    let step = interval.nanosecondsChecked(argument: "interval")
    source.timer.schedule(
        deadline: start.dispatchTime, repeating: .nanoseconds(Int(step)),
        leeway: .nanoseconds(Int(leeway.nanosecondsChecked(argument: "leeway"))))
    let served = Locked(ServedSlots())
    source.timer.setEventHandler {
        let elapsed = SchedulerTime.monotonicNow().nanoseconds - start.nanoseconds
        guard elapsed >= 0, served.withLock({ $0.admit(elapsed / step) }) else { return }
        Schedulers.performAsCurrent(scheduler) { _ = repeating.runTick() }
    }
    repeating.setOnEnd { source.timer.cancel() }
    source.timer.resume()
    return repeating
}

/// The grid slots a repeating Dispatch timer has served: each slot `k` (of `start + k·interval`) runs one tick, so
/// an event Dispatch delivers for a slot already served (after a late one) runs nothing, nor does one for an
/// earlier slot.
struct ServedSlots {
    private var last: Int64 = -1

    /// Whether a tick runs for `slot`, the slot an event arrived in; records it as served.
    mutating func admit(_ slot: Int64) -> Bool {
        defer { last = max(last, slot) }
        return slot > last
    }
}

/// A Dispatch timer source that can cross threads.
// @unchecked Sendable: Dispatch sources are thread-safe objects; `schedule`, `cancel` and friends may be called from
// any thread.
final class TimerSource: @unchecked Sendable {
    let timer: any DispatchSourceTimer
    init(queue: DispatchQueue) { timer = DispatchSource.makeTimerSource(queue: queue) }
}

extension SchedulerTime {
    var dispatchTime: DispatchTime { DispatchTime(uptimeNanoseconds: UInt64(nanoseconds)) }
}
