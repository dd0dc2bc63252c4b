import Foundation
@_spi(Bench) @_spi(Explorer) import SchedulerKit

/// A virtual-time scheduler that runs one job at a time and chooses each among the ready ones by a strategy:
/// `TestScheduler` with the order opened up. Under it, with tasks preferring ``Exploration/taskExecutor`` and
/// sleeping on ``Exploration/clock``, async code runs in an order the strategy picks, one thread, replayable by seed.
///
/// Semantics first: serial (one task at a time, on the driving thread, with the scheduler current); a task due at
/// `now` or earlier is *ready*; the strategy picks among the ready tasks, in the order they were scheduled
/// (first-in-first-out picks the first, which is `TestScheduler`'s (due, submission) order). Virtual time moves only
/// when driven: by ``advance(by:)``, ``step()`` and ``run(maxSteps:)`` as on `TestScheduler`, and inside
/// ``explore(schedules:strategy:seed:settings:_:)`` whenever no task is ready. Work scheduled from a thread other
/// than the driving one is marked as from outside, with that thread's name: the runner counts it, and fails a
/// schedule on it unless allowed. Schedulers' promises it does not keep (jobs of one enqueuer may run out of order
/// under a strategy other than first-in-first-out) are declared where the kit judges it.
public final class ExploringScheduler: TimedScheduler {
    public static let traits: SchedulerTraits = [.serial, .timed, .repeating, .virtualTime, .setsCurrent]
    public var traits: SchedulerTraits { Self.traits }
    public let name: String

    private let state: Locked<Pending>
    /// Signalled when work arrives from outside while the runner waits for it.
    private let arrivals = NSCondition()
    /// The choices, touched only by the thread that drives.
    private let chooser: Locked<Chooser>
    /// The thread that drives (runs the jobs); work scheduled from any other is from outside. Set by the runner and
    /// by every drive.
    private let driver = Locked<pthread_t?>(nil)

    public init(name: String = "explorer", strategy: ExplorationStrategy = .firstInFirstOut, seed: UInt64 = 0) {
        self.name = name
        self.state = Locked(Pending())
        self.chooser = Locked(Chooser(strategy, seed: seed))
    }

    public var now: SchedulerTime { state.withLock { $0.now } }

