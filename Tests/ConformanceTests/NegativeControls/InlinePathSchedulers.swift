import Dispatch
import SchedulerKit

/// Negative control for K5: a subscription scheduler that always hops to its background queue, even when called
/// inside another scheduler's task (so subscription side effects leave the scheduler they were started on).
final class AlwaysHoppingSubscriptionScheduler: Scheduler {
    let name = "always-hopping-subscription"
    private let background = DispatchQueueScheduler(name: "always-hopping-background")
    var traits: SchedulerTraits { [.inlineUnderCurrent] }
    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable { background.schedule(work) }
}

/// Negative control for K6: a main scheduler that always queues on the main queue, even when called there with
/// nothing of its own outstanding (RxSwift#2704's fast path gone).
final class AlwaysQueueingMainScheduler: Scheduler {
    let name = "always-queueing-main"
    private let main = DispatchQueueScheduler.main
    var traits: SchedulerTraits { [.serial, .setsCurrent, .sharedThreads, .inlineOnMainQueue] }
    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        main.schedule { [self] in Schedulers.performAsCurrent(self, work) }
    }
}
