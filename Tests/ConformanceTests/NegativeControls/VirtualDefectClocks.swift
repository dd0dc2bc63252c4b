import Foundation
import SchedulerConformance
import SchedulerKit

/// Negative controls for V1, V3 and V7: SchedulerKit's TestScheduler, correct but for one defect each. Tasks run
/// with the inner scheduler current, so they do not claim `setsCurrent`.
final class VirtualDefectClock: VirtualTimeDriver {
    enum Defect: Sendable {
        /// Plain work runs at once, inside schedule, as if "due now" meant "now": an immediate scheduler's path
        /// left in a test scheduler (V1).
        case plainWorkRunsAtOnce
        /// Work scheduled while an advance runs waits in a side list, merged into the queue when the advance ends
        /// (a way to keep the queue from being changed under the advance): work an action schedules within the
        /// advanced window needs a second advance (V3; RxSwift's testVirtualScheduler_start guards the same).
        case workAddedDuringAdvanceWaits
        /// run(maxSteps:) stops after maxSteps but says it drained the queue (V7).
        case runAlwaysSaysDrained
    }

    let name = "virtual-defect"
    private let inner = TestScheduler(name: "virtual-defect")
    private let defect: Defect
    /// Whether an advance is running, and the work scheduled meanwhile (`.workAddedDuringAdvanceWaits`).
    private let sideList = Locked<(advancing: Bool, waiting: [(deadline: SchedulerTime?, task: ScheduledWork)])>(
        (false, []))
    static let traits = TestScheduler.traits.subtracting(.setsCurrent)
    var traits: SchedulerTraits { Self.traits }
    var now: SchedulerTime { inner.now }

    init(_ defect: Defect) { self.defect = defect }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        if defect == .plainWorkRunsAtOnce {
            work()
            return SettledWork.ran
        }
        return waitingDuringAdvance(nil, work) ?? inner.schedule(work)
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        waitingDuringAdvance(deadline, work) ?? inner.schedule(at: deadline, work)
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        inner.schedule(at: start, every: interval, leeway: leeway, work)
    }

    /// The task put on the side list, if an advance is running and this clock has that defect.
    private func waitingDuringAdvance(_ deadline: SchedulerTime?, _ work: @escaping @Sendable () -> Void)
        -> ScheduledWork?
    {
        guard defect == .workAddedDuringAdvanceWaits else { return nil }
        return sideList.withLock { list in
            guard list.advancing else { return nil }
            let task = ScheduledWork(work)
            list.waiting.append((deadline, task))
            return task
        }
    }

    func advance(by duration: Duration) { advance(to: now + duration) }

    func advance(to target: SchedulerTime) {
        sideList.withLock { $0.advancing = true }
        inner.advance(to: target)
        let waiting = sideList.withLock { list in
            list.advancing = false
            defer { list.waiting = [] }
            return list.waiting
        }
        for (deadline, task) in waiting {
            if let deadline {
                inner.schedule(at: deadline) { task.run() }
            } else {
                inner.schedule { task.run() }
            }
        }
    }

    func step() -> Bool { inner.step() }

    func run(maxSteps: Int) -> VirtualTimeRunOutcome {
        guard defect == .runAlwaysSaysDrained else { return inner.run(maxSteps: maxSteps) }
        var steps = 0
        while steps < maxSteps, inner.step() { steps += 1 }
        return .drained(steps: steps)
    }
}

/// Negative control for V8: a TestScheduler behind one recursive lock that every call takes, held while an advance
/// runs its actions, as ReactiveSwift's TestScheduler holds its lock (seen in its source). The advancing thread may
/// call in again; an action that waits for another thread to schedule waits until it gives up, 5 s for each of the
/// check's 20 actions, so the check fails as not finished.
final class LockedActionsVirtualClock: VirtualTimeDriver {
    let name = "locked-actions"
    private let inner = TestScheduler(name: "locked-actions")
    private let lock = NSRecursiveLock()
    var traits: SchedulerTraits { VirtualDefectClock.traits }
    var now: SchedulerTime { locked { inner.now } }

    private func locked<R>(_ body: () -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { locked { inner.schedule(work) } }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        locked { inner.schedule(at: deadline, work) }
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        locked { inner.schedule(at: start, every: interval, leeway: leeway, work) }
    }

    func advance(by duration: Duration) { locked { inner.advance(by: duration) } }
    /// The defect: the lock is held while the actions run.
    func advance(to target: SchedulerTime) { locked { inner.advance(to: target) } }
    func step() -> Bool { locked { inner.step() } }
    func run(maxSteps: Int) -> VirtualTimeRunOutcome { locked { inner.run(maxSteps: maxSteps) } }
}
