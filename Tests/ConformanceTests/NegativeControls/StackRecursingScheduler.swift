import SchedulerKit

/// Negative control for R: claims to trampoline like ``ImmediateScheduler`` but runs nested work right away, on the
/// stack of the task that scheduled it (ReactiveCocoa#1296).
final class StackRecursingScheduler: Scheduler {
    let name = "stack-recursing"
    var traits: SchedulerTraits { [.serial, .trampoline, .setsCurrent] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        Schedulers.performAsCurrent(self) { work() }
        return SettledWork.ran
    }
}
