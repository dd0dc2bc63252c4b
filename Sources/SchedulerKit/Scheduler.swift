/// A handle to scheduled work.
///
/// `cancel()` is *truthful*: it returns `true` only for the one call that guaranteed the work will never
/// start (for repeating or recursive work: that no later tick or step will start). The decision is one atomic
/// state transition that races the start of the work, so `ran ⇔ cancel() returned false` holds under any race.
public protocol Cancellable: Sendable {
    /// `true` only for the one call that guaranteed the work will never start.
    @discardableResult func cancel() -> Bool
    /// Whether a `cancel()` call has succeeded (or the scheduler cancelled the work, e.g. at shutdown).
    var isCancelled: Bool { get }
}

/// Something that runs work later, somewhere, and says which promises it keeps through ``traits``.
public protocol Scheduler: AnyObject, Sendable {
    var name: String { get }
    /// The promises this scheduler keeps; conformance rules select by them.
    var traits: SchedulerTraits { get }
    @discardableResult func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable
}

/// A scheduler that runs several of its tasks at once (trait ``SchedulerTraits/concurrent``).
///
/// Tasks start in the order they were queued, but may finish in any order: a concurrent scheduler is not serial, so
/// the state its tasks share needs a lock of its own. Two steps of one `scheduleRecursive` and two ticks of one
/// repeating task never overlap, whatever the width.
public protocol ConcurrentScheduler: Scheduler {
    /// The most tasks that run at the same time. Fixed for the scheduler's life; reached whenever that many are
    /// ready and the threads underneath are free.
    var width: Int { get }
}

/// A scheduler with a monotonic clock, delayed work and repeating work.
public protocol TimedScheduler: Scheduler {
    /// Monotonic; virtual on ``TestScheduler``.
    var now: SchedulerTime { get }
    /// Runs `work` no earlier than `deadline` on this scheduler's clock. A deadline at or before `now`
    /// behaves like `schedule(_:)` at the moment of the call.
    @discardableResult func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void)
        -> any Cancellable
    /// Runs `work` at `start`, `start + interval`, `start + 2·interval`, … (fixed rate, never early, ticks never
    /// overlap).
    /// `leeway` is how late a tick may be allowed to fire so that wake-ups can be coalesced.
    @discardableResult func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration,
        _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable
}

extension TimedScheduler {
    /// Runs `work` no earlier than `delay` from now.
    @discardableResult public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void)
        -> any Cancellable
    {
        schedule(at: now.advanced(by: delay, argument: "delay"), work)
    }

    /// Repeating work with no leeway.
    @discardableResult public func schedule(
        at start: SchedulerTime, every interval: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        schedule(at: start, every: interval, leeway: .zero, work)
    }
}

/// The promises a scheduler keeps. Rules of the conformance kit select backends by these.
public struct SchedulerTraits: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Two tasks never overlap and tasks from one producer run in submission order.
    public static let serial = SchedulerTraits(rawValue: 1 << 0)
    /// A task never runs on the stack of the `schedule` call that submitted it.
    public static let asynchronous = SchedulerTraits(rawValue: 1 << 1)
    /// Work scheduled from inside running work runs after that work returns, FIFO (``ImmediateScheduler``).
    public static let trampoline = SchedulerTraits(rawValue: 1 << 2)
    /// Conforms to ``TimedScheduler``: delayed work on a monotonic clock.
    public static let timed = SchedulerTraits(rawValue: 1 << 3)
    /// Supports repeating work.
    public static let repeating = SchedulerTraits(rawValue: 1 << 4)
    /// Repeating work keeps a fixed rate (ticks on the grid `start + k·interval`, missed ticks coalesced).
    public static let fixedRate = SchedulerTraits(rawValue: 1 << 5)
    /// Time is virtual and only moves when a test drives it (``TestScheduler``).
    public static let virtualTime = SchedulerTraits(rawValue: 1 << 6)
    /// Has a `shutdown()` that cancels what has not started (``ThreadPool``).
    public static let shutdown = SchedulerTraits(rawValue: 1 << 7)
    /// `Schedulers.current === self` inside every task it runs.
    public static let setsCurrent = SchedulerTraits(rawValue: 1 << 8)
    /// Runs tasks on threads it shares with other schedulers or with raw submissions.
    public static let sharedThreads = SchedulerTraits(rawValue: 1 << 9)
    /// Runs up to ``ConcurrentScheduler/width`` of its tasks at the same time (and reaches that width when that
    /// many are ready); never two steps of one `scheduleRecursive` or two ticks of one repeating task at once.
    public static let concurrent = SchedulerTraits(rawValue: 1 << 10)
    /// Runs work inline, on the caller's stack, when a scheduler is current, and on a scheduler of its own (later,
    /// on another thread) when none is (RAC's `subscriptionScheduler`: ``SubscriptionScheduler``).
    public static let inlineUnderCurrent = SchedulerTraits(rawValue: 1 << 11)
    /// Runs work inline when called on the main queue with none of its own work queued or running, and queues it on
    /// the main queue otherwise (RxSwift's `MainScheduler`: ``MainThreadScheduler``).
    public static let inlineOnMainQueue = SchedulerTraits(rawValue: 1 << 12)
    /// Must be made, called and driven from one thread only, the one that made it (RxSwift's `HistoricalScheduler`
    /// and `VirtualTimeScheduler` stop the program otherwise, in every build of 6.10.2). A promise it asks of its
    /// users, not one it keeps: the conformance kit then makes, calls and drives it from the check's thread alone,
    /// and the rules that need calls from several threads do not apply.
    public static let threadConfined = SchedulerTraits(rawValue: 1 << 13)

    static let names: [(SchedulerTraits, String)] = [
        (.serial, "serial"), (.asynchronous, "asynchronous"), (.trampoline, "trampoline"), (.timed, "timed"),
        (.repeating, "repeating"), (.fixedRate, "fixed-rate"), (.virtualTime, "virtual-time"), (.shutdown, "shutdown"),
        (.setsCurrent, "sets-current"), (.sharedThreads, "shared-threads"), (.concurrent, "concurrent"),
        (.inlineUnderCurrent, "inline-under-current"), (.inlineOnMainQueue, "inline-on-main-queue"),
        (.threadConfined, "thread-confined"),
    ]

    public var description: String {
        Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ")
    }
}
