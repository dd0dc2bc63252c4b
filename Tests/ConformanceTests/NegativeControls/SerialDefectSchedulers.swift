import DequeModule
import Dispatch
import SchedulerKit

/// Negative control for S4: a serial queue that, to catch up, hands the back half of a backlog longer than 256
/// tasks to a helper thread, which runs it beside the queue's own drain (a work-stealing split applied to a serial
/// queue). Tasks then overlap, and the plain counter that S4 bumps loses increments every run; S1 and S2 see the
/// overlap when it happens during their own floods.
final class BacklogSplittingScheduler: Scheduler {
    let name = "backlog-splitting"
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent] }
    private let queue = DispatchQueue(label: "backlog-splitting")
    private let helper = DispatchQueue(label: "backlog-splitting-helper")
    private let state = Locked<(tasks: Deque<ScheduledWork>, draining: Bool, helping: Bool)>(([], false, false))

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        let startDrain = state.withLock { state -> Bool in
            state.tasks.append(task)
            defer { state.draining = true }
            return !state.draining
        }
        if startDrain { queue.async { [self] in drain() } }
        return task
    }

    private func drain() {
        while true {
            let (next, split) = state.withLock { state -> (ScheduledWork?, [ScheduledWork]) in
                guard let next = state.tasks.popFirst() else {
                    state.draining = false
                    return (nil, [])
                }
                // The defect: the back half of a long backlog goes to a helper that runs beside this drain.
                guard state.tasks.count > 256, !state.helping else { return (next, []) }
                state.helping = true
                let half = state.tasks.count / 2
                let split = Array(state.tasks.suffix(half))
                state.tasks.removeLast(half)
                return (next, split)
            }
            guard let next else { return }
            if !split.isEmpty {
                helper.async { [self] in
                    for task in split { Schedulers.performAsCurrent(self) { _ = task.run() } }
                    state.withLock { $0.helping = false }
                }
            }
            Schedulers.performAsCurrent(self) { _ = next.run() }
        }
    }
}

/// Negative control for S5 (and E5): a serial Dispatch scheduler with the hand-written shortcut "already on my
/// queue, so run it now" (`if Thread.isMainThread { work() } else { DispatchQueue.main.async(work) }`): work
/// scheduled from inside one of its own tasks runs at once, on that task's stack. RxSwift's MainScheduler and
/// ReactiveSwift's UIScheduler count their queued work to avoid exactly this (RxSwift#2704 is about that counter);
/// ReactiveCocoa#1296 is the immediate scheduler's form of it. Work from outside is queued, so tasks never overlap
/// and keep their order.
final class NestedInlineScheduler: Scheduler {
    let name = "nested-inline"
    /// Not shared-threads: S6's busy tasks re-enqueue from inside themselves, which here would recurse for good.
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent] }
    private let queue = DispatchQueue(label: "nested-inline")

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        if Schedulers.current === self {
            work()
            return SettledWork.ran
        }
        let task = ScheduledWork(work)
        queue.async { [self] in Schedulers.performAsCurrent(self) { _ = task.run() } }
        return task
    }
}
