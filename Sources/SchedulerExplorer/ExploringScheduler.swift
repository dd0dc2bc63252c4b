import Foundation
@_spi(Bench) @_spi(Explorer) import SchedulerKit
import Synchronization

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
///
/// The clock, the queue and the driving are SchedulerKit's one virtual-time engine, as under `TestScheduler`; the
/// ready work is kept in the order it became ready, so choosing costs O(log n) in the ready jobs, not a sort.
public final class ExploringScheduler: TimedScheduler, VirtualTimeDriver {
    public static let traits: SchedulerTraits = [.serial, .timed, .repeating, .virtualTime, .setsCurrent]
    public var traits: SchedulerTraits { Self.traits }
    public let name: String

    private let engine: VirtualTimeEngine
    private let chooser: StrategyChooser
    /// Signalled when work arrives from outside while the runner waits for it.
    private let arrivals = NSCondition()
    /// The task the job running now belongs to or continues (0: none), set by the driving thread around each job.
    private let runningTask = Atomic<UInt64>(0)
    /// Task names by task id, learned when a task schedules work while it runs (nil: it has none).
    private let names = Locked<[UInt64: String?]>([:])
    /// The task that scheduled each timed closure from inside it (a sleep's wake-up), by the closure's node: what
    /// names a sleeper still waiting when the body returned. Timed closures only, so a step pays nothing for it.
    private let sleepers = Locked<[UInt: UInt64]>([:])

    public convenience init(
        name: String = "explorer", strategy: ExplorationStrategy = .firstInFirstOut, seed: UInt64 = 0
    ) {
        self.init(name: name, strategy: strategy, seed: seed, choices: [])
    }

    /// With a systematic strategy, `choices` are the alternatives its first choices take (the default after them).
    init(name: String, strategy: ExplorationStrategy, seed: UInt64, choices: [Int]) {
        self.name = name
        self.chooser = StrategyChooser(strategy, seed: seed, choices: choices)
        self.engine = VirtualTimeEngine(chooser: chooser)
    }

    /// The schedule's chooser: what a systematic strategy's replay and next schedule are read from once it ended.
    var scheduleChooser: any ScheduleChooser { chooser.chooser }

    public var now: SchedulerTime { engine.now }