    /// Work queued and not yet run (ready or due later).
    public var pendingCount: Int { state.withLock { $0.entries.count } }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let node = ScheduledWork(work)
        add(.once(node, carried: .closure), at: .zero, timed: false)
        return node
    }

    @discardableResult
    public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let node = ScheduledWork(work)
        add(.once(node, carried: .closure), at: deadline)
        return node
    }

    @discardableResult
    public func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        precondition(interval > .zero, "schedule(at:every:): the interval must be positive, got \(interval)")
        let handle = RepeatingWork(work)
        add(.tick(handle, every: interval), at: start)
        return handle
    }

    func add(_ kind: Entry.Kind, at deadline: SchedulerTime, timed: Bool = true) {
        let origin = isDriving ? Entry.Origin.inside : .outside(Self.describeThisThread())
        state.withLock { $0.insert(kind, at: deadline, timed: timed, origin: origin) }
        if case .outside = origin {
            arrivals.lock()
            arrivals.broadcast()
            arrivals.unlock()
        }
    }

    // MARK: Driving by hand, as on TestScheduler

    /// Runs every task due within `duration` from now, in the strategy's order, then sets `now` to that time.
    public func advance(by duration: Duration = .zero) {
        advance(to: now.advanced(by: duration, argument: "advance(by:)"))
    }

    /// Runs every task due at or before `target`, in the strategy's order, including work they add; ends with
    /// `now == target` (never earlier than it was).
    public func advance(to target: SchedulerTime) {
        drive {
            while let entry = takeNext(dueBy: target) { _ = perform(entry) }
            state.withLock { $0.now = max($0.now, target) }
        }
    }

    /// Runs exactly one task (moving `now` to its due time if nothing is ready); false if there was none.
    @discardableResult
    public func step() -> Bool {
        drive {
            while let entry = takeNext(dueBy: .distantFuture) {
                if perform(entry) { return true }
            }
            return false
        }
    }

    /// Runs tasks one at a time, moving time forward, until none is left or `maxSteps` ran.
    @discardableResult
    public func run(maxSteps: Int = 1_000_000) -> TestScheduler.RunOutcome {
        precondition(maxSteps >= 0, "run(maxSteps:): must be >= 0, got \(maxSteps)")
        return drive {
            var steps = 0
            while steps < maxSteps, let entry = takeNext(dueBy: .distantFuture) {
                if perform(entry) { steps += 1 }
            }
            let pending = state.withLock { $0.entries.count }
            return pending == 0 ? .drained(steps: steps) : .stoppedEarly(steps: steps, pending: pending)
        }
    }

    private func drive<R>(_ body: () -> R) -> R {
        precondition(Schedulers.current !== self, "ExploringScheduler \(name): driven from inside one of its own tasks")
        let previous = driver.withLock { driver in
            defer { driver = pthread_self() }
            return driver
        }
        defer { driver.withLock { $0 = previous } }
        return body()
    }

    // MARK: The runner's view

    /// Makes the calling thread the driving one for `body` (the runner's thread, for a whole exploration).
    func driving<R>(_ body: () -> R) -> R { drive(body) }

    var isDriving: Bool {
        driver.withLock { driver in driver.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// The next entry the strategy picks among those due by `limit` (moving `now` to the earliest due time when
    /// nothing is due now), and the ready tasks it chose among; nil if none is due by `limit`.
    func takeNext(dueBy limit: SchedulerTime) -> Entry? {
        state.withLock { pending -> Entry? in
            guard let earliest = pending.entries.min(by: Entry.precedes), earliest.due <= limit else { return nil }
            let ready = pending.entries.indices.filter { pending.entries[$0].due <= max(pending.now, earliest.due) }
                .sorted { Entry.precedes(pending.entries[$0], pending.entries[$1]) }
            let step = pending.steps + 1
            let choice = chooser.withLock {
                $0.choose(among: ready.map { pending.task(of: pending.entries[$0]) }, step: step)
            }
            pending.steps = step
            pending.now = max(pending.now, earliest.due)
            var entry = pending.entries.remove(at: ready[choice])
            entry.choice = (index: choice, of: ready.count)
            entry.task = pending.task(of: entry)
            return entry
        }
    }

    /// Whether anything is due by `limit`, and the earliest due time of what is queued.
    func pendingSummary() -> (count: Int, earliest: SchedulerTime?) {
        state.withLock { pending in (pending.entries.count, pending.entries.map(\.due).min()) }
    }

    /// Waits up to `timeout` for work from outside; true if some arrived.
    func waitForArrival(timeout: Duration) -> Bool {
        let deadline = Date(
            timeIntervalSinceNow: Double(timeout.components.seconds)
                + Double(timeout.components.attoseconds) / 1e18)
        arrivals.lock()
        defer { arrivals.unlock() }
        while state.withLock({ $0.entries.isEmpty }) {
            if !arrivals.wait(until: deadline) { return !state.withLock { $0.entries.isEmpty } }
        }
        return true
    }

    /// Runs one taken entry with this scheduler current; false if it had been cancelled.
    func perform(_ entry: Entry) -> Bool {
        switch entry.kind {
        case .once(let node, _):
            return Schedulers.performAsCurrent(self) { node.run() }
        case .tick(let handle, let interval):
            let tick = Schedulers.performAsCurrent(self) { handle.runTick() }
            if tick.goesOn {
                add(.tick(handle, every: interval), at: entry.due.advanced(by: interval, argument: "interval"))
            }
            return tick.ran
        }
    }

    /// Drops everything queued (cancelling it), at the end of a schedule: a job left unrun leaves its task suspended
    /// for good, which is what a failed schedule leaves behind.
    func dropPending() -> Int {
        let dropped = state.withLock { pending in
            defer { pending.entries.removeAll() }
            return pending.entries
        }
        for entry in dropped {
            switch entry.kind {
            case .once(let node, _): node.cancel()
            case .tick(let handle, _): handle.cancel()
            }
        }
        return dropped.count
    }

    /// "the main thread", "thread 'name'", or "an unnamed thread".
    static func describeThisThread() -> String {
        if Thread.isMainThread { return "the main thread" }
        let name = threadName()
        return name.isEmpty ? "an unnamed thread" : "thread '\(name)'"
    }
}

/// The calling thread's name as the kernel knows it (what `pthread_setname_np` set, or the process's name).
private func threadName() -> String {
    #if os(Linux)
        // Glibc's pthread_getname_np is not visible to Swift here; the kernel shows the same name.
        let text = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    #else
        var buffer = [CChar](repeating: 0, count: 64)
        pthread_getname_np(pthread_self(), &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #endif
}

/// Executors over the scheduler hand it their jobs in their nodes, so that a job's task can be told (SPI).
@_spi(Bench) extension ExploringScheduler: NodeScheduler {
    public func enqueue(node: ScheduledWork) {
        add(.once(node, carried: node.carried), at: .zero, timed: false)
    }
}

/// One queued task of an exploring scheduler.
struct Entry {
    enum Kind {
        case once(ScheduledWork, carried: ScheduledWork.Carried)
        case tick(RepeatingWork, every: Duration)
    }
    enum Origin: Equatable {
        case inside
        /// Scheduled from another thread than the driving one: which.
        case outside(String)
    }
    let due: SchedulerTime
    let sequence: Int
    let kind: Kind
    /// Scheduled for a deadline (a sleeper's wake-up), not for now.
    let timed: Bool
    let origin: Origin
    /// Set when taken: the chosen index among the ready tasks, and the task's number (first seen, first numbered).
    var choice = (index: 0, of: 1)
    var task = 0

    static func precedes(_ a: Entry, _ b: Entry) -> Bool { (a.due, a.sequence) < (b.due, b.sequence) }
}

/// The queue, and the numbers given to tasks in the order they were first seen (so a trace names them the same way
/// in every replay, whatever their ids).
struct Pending {
    var now = SchedulerTime.zero
    var entries: [Entry] = []
    var submitted = 0
    var steps = 0
    private var numbers: [UInt64: Int] = [:]
    private var count = 0

    mutating func insert(_ kind: Entry.Kind, at due: SchedulerTime, timed: Bool, origin: Entry.Origin) {
        submitted += 1
        entries.append(Entry(due: max(due, now), sequence: submitted, kind: kind, timed: timed, origin: origin))
    }

    /// A job's task by its number; other work (a job of no task, a closure, a tick) counts as a task of its own,
    /// numbered by its entry.
    mutating func task(of entry: Entry) -> Int {
        let key: UInt64
        switch entry.kind {
        case .once(_, .actorJob(let task)) where task != 0, .once(_, .taskJob(let task)) where task != 0: key = task
        case .once, .tick: key = UInt64.max - UInt64(entry.sequence)
        }
        if let number = numbers[key] { return number }
        count += 1
        numbers[key] = count
        return count
    }
}
