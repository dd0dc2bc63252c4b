import SchedulerKit
import Synchronization

/// A control built on a serial `DispatchQueueScheduler`: its plain and delayed work go to `inner` with the control
/// current, so each control writes only the part its defect is about (most often its repeating work).
protocol DispatchForwardingControl: TimedScheduler {
    var inner: DispatchQueueScheduler { get }
}

extension DispatchForwardingControl {
    var now: SchedulerTime { inner.now }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        inner.schedule { [self] in Schedulers.performAsCurrent(self, work) }
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        inner.schedule(at: deadline) { [self] in Schedulers.performAsCurrent(self, work) }
    }
}

/// Repeating work as a chain of one-shot timers on a control's `inner`, each armed after the action before it ran,
/// as OpenCombine's OperationQueue scheduler builds it. The controls that use it differ in one defect each: where the
/// next tick falls (`next`), or whether a cancel stops the chain (`stopsWhenCancelled`).
final class OneShotTimerChain: Cancellable {
    private let pending = Locked<(any Cancellable)?>(nil)
    private let cancelled = Atomic<Bool>(false)
    private let stopsWhenCancelled: Bool

    init(stopsWhenCancelled: Bool) { self.stopsWhenCancelled = stopsWhenCancelled }

    /// Says yes once, and cancels the one-shot timer pending now: from inside a tick, that is the running one.
    func cancel() -> Bool {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        _ = pending.withLock { $0 }?.cancel()
        return true
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Arms the tick due at `due`; after its action, `next(due, now)` is the next tick's deadline.
    func arm<Control: DispatchForwardingControl>(
        on control: Control, at due: SchedulerTime,
        next: @escaping @Sendable (_ due: SchedulerTime, _ now: SchedulerTime) -> SchedulerTime,
        _ work: @escaping @Sendable () -> Void
    ) {
        pending.withLock { pending in
            if stopsWhenCancelled && isCancelled { return }
            // Weak: ticks must not keep the scheduler alive, and a chain a cancel failed to stop ends with it.
            pending = control.inner.schedule(at: due) { [weak control] in
                guard let control, !(self.stopsWhenCancelled && self.isCancelled) else { return }
                Schedulers.performAsCurrent(control, work)
                self.arm(on: control, at: next(due, control.now), next: next, work)
            }
        }
    }
}
