import CSwiftRuntimeHooks

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Virtual time, once: the clock, its queue of due work, and `advance`/`step`/`run`, for every virtual-time
/// scheduler of the package. `TestScheduler` is this engine in first-in-first-out order; the explorer's
/// `ExploringScheduler` is the same engine with a strategy choosing among the ready work.
///
/// Semantics (the V rules judge them):
/// - Work runs in (due time, submission) order, ties first-in-first-out, unless a strategy chooses among the work
///   that is *ready* (due at or before `now`), which it sees in the order it became ready. While a task runs, `now`
///   is at least its due time; `advance(to: t)` ends with `now == t`; the clock never goes backwards (a target in
///   the past runs what is due now), and work scheduled in the past is due at the current `now`.
/// - Cancelled work never moves the clock: an entry found cancelled when time would move to it is dropped first, so
///   a dead sleeper's deadline is never where `run()` leaves `now`.
/// - Repeating work fires every tick, missed or not; each tick keeps its repetition's first sequence number, so equal
///   ticks run in creation order.
/// - Any thread may schedule and cancel at any time, also from inside actions: actions run with the state lock
///   released. Drivers are serialised; driving from inside one of the owner's own actions is a precondition failure.
// @unchecked Sendable: `state` is touched only inside its lock; `drivers` serialises drivers and `driver` is
// written only by the thread holding `drivers` (and read under its own lock); the chooser is called only with the
// state lock held.
@_spi(Explorer) public final class VirtualTimeEngine: @unchecked Sendable {
    // Internal, not private: `VirtualTimeEngine+Pending.swift` reads it under its lock.
    let state: SpinLocked<State>
    /// Serialises drivers (advance, step, run, an exploration), never held by schedule or cancel.
    private let drivers = ConditionLock()
    /// The thread that drives now, if any: work scheduled from any other thread is from outside.
    private let driver = Locked<pthread_t?>(nil)
    /// What chooses among the ready work and numbers each entry as it becomes ready, asked under the state lock
    /// only; nil: first in first out.
    private let chooser: (any ReadyWorkChooser)?

    /// The queue, also reachable without the lock for what its batches settle by atomics (``VirtualQueue/claims``).
    private let queue: VirtualQueue

    struct State {
        var now: SchedulerTime
        /// Work not yet ready (all of it, in first-in-first-out order, where no strategy chooses).
        let queue: VirtualQueue
        /// Work ready for a strategy to choose from; nil in first-in-first-out order.
        var ready: ReadyList?
        /// Where work scheduled from outside the driving thread came from, by sequence number.
        var origins: [UInt64: String] = [:]
        /// What carried work that waits in `timers` while a strategy chooses, when it was a job (by sequence number):
        /// kept aside so that an entry of the timers stays one word (a job is in practice always due at once).
        var carriedLater: [UInt64: ScheduledWork.Carried] = [:]
        /// Entries taken, counted from 1 (a strategy's step).
        var steps = 0
        /// The ledger of the handles made now (``VirtualTaskLedger``). Unmanaged: the ledger holds this state, which
        /// must not hold it. The engine holds one reference to it and `ledgerCredits` more, taken in one atomic add
        /// when it started the ledger, one for each handle it may still make there; a handle takes one over instead
        /// of retaining. The rest go back when the engine starts the next ledger or ends.
        var ledger: Unmanaged<VirtualTaskLedger>?
        var ledgerCredits: UInt32 = 0
    }

    /// One entry taken to run: what it is, and the choice that took it.
    public struct Taken {
        public let deadline: SchedulerTime
        public let sequence: UInt64
        public let work: VirtualWork
        /// What carried the work (a job of which task), where a strategy chooses; `.closure` otherwise.
        public let carried: ScheduledWork.Carried
        /// The chosen entry's rank among the `of` ready ones (0 of 1 in first-in-first-out order).
        public let rank: Int
        public let of: Int
        /// The strategy's number for the entry (the explorer's task number).
        public let note: Int
        /// The thread it was scheduled from, when that was not the driving one.
        public let origin: String?
    }

    /// A clock at `now`; `chooser` picks among the ready work (nil: first-in-first-out).
    public init(now: SchedulerTime = .zero, chooser: (any ReadyWorkChooser)? = nil) {
        let queue = VirtualQueue()
        self.queue = queue
        self.state = SpinLocked(State(now: now, queue: queue, ready: chooser == nil ? nil : ReadyList()))
        self.chooser = chooser
    }

