import Dispatch
import Foundation
import SchedulerKit
import Synchronization

/// The planted bugs of the random-program checker (M1): each a defect that shows in a combination of operations.
enum PlantedBug: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The drainer takes the whole queue as a batch and checks each task's cancel flag as it takes it; a cancel
    /// between the take and the run (from inside an earlier task of the batch) says true and the task runs anyway.
    case cancelTrueForTakenBatch
    /// Delayed work already due when scheduled goes to the front of the queue, ahead of plain work queued before it.
    case dueNowJumpsTheQueue
    /// Work scheduled from inside one of the scheduler's own tasks takes a fast path that does not set the current
    /// scheduler.
    case nestedWorkWithoutCurrent
    /// Repeating work reads its cancel flag once, before the tick runs, and arms the next tick by it: a cancel from
    /// inside the tick lets one more tick run.
    case selfCancelTicksOnce
    /// run(maxSteps:) says it stopped early when its last step drained the queue.
    case runSaysStoppedEarlyWhenDrained
    /// Work added during an advance is clamped to the advance's target and runs late.
    case addedDuringAdvanceRunsAtTarget

    var description: String { rawValue }
    var isVirtual: Bool { self == .runSaysStoppedEarlyWhenDrained || self == .addedDuringAdvanceRunsAtTarget }
}

/// A serial, timed scheduler written for the planted bugs: correct with `defect` nil, and otherwise broken in
/// exactly that one way. Tasks drain on a thread of their own, one drainer at a time; each timer sleeps on its own.
final class PlantedSerialScheduler: TimedScheduler {
    let name = "planted"
    let defect: PlantedBug?
    private let queue = Locked((tasks: [PlantedTask](), draining: false))
    var traits: SchedulerTraits { [.serial, .asynchronous, .timed, .repeating, .setsCurrent] }
    var now: SchedulerTime { .monotonicNow() }

    init(defect: PlantedBug?) { self.defect = defect }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let bare = defect == .nestedWorkWithoutCurrent && Schedulers.current === self
        return enqueue(PlantedTask(work, setsCurrent: !bare), first: false)
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = PlantedTask(work, setsCurrent: true)
        guard deadline > now else { return enqueue(task, first: defect == .dueNowJumpsTheQueue) }
        arm(at: deadline) { _ = self.enqueue(task, first: false) }
        return task
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let handle = PlantedRepeat()
        tick(handle, at: start, every: interval, work)
        return handle
    }

    private func tick(
        _ handle: PlantedRepeat, at deadline: SchedulerTime, every interval: Duration,
        _ work: @escaping @Sendable () -> Void
    ) {
        arm(at: deadline) {
            _ = self.enqueue(
                PlantedTask(setsCurrent: true) {
                    let stopped = handle.isCancelled
                    guard !stopped || self.defect == .selfCancelTicksOnce else { return }
                    work()
                    if self.defect == .selfCancelTicksOnce ? stopped : handle.isCancelled { return }
                    self.tick(handle, at: max(deadline + interval, self.now), every: interval, work)
                }, first: false)
        }
    }

    /// Never early: the timer's thread sleeps until the monotonic clock says the deadline passed.
    private func arm(at deadline: SchedulerTime, _ due: @escaping @Sendable () -> Void) {
        Self.onThreadOfItsOwn {
            while case let wait = deadline.nanoseconds - self.now.nanoseconds, wait > 0 {
                usleep(UInt32(clamping: (wait + 999) / 1_000))
            }
            due()
        }
    }

    private func enqueue(_ task: PlantedTask, first: Bool) -> PlantedTask {
        let start = queue.withLock { queue -> Bool in
            if first { queue.tasks.insert(task, at: 0) } else { queue.tasks.append(task) }
            defer { queue.draining = true }
            return !queue.draining
        }
        if start { Self.onThreadOfItsOwn { self.drain() } }
        return task
    }

    /// Drains and timers run on threads of their own, not on Dispatch's pool, which the suites running beside this
    /// one can leave without a free thread for seconds: under ThreadSanitizer M1 once judged a task with no cancel
    /// in its program as never run within its 2 s, and 60 replays of that program all passed.
    private static func onThreadOfItsOwn(_ body: @escaping @Sendable () -> Void) {
        Thread(block: body).start()
    }

    private func drain() {
        while true {
            let batch = queue.withLock { queue -> [PlantedTask] in
                defer { queue.tasks = [] }
                if queue.tasks.isEmpty { queue.draining = false }
                return queue.tasks
            }
            guard !batch.isEmpty else { return }
            // The defect reads each task's work as it takes the batch, leaving the cancel open until it runs.
            let taken = defect == .cancelTrueForTakenBatch ? batch.map { $0.peek() } : nil
            for (index, task) in batch.enumerated() {
                guard let work = taken.map({ $0[index] }) ?? task.claim() else { continue }
                if task.setsCurrent { Schedulers.performAsCurrent(self, work) } else { work() }
                task.finish()
            }
        }
    }
}