    /// Work queued and not yet run (ready or due later).
    public var pendingCount: Int { engine.pendingCount }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let node = ScheduledWork(work)
        add(node, at: .zero, timed: false)
        return node
    }

    @discardableResult
    public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let node = ScheduledWork(work)
        add(node, at: deadline, timed: true)
        return node
    }

    @discardableResult
    public func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        ArgumentCheck.repeating(interval: interval, leeway: leeway)
        let handle = RepeatingWork(work)
        engine.scheduleRepeating(handle, at: start, every: interval)
        return handle
    }

    func add(_ node: ScheduledWork, at deadline: SchedulerTime, timed: Bool) {
        // Inside one of its own jobs the thread is the driving one: a thread-local read answers without the lock.
        let origin = Schedulers.isCurrent(self) || engine.isDriving ? nil : Self.describeOrigin(of: node.carried)
        var carried: ScheduledWork.Carried?
        if origin == nil {
            let current = currentTaskID()
            if current != 0 { learnName(of: current) }
            // A job of no task made while a task ran continues that task: the running job's own task when the
            // runtime has already cleared the current one (it does so before it enqueues a hop).
            switch node.carried {
            case .actorJob(task: 0), .taskJob(task: 0):
                let parent = current != 0 ? current : runningTask.load(ordering: .relaxed)
                if parent != 0 { carried = .runtimeJob(continuing: parent) }
            case .closure where timed && current != 0:
                sleepers.withLock { $0[UInt(bitPattern: ObjectIdentifier(node))] = current }
            default: break
            }
        }
        engine.schedule(node, at: deadline, timed: timed, origin: origin, carried: carried)
        if origin != nil {
            arrivals.lock()
            arrivals.broadcast()
            arrivals.unlock()
        }
    }

    // MARK: Driving by hand, as on TestScheduler

    /// Runs every task due within `duration` from now, in the strategy's order, then sets `now` to that time.
    public func advance(by duration: Duration = .zero) { engine.advance(by: duration, owner: self) }

    /// Runs every task due at or before `target`, in the strategy's order, including work they add; ends with
    /// `now == target` (never earlier than it was).
    public func advance(to target: SchedulerTime) { engine.advance(to: target, owner: self) }

    /// Runs exactly one task (moving `now` to its due time if nothing is ready); false if there was none.
    @discardableResult
    public func step() -> Bool { engine.step(owner: self) }

    /// Runs tasks one at a time, moving time forward, until none is left or `maxSteps` ran.
    @discardableResult
    public func run(maxSteps: Int = 1_000_000) -> VirtualTimeRunOutcome { engine.run(maxSteps: maxSteps, owner: self) }

    // MARK: The runner's view

    /// Makes the calling thread the driving one for `body` (the runner's thread, for a whole exploration).
    func driving<R>(_ body: () -> R) -> R { engine.drive(owner: self, body) }

    var isDriving: Bool { engine.isDriving }

    /// The next entry the strategy picks among those due by `limit` (moving `now` to the earliest due time when
    /// nothing is due now), with the choice that took it; nil if none is due by `limit`.
    func takeNext(dueBy limit: SchedulerTime) -> VirtualTimeEngine.Taken? { engine.takeNext(dueBy: limit) }

    /// The first entry ready (moving `now` to the earliest due time when none is), past the strategy: for winding
    /// a schedule down once it ended.
    func takeFirst() -> VirtualTimeEngine.Taken? { engine.takeNext(dueBy: .distantFuture, firstInFirstOut: true) }

    /// How many entries are queued, and the earliest due time among them.
    func pendingSummary() -> (count: Int, earliest: SchedulerTime?) { engine.pendingSummary() }

    /// Waits up to `timeout` for work from outside; true if some arrived.
    func waitForArrival(timeout: Duration) -> Bool {
        let deadline = Date(
            timeIntervalSinceNow: Double(timeout.components.seconds)
                + Double(timeout.components.attoseconds) / 1e18)
        arrivals.lock()
        defer { arrivals.unlock() }
        while engine.pendingCount == 0 {
            if !arrivals.wait(until: deadline) { return engine.pendingCount != 0 }
        }
        return true
    }

    /// Runs one taken entry with this scheduler current; false if it had been cancelled.
    func perform(_ taken: VirtualTimeEngine.Taken) -> Bool {
        runningTask.store(taken.carried.task, ordering: .relaxed)
        defer { runningTask.store(0, ordering: .relaxed) }
        return engine.perform(taken, owner: self)
    }

    /// Names of the tasks that have one, by the strategy's task number (what a trace shows as `t3`).
    func taskNames() -> [Int: String] {
        let named = names.withLock { $0.compactMapValues { $0 } }
        var byNumber: [Int: String] = [:]
        for (task, number) in engine.withChooserLocked({ chooser.taskNumbers }) {
            if let name = named[task] { byNumber[number] = name }
        }
        return byNumber
    }

    /// The tasks that still have work queued, one line each ("t3 'uploader': asleep until 1.0 seconds from now"),
    /// earliest first: what a schedule leaves when its body has returned. A task suspended with nothing queued (on a
    /// continuation nobody resumes, on an actor) has no entry, and is not seen.
    func tasksWithWorkLeft() -> [String] {
        let entries = engine.pendingEntries()
        guard !entries.isEmpty else { return [] }
        let (sleepers, named) = (sleepers.withLock { $0 }, names.withLock { $0.compactMapValues { $0 } })
        let numbers = engine.withChooserLocked { chooser.taskNumbers }
        var lines: [String] = []
        var seen = Set<UInt64>()
        for entry in entries {
            let task = entry.carried.task != 0 ? entry.carried.task : sleepers[entry.identity] ?? 0
            if task != 0 && !seen.insert(task).inserted { continue }
            let who =
                task == 0
                ? "work of no task"
                : (numbers[task].map { "t\($0)" } ?? "a task") + (named[task].map { " '\($0)'" } ?? "")
            let wait = now.duration(to: entry.deadline)
            let what =
                entry.isTick
                ? "repeating work, next due in \(wait)"
                : wait > .zero ? "asleep, due in \(wait)" : "ready to run"
            lines.append("\(who): \(what)")
        }
        return lines
    }

    private func learnName(of task: UInt64) {
        names.withLock { names in
            if names[task] == nil { names[task] = .some(Task.name) }
        }
    }

    /// Drops everything queued (cancelling it), at the end of a schedule: a job left unrun leaves its task suspended
    /// for good, which is what a failed schedule leaves behind.
    func dropPending() -> Int { engine.dropPending() }

    /// Where work from outside comes from: "the main thread", "a main-actor job (the main queue)", a task of Swift's
    /// global executor (``fromGlobalExecutor``: a sleep's wake-up), "thread 'name'", or "an unnamed thread".
    static func describeOrigin(of carried: ScheduledWork.Carried) -> String {
        if Thread.isMainThread { return "the main thread" }
        // On Linux the main actor's jobs run on the main queue, drained by a Dispatch worker whose thread name says
        // nothing of it ("-qos.overcommit"): the queue's own mark does.
        if MainQueueMark.isCurrent { return "a main-actor job (the main queue)" }
        // A task running on Swift's global executor that resumes one of the schedule's: while a schedule runs, the
        // global jobs started from it are captured, so what runs there is a task the test did not start on the
        // schedule's thread or, commonest, the small task the runtime makes for each `Task.sleep` on a real clock and
        // hands to a Dispatch timer, which reaches no hook (measured: the wake-up is such a task, not the sleeper).
        let current = currentTaskID()
        if current != 0, current != carried.task, DispatchQueueLabel.isGlobalExecutors { return fromGlobalExecutor }
        let name = threadName()
        return name.isEmpty ? "an unnamed thread" : "thread '\(name)'"
    }

    /// How work from a task on Swift's global executor is named (a place ``ExplorationSettings/allowedOutside`` can
    /// name): the wake-up of a `Task.sleep` on `ContinuousClock` or `SuspendingClock`, whose timer is Dispatch's, comes
    /// from there, outside the exploration's order.
    public static let fromGlobalExecutor =
        "a task on Swift's global executor (a sleep on ContinuousClock or SuspendingClock wakes from there)"
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
    public func enqueue(node: ScheduledWork) { add(node, at: .zero, timed: false) }
}

/// A mark on Dispatch's main queue, so that work enqueued from a main-actor job can be named as such.
private enum MainQueueMark {
    static let key = DispatchSpecificKey<Bool>()
    private static let placed: Void = DispatchQueue.main.setSpecific(key: key, value: true)

    /// Whether the calling code runs on the main queue (the main actor's, on Linux).
    static var isCurrent: Bool {
        _ = placed
        return DispatchQueue.getSpecific(key: key) == true
    }
}

/// The label of the Dispatch queue running the calling code, read through libdispatch's C function (the Swift overlay
/// has no way to read the current queue's label on Linux).
private enum DispatchQueueLabel {
    private typealias GetLabel = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    private static let getLabel: GetLabel? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "dispatch_queue_get_label") else {
            return nil
        }
        return unsafeBitCast(symbol, to: GetLabel.self)
    }()

    /// Whether the calling code runs on a queue of Swift's global executor: "Swift global concurrent queue" on Linux,
    /// one of Dispatch's root queues on Darwin.
    static var isGlobalExecutors: Bool {
        guard let getLabel, let label = getLabel(nil).map({ String(cString: $0) }) else { return false }
        return label == "Swift global concurrent queue" || label.hasPrefix("com.apple.root.")
    }
}
