import SchedulerKit

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