/// One-shot work of ``PlantedSerialScheduler``: truthful when claimed as it runs.
final class PlantedTask: Cancellable {
    let setsCurrent: Bool
    private let state: Locked<(work: (@Sendable () -> Void)?, cancelled: Bool, claimed: Bool)>

    init(setsCurrent: Bool, _ work: @escaping @Sendable () -> Void) {
        self.setsCurrent = setsCurrent
        state = Locked((work, false, false))
    }

    convenience init(_ work: @escaping @Sendable () -> Void, setsCurrent: Bool) {
        self.init(setsCurrent: setsCurrent, work)
    }

    /// Takes the work to run (nil if cancelled) and closes the cancel: from now on cancel() says false.
    func claim() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard !state.cancelled, !state.claimed else { return nil }
            state.claimed = true
            defer { state.work = nil }
            return state.work
        }
    }

    /// Lets go of the work once it ran (after the defect's read, which left it in place).
    func finish() { state.withLock { $0.work = nil } }

    /// The work, if not cancelled, without closing the cancel (the defect's read).
    func peek() -> (@Sendable () -> Void)? { state.withLock { $0.cancelled ? nil : $0.work } }

    func cancel() -> Bool {
        state.withLock { state in
            guard !state.cancelled, !state.claimed else { return false }
            state.cancelled = true
            state.work = nil
            return true
        }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }
}

/// The handle of ``PlantedSerialScheduler``'s repeating work.
final class PlantedRepeat: Cancellable {
    private let cancelled = Atomic<Bool>(false)
    func cancel() -> Bool { !cancelled.exchange(true, ordering: .acquiringAndReleasing) }
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}

/// A virtual-time scheduler for the planted bugs: a ``TestScheduler`` underneath (so correct with `defect` nil),
/// with one defect in how it is driven. It does not claim to set the current scheduler (its tasks see the one
/// underneath).
final class PlantedVirtualScheduler: VirtualTimeDriver {
    let name = "planted-virtual"
    let defect: PlantedBug?
    private let inner = TestScheduler(name: "planted-virtual")
    /// The target of the advance in progress, if any.
    private let target = Locked<SchedulerTime?>(nil)
    var traits: SchedulerTraits { TestScheduler.traits.subtracting(.setsCurrent) }
    var now: SchedulerTime { inner.now }

    init(defect: PlantedBug?) { self.defect = defect }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { schedule(at: now, work) }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let clamped = defect == .addedDuringAdvanceRunsAtTarget ? target.withLock { $0 } : nil
        return inner.schedule(at: clamped.map { max($0, deadline) } ?? deadline, work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }

    func advance(by duration: Duration) { advance(to: now + duration) }

    func advance(to target: SchedulerTime) {
        self.target.withLock { $0 = target }
        inner.advance(to: target)
        self.target.withLock { $0 = nil }
    }

    func step() -> Bool { inner.step() }

    func run(maxSteps: Int) -> VirtualTimeRunOutcome {
        let outcome = inner.run(maxSteps: maxSteps)
        if defect == .runSaysStoppedEarlyWhenDrained, case .drained(let steps) = outcome, steps == maxSteps {
            return .stoppedEarly(steps: steps, pending: 0)
        }
        return outcome
    }
}