    /// Pending work is dropped with the engine: each entry's closure is released here, after the lock (a capture's
    /// deinit may call a handle, whose ledger may outlive the engine).
    deinit {
        let (entries, ready) = state.withLock { state in
            if let ledger = state.ledger { schedulerkit_release_n(ledger.toOpaque(), state.ledgerCredits + 1) }
            state.ledger = nil
            return (state.queue.removeAll(), state.ready?.removeAll() ?? [])
        }
        for entry in entries { entry.payload.work?.release() }
        for item in ready { item.work.release() }
    }

    public var now: SchedulerTime { state.withLock { $0.now } }

    /// Runs `body` with the state lock held: the lock under which the chooser is asked, so what the chooser keeps can
    /// be read there while other threads schedule.
    public func withChooserLocked<R>(_ body: () -> R) -> R { state.withLock { _ in body() } }

    /// Entries still queued (cancelled ones may be counted until they are reached or purged).
    public var pendingCount: Int { state.withLock { $0.queue.count + ($0.ready?.count ?? 0) } }

    /// How many entries are queued, and the earliest due time among them.
    public func pendingSummary() -> (count: Int, earliest: SchedulerTime?) {
        state.withLock { state in
            // The runner asks this every step: two optionals compared, no array built.
            let ready = state.ready.flatMap { $0.isEmpty ? nil : $0[$0.position(ofRank: 0)]?.deadline }
            let timer = state.queue.earliestDeadline
            let earliest = ready.map { ready in timer.map { min(ready, $0) } ?? ready } ?? timer
            return (state.queue.count + (state.ready?.count ?? 0), earliest)
        }
    }

    // MARK: Scheduling

    /// Queues a closure due at `deadline` (the current `now` if that is earlier) and returns its handle. In
    /// first-in-first-out order the closure waits in a slot of the queue and its handle is a value that names the
    /// slot (``VirtualTaskHandle``): nothing is allocated. Where a strategy chooses, it travels in a node, which is
    /// its handle (what carried it is part of what a strategy sees).
    @inline(__always)
    public func schedule(
        _ work: @escaping @Sendable () -> Void, at deadline: SchedulerTime, timed: Bool
    ) -> any Cancellable {
        guard chooser == nil else {
            let node = ScheduledWork(work)
            schedule(node, at: deadline, timed: timed)
            return node
        }
        return state.withLock { state in
            let sequence = state.queue.takeSequence()
            let slot = state.queue.insert(.init(closure: work), at: max(deadline, state.now), sequence: sequence)
            state.queue.purgeIfGrown()
            return VirtualTaskHandle(ledger: ledger(for: sequence, in: &state), sequence: sequence, slot: slot)
        }
    }

    /// The ledger of the handle of task `sequence`: the current one, or a new one once its span is used up.
    @inline(__always)
    private func ledger(for sequence: UInt64, in state: inout State) -> VirtualTaskLedger {
        if state.ledgerCredits == 0 || !state.ledger.unsafelyUnwrapped._withUnsafeGuaranteedRef({ $0.covers(sequence) })
        {
            startLedger(at: sequence, in: &state)
        }
        state.ledgerCredits &-= 1
        return state.ledger.unsafelyUnwrapped.takeRetainedValue()
    }

    @inline(never)
    private func startLedger(at sequence: UInt64, in state: inout State) {
        if let ledger = state.ledger { schedulerkit_release_n(ledger.toOpaque(), state.ledgerCredits + 1) }
        let ledger = Unmanaged.passRetained(VirtualTaskLedger(state: self.state, base: sequence))
        _ = schedulerkit_retain_n(ledger.toOpaque(), UInt32(VirtualTaskLedger.span))
        state.ledger = ledger
        state.ledgerCredits = UInt32(VirtualTaskLedger.span)
    }

    /// Queues one-shot work due at `deadline` (the current `now` if that is earlier). `carried` says what carried
    /// it where the caller knows better than the node (a job of no task attributed to the task it continues).
    public func schedule(
        _ task: ScheduledWork, at deadline: SchedulerTime, timed: Bool, origin: String? = nil,
        carried: ScheduledWork.Carried? = nil
    ) {
        let carried = chooser == nil ? ScheduledWork.Carried.closure : carried ?? task.carried
        let work = VirtualWork.once(task, timed: timed)
        state.withLock { state in
            let sequence = state.queue.takeSequence()
            if let origin { state.origins[sequence] = origin }
            state.insert(work, at: max(deadline, state.now), sequence: sequence, carried: carried, noting: chooser)
            state.queue.purgeIfGrown()
        }
    }

