/// The jobs of Swift's global executor on a pool that is it (``ThreadPool/unsafeInstallAsGlobalExecutor()``, or the
/// default executor, ``ThreadPool/unsafeInstallAsDefaultExecutor()``): they join one concurrent scheduler as wide as
/// the pool, as they are, except that a job made inside a job of that scheduler, on the pool thread running it, while
/// nothing else is queued, is *kept* for that thread: it takes no new slot (no other worker is woken for it), and the
/// turn running there takes it next, once the job that made it returns or suspends
/// (`ThreadPoolConcurrentScheduler.pushForRunningTurn`). So a task started and then awaited (`await Task { }.value`,
/// a continuation resumed by the task it waits for, a consumer started before a burst it will read) runs on the thread
/// whose caches hold its data, with no wake-up, as the "next job" slot of Go's and Tokio's schedulers does. A job
/// made while others are queued takes a slot as before, so a fan-out still spreads over the workers; and a kept job
/// its thread has not taken within ``grace`` (its maker blocked the thread, or runs on) is handed to the other
/// workers (GE6), by a check on the pool's timers (``PoolTimerCheck``).
// @unchecked Sendable: `watched` is read and written only under the scheduler's lock (inside the closures that
// `pushForRunningTurn` and `withTurnJobCounts` run); the rest are constants.
final class PoolKeptJobs: @unchecked Sendable {
    let scheduler: ThreadPoolConcurrentScheduler
    private let core: ThreadPoolCore
    /// The kept job the pending check watches, by its number among the kept jobs (0: no check pending).
    private var watched: UInt64 = 0

    /// How long a kept job may wait for its thread before the other workers may take it.
    static let grace: Duration = .milliseconds(1)

    init(scheduler: ThreadPoolConcurrentScheduler, core: ThreadPoolCore) {
        self.scheduler = scheduler
        self.core = core
    }

    /// Queues a job of Swift's global executor (the pool is the global executor, and cannot shut down).
    func enqueue(_ job: UnownedJob) {
        guard ThreadState.forThisThread.pointee.pool === core, Schedulers.current === scheduler else {
            if scheduler.push(job: job) { core.makeReady(scheduler.lane) }
            return
        }
        var armsCheck = false
        let takesSlot = scheduler.pushForRunningTurn(job) { number in
            guard watched == 0 else { return }
            watched = number
            armsCheck = true
        }
        if armsCheck { _ = core.addTimer(.check(self), at: .monotonicNow().advanced(by: Self.grace)) }
        if takesSlot { core.makeReady(scheduler.lane) }
    }
}

extension PoolKeptJobs: PoolTimerCheck {
    /// What a due check finds: the job it watched still queued (it waited a grace, so an empty task joins behind it
    /// and takes a slot, and another worker runs it); that job taken but a later one queued (watch that one for
    /// another grace); or no kept job waiting.
    func due(at due: SchedulerTime, core: ThreadPoolCore) -> (PoolLane, ScheduledWork?) {
        enum Finding {
            case stranded
            case watchAgain
            case done
        }
        let finding = scheduler.withTurnJobCounts { kept, taken -> Finding in
            if taken < watched {
                watched = 0
                return .stranded
            }
            guard taken < kept else {
                watched = 0
                return .done
            }
            watched = kept
            return .watchAgain
        }
        switch finding {
        case .stranded: return (scheduler.lane, ScheduledWork {})
        case .watchAgain:
            // The pool's lock is held (its due timers are being moved): insert directly.
            core.timers.insert(.check(self), at: due.advanced(by: Self.grace))
            return (scheduler.lane, nil)
        case .done: return (scheduler.lane, nil)
        }
    }
}
