import DequeModule
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The pool's workers: the loop that takes ready lanes, spins before it sleeps and moves due timers, and shutdown
// (the design is in `ThreadPool.swift`).
extension ThreadPoolCore {
    // MARK: Workers

    func workerLoop() {
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
            lock.wait(until: timers.earliestDeadline.map { min($0, nextTimerSweep) })
            sleeping -= 1
        }
        lock.unlock()
    }

    /// Runs one turn of a scheduler whose queue this worker owns: the tasks queued when the turn began, at most
    /// `batchLimit` of them. Work pushed during the turn (say, by a producer that each task wakes) waits for the next
    /// turn, behind the other ready schedulers; without that, such a pair could hold a worker for `batchLimit` tasks
    /// while a task of another scheduler waits (bench W5, saturated, shows the difference). Returns true if it still owns
    /// the queue (more work), false once it has given ownership back. Once shutdown has begun it starts no more
    /// tasks: what is left is cancelled by the caller, also the rest of a batch already taken.
    func runBatch(of scheduler: ThreadPoolScheduler) -> Bool {
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
    func cancelQueued(on lane: PoolLane) {
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
    func spinForWork() {
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
    func moveDueTimers() -> Bool {
        let now = SchedulerTime.monotonicNow()
        if now >= nextTimerSweep {
            timers.purge(\.isDead)
            nextTimerSweep = now + Self.timerSweepInterval
        }
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
