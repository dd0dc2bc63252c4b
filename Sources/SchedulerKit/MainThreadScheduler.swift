import Dispatch
import Foundation
import Synchronization

/// The main thread, with no extra hop when you are already there (RxSwift's `MainScheduler`, ReactiveSwift's and
/// combine-schedulers' `UIScheduler`): UI code that is on the main thread sees its work done before `schedule`
/// returns, so no frame shows stale state.
///
/// - Inline when called on the main queue (the main thread, or on Linux after `dispatchMain()` the thread that
///   drains the main queue) while none of this scheduler's work is queued or running; otherwise the task is queued
///   on the main queue. So tasks are serial and FIFO: work scheduled on the main thread never overtakes work queued
///   earlier from another thread, and work scheduled from inside one of its tasks waits until that task returns
///   (no recursion on the stack).
/// - Not asynchronous (it may run on the caller's stack) and not timed: for delayed work on the main queue use
///   ``DispatchQueueScheduler/main``.
/// - `cancel()` of queued work is truthful; work that ran inline returns a settled handle.
/// - On Linux the main queue runs only once the program serves it (see ``DispatchQueueScheduler/main``).
public final class MainThreadScheduler: Scheduler {
    public let name = "main-thread"
    /// Tasks of this scheduler queued or running; inline only when it is zero.
    private let outstanding = Atomic<Int>(0)

    /// The one instance: the main queue is one.
    public static let shared = MainThreadScheduler()

    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    private init() { _ = Self.mainQueueKey }

    /// The promises it keeps (see ``SchedulerTraits``).
    public static let traits: SchedulerTraits = [.serial, .setsCurrent, .sharedThreads, .inlineOnMainQueue]

    public var traits: SchedulerTraits { Self.traits }

    /// Whether the caller runs on the main queue (or the main thread).
    public static var isOnMainQueue: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let earlier = outstanding.add(1, ordering: .acquiringAndReleasing).oldValue
        if earlier == 0 && Self.isOnMainQueue {
            Schedulers.performAsCurrent(self, work)
            outstanding.subtract(1, ordering: .acquiringAndReleasing)
            return SettledWork.ran
        }
        let task = ScheduledWork(work)
        DispatchQueue.main.async { [self] in
            _ = Schedulers.performAsCurrent(self) { task.run() }
            outstanding.subtract(1, ordering: .acquiringAndReleasing)
        }
        return task
    }
}
