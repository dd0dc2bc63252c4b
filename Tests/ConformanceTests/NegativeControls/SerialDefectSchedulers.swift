import DequeModule
import Dispatch
import SchedulerKit
import Synchronization

/// Negative control for S4: a serial queue that, to catch up, lets a helper thread steal the back half of a backlog
/// longer than 256 tasks while the queue drains the front, again and again until the backlog is short (work stealing
/// applied to a serial queue). Tasks then overlap for as long as a flood lasts, and the plain counter that S4 bumps loses
/// increments every run, also on a busy machine; S1 and S2 see the overlap when it happens during their own floods.
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
            let (next, startHelper) = state.withLock { state -> (ScheduledWork?, Bool) in
                guard let next = state.tasks.popFirst() else {
                    state.draining = false
                    return (nil, false)
                }
                // The defect: a long backlog brings in a helper that runs tasks beside this drain.
                guard state.tasks.count > 256, !state.helping else { return (next, false) }
                state.helping = true
                return (next, true)
            }
            guard let next else { return }
            if startHelper {
                // The drain goes on once the helper runs (or 10 ms pass): both threads are then on a core at once, as
                // they are on an idle machine, so the overlap is real also when other work shares the cores.
                let helperRuns = Atomic<Bool>(false)
                helper.async { [self] in
                    helperRuns.store(true, ordering: .releasing)
                    steal()
                }
                let giveUpAt = SchedulerTime.monotonicNow().nanoseconds + 10_000_000
                while !helperRuns.load(ordering: .acquiring), SchedulerTime.monotonicNow().nanoseconds < giveUpAt {}
            }
            Schedulers.performAsCurrent(self) { _ = next.run() }
        }
    }

    /// Steals the back half, runs it, and comes back for more while the backlog stays long: a whole flood's worth of
    /// overlap, not one batch's, so that the two threads are on the machine's cores at once at some point even when
    /// other work shares them. Each batch runs outside the lock, as the queue's own tasks do.
    private func steal() {
        while true {
            let batch = state.withLock { state -> [ScheduledWork] in
                guard state.tasks.count > 256 else {
                    state.helping = false
                    return []
                }
                let half = state.tasks.count / 2
                defer { state.tasks.removeLast(half) }
                return Array(state.tasks.suffix(half))
            }
            guard !batch.isEmpty else { return }
            for task in batch { Schedulers.performAsCurrent(self) { _ = task.run() } }
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
