/// RAC's `subscriptionScheduler`: runs work at once, inline, when the caller is already inside a task of some
/// scheduler (so subscription side effects stay on that scheduler), and otherwise on a background serial scheduler.
///
/// While inline work runs, `Schedulers.current` stays the caller's scheduler; on the background path it is the
/// background scheduler. So `current` is never the subscription scheduler itself, and inline work runs on the
/// caller's stack: it declares neither `asynchronous` nor `setsCurrent`.
public final class SubscriptionScheduler: Scheduler {
    public let name = "subscription"
    /// Where work goes when no scheduler is current.
    public let background: DispatchQueueScheduler

    /// The promises every scheduler of this type keeps (see ``SchedulerTraits``).
    public static let traits: SchedulerTraits = [.inlineUnderCurrent]

    public var traits: SchedulerTraits { Self.traits }

    init(background: DispatchQueueScheduler = DispatchQueueScheduler(name: "subscription-background")) {
        self.background = background
    }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        guard Schedulers.current != nil else { return background.schedule(work) }
        work()
        return SettledWork.ran
    }
}