    /// Queues a repetition whose first tick is due at `start` (the current `now` if that is earlier).
    public func scheduleRepeating(_ work: RepeatingWork, at start: SchedulerTime, every interval: Duration) {
        state.withLock { state in
            let tick = VirtualTick(work: work, interval: interval, sequence: state.queue.takeSequence())
            state.insert(
                .tick(tick), at: max(start, state.now), sequence: tick.sequence, carried: .closure, noting: chooser)
        }
    }

    // MARK: Driving

    /// Runs every task due within `duration` from now, then sets `now` to that time. The target is read once this
    /// driver has the clock, so concurrent drivers never move it backwards.
    public func advance(by duration: Duration, owner: some Scheduler) {
        precondition(duration >= .zero, "advance(by:): duration must be >= 0, got \(duration)")
        drive(owner: owner) { advanceDriven(to: now.advanced(by: duration, argument: "advance(by:)"), owner: owner) }
    }

    /// Runs every task due at or before `target`, including work they add; ends with `now == target`, or where it
    /// was if that is later.
    public func advance(to target: SchedulerTime, owner: some Scheduler) {
        drive(owner: owner) { advanceDriven(to: max(target, now), owner: owner) }
    }

    private func advanceDriven(to target: SchedulerTime, owner: some Scheduler) {
        _ = runDue(by: target, atMost: .max, owner: owner)
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Runs exactly one task (the next, moving `now` to its due time if none is ready); false if there was none.
    public func step(owner: some Scheduler) -> Bool {
        drive(owner: owner) { runDue(by: .distantFuture, atMost: 1, owner: owner) == 1 }
    }

    /// Runs tasks one at a time, moving time forward, until none is left or `maxSteps` ran.
    public func run(maxSteps: Int, owner: some Scheduler) -> VirtualTimeRunOutcome {
        precondition(maxSteps >= 0, "run(maxSteps:): must be >= 0, got \(maxSteps)")
        return drive(owner: owner) {
            let steps = runDue(by: .distantFuture, atMost: maxSteps, owner: owner)
            // Cancelled entries are not pending work: a run whose last step drained every live task says drained.
            let pending = state.withLock { state in
                state.queue.purge()
                return state.queue.count + (state.ready?.count ?? 0)
            }
            return pending == 0 || steps < maxSteps
                ? .drained(steps: steps) : .stoppedEarly(steps: steps, pending: pending)
        }
    }

    /// Makes the calling thread the driving one for `body`, drivers serialised (an exploration drives for all of
    /// its schedule).
    public func drive<R>(owner: some Scheduler, _ body: () -> R) -> R {
        precondition(
            Schedulers.current !== owner, "\(type(of: owner)) \(owner.name): driven from inside one of its own actions")
        drivers.lock()
        defer { drivers.unlock() }
        let previous = driver.withLock { driver in
            defer { driver = pthread_self() }
            return driver
        }
        defer { driver.withLock { $0 = previous } }
        return body()
    }

    /// Whether the calling thread is the one driving.
    public var isDriving: Bool {
        driver.withLock { driver in driver.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    // MARK: One entry at a time

    /// Takes the next entry due by `limit`: the strategy's choice among the ready ones (the first ready, past the
    /// strategy, with `firstInFirstOut`), moving `now` to the earliest due time (past cancelled entries) when nothing
    /// is ready; nil if nothing is due by `limit`. For an engine with a strategy (its entries are nodes and ticks).
    public func takeNext(dueBy limit: SchedulerTime, firstInFirstOut: Bool = false) -> Taken? {
        state.withLock { state -> Taken? in
            guard var ready = state.ready else { preconditionFailure("takeNext: an engine without a strategy") }
            state.ready = nil  // held here alone while it changes, so it is not copied
            defer { state.ready = ready }
            if ready.isEmpty {
                guard let entry = state.popLive(dueBy: limit) else { return nil }
                state.now = max(state.now, entry.deadline)
                ready.append(state.readyItem(entry, noting: chooser!))
            }
            // Everything due by now becomes ready, in (due, submission) order, after what already was.
            while let entry = state.queue.popDue(at: state.now) {
                ready.append(state.readyItem(entry, noting: chooser!))
            }
            state.steps += 1
            let position =
                firstInFirstOut ? ready.position(ofRank: 0) : chooser!.choose(in: &ready, step: state.steps)
            let rank = ready.rank(ofPosition: position)
            let of = ready.count
            let item = ready.take(at: position)
            return Taken(
                deadline: item.deadline, sequence: item.sequence, work: item.work, carried: item.carried, rank: rank,
                of: of, note: item.note,
                origin: state.origins.isEmpty ? nil : state.origins.removeValue(forKey: item.sequence))
        }
    }

    /// Runs one taken entry with `owner` current and the state lock released; false if it had been cancelled.
    public func perform(_ taken: Taken, owner: some Scheduler) -> Bool {
        Schedulers.performAsCurrent(owner) { perform(taken.work, due: taken.deadline) }
    }

    /// Runs a node or a tick, with the owner already current. Inlined into the loops that call it: a call per task
    /// was 17 of the ~420 instructions a virtual task cost to run (callgrind, `bench check`).
    @inline(__always)
    private func perform(_ work: VirtualWork, due: SchedulerTime) -> Bool {
        switch work.take() {
        case .once(let task):
            return task.run()
        case .tick(let tick):
            let outcome = tick.work.runTick()
            if outcome.goesOn { rearm(tick, after: due) }
            return outcome.ran
        }
    }

    private func rearm(_ tick: VirtualTick, after deadline: SchedulerTime) {
        let next = deadline.advanced(by: tick.interval, argument: "interval")
        state.withLock { state in
            state.insert(
                .tick(tick), at: max(next, state.now), sequence: tick.sequence, carried: .closure, noting: chooser)
        }
    }

    /// Drops everything queued, cancelling it, and says how many entries there were: the end of a schedule, where a
    /// job left unrun leaves its task suspended for good.
    public func dropPending() -> Int {
        let (entries, ready) = state.withLock { state in
            defer {
                state.origins.removeAll()
                state.carriedLater.removeAll()
            }
            return (state.queue.removeAll(), state.ready?.removeAll() ?? [])
        }
        // Where a strategy chooses, closures travel in nodes: every entry is a node or a tick.
        for entry in entries { entry.payload.work?.cancelAndRelease() }
        for item in ready { item.work.cancelAndRelease() }
        return entries.count + ready.count
    }

    // MARK: Many entries at a time

    /// Runs up to `maxTasks` live tasks due by `limit`; returns how many ran (cancelled entries are skipped and not
    /// counted). The owner is made current once for all of them (no code but theirs runs on this thread meanwhile).
    private func runDue(by limit: SchedulerTime, atMost maxTasks: Int, owner: some Scheduler) -> Int {
        guard chooser == nil else {
            return Schedulers.performAsCurrent(owner) {
                var ran = 0
                while ran < maxTasks, let taken = takeNext(dueBy: limit) {
                    if perform(taken.work, due: taken.deadline) { ran += 1 }
                }
                return ran
            }
        }
        return Schedulers.performAsCurrent(owner) { runInBatches(by: limit, atMost: maxTasks) }
    }

    /// In first-in-first-out order each visit to the lock takes out every entry of the earliest deadline (up to
    /// ``VirtualQueue/batchLimit`` and the tasks still wanted): work those tasks add is due no earlier and sequenced
    /// later, and a repeating tick re-arms a whole interval later, so running the batch in order keeps the order, and
    /// a cancel still wins over a batched closure until it starts (``VirtualQueue/claim(_:)``).
    @inline(__always)
    private func runInBatches(by limit: SchedulerTime, atMost maxTasks: Int) -> Int {
        var ran = 0
        while ran < maxTasks {
            let wanted = min(maxTasks - ran, VirtualQueue.batchLimit)
            let taken = state.withLock { state -> (count: Int, due: SchedulerTime)? in
                guard let taken = state.takeBatch(dueBy: limit, atMost: wanted) else { return nil }
                state.now = max(state.now, taken.due)
                return taken
            }
            guard let taken else { return ran }
            for index in 0..<taken.count {
                let payload = queue.takeBatched(at: index)
                if let closure = payload.closure {
                    if queue.claim(index) {
                        closure()
                        ran &+= 1
                    }
                } else if let work = payload.work, perform(work, due: taken.due) {
                    ran &+= 1
                }
            }
        }
        return ran
    }
}
