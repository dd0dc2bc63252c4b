import Dispatch
import SchedulerKit

/// A third party's scheduler: a private serial `DispatchQueue` with a truthful cancel. It uses SchedulerKit's public
/// API only (the `Scheduler` protocol, `Cancellable`, `Schedulers.performAsCurrent`).
public final class QueueScheduler: Scheduler {
    public let name: String
    private let queue: DispatchQueue

    public init(name: String) {
        self.name = name
        queue = DispatchQueue(label: name)
    }

    public static let traits: SchedulerTraits = [.serial, .asynchronous, .setsCurrent]
    public var traits: SchedulerTraits { Self.traits }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let handle = QueueWork(work)
        queue.async { [self] in
            guard let work = handle.start() else { return }
            Schedulers.performAsCurrent(self, work)
        }
        return handle
    }
}

/// One task's handle. `pending → started` or `pending → cancelled`, decided once under a lock; a cancel drops the
/// closure at once, so its captures go with it.
final class QueueWork: Cancellable {
    private enum State {
        case pending(@Sendable () -> Void)
        case started
        case cancelled
    }
    /// SchedulerKit's `Locked` rather than `Mutex`: ThreadSanitizer sees its pthread mutex, so a `--sanitize=thread`
    /// run reports only real races.
    private let state: Locked<State>

    init(_ work: @escaping @Sendable () -> Void) { state = Locked(.pending(work)) }

    /// The closure to run, or nil when a cancel came first.
    func start() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard case .pending(let work) = state else { return nil }
            state = .started
            return work
        }
    }

    func cancel() -> Bool {
        state.withLock { state in
            guard case .pending = state else { return false }
            state = .cancelled
            return true
        }
    }

    var isCancelled: Bool {
        state.withLock { state in
            if case .cancelled = state { return true }
            return false
        }
    }
}
