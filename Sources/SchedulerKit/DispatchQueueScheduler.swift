import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// RAC's `RACTargetQueueScheduler` in Swift: a private serial queue whose target is any queue (serial even when
/// the target is concurrent).
///
/// - Plain work: the task node goes into a lock-free FIFO (`TaskQueue`) and the queue gets one `async` of a
///   block made once per scheduler, which runs the oldest node. The serial queue runs those blocks in order, so the
///   n-th block runs the n-th node; scheduling allocates only the node (raw `async` allocates a block per call).
/// - Delayed work waits in a (deadline, sequence) heap behind one Dispatch timer armed at the earliest deadline
///   (`DispatchTimerHeap`), because `asyncAfter` runs equal deadlines in no particular order. Deadlines are on
///   `CLOCK_MONOTONIC`, which is Dispatch's uptime clock, never the wall clock.
/// - Repeating work is a fixed-rate `DispatchSourceTimer` with leeway on the private queue: missed ticks coalesce and
///   ticks never overlap. Dropping its handle does not stop it; only `cancel()` does.
/// - Pending work (plain, delayed or repeating) keeps the scheduler alive and runs: releasing the scheduler drops
///   nothing.
/// - Not fair between queues: libdispatch drains a serial queue for as long as it has work, so a scheduler whose
///   tasks keep re-enqueueing holds a thread of its target; enough of them starve the rest (declared for rule S6).
public final class DispatchQueueScheduler: DispatchBackedScheduler, TimedScheduler {
    public let name: String
    /// The private serial queue tasks run on.
    public let queue: DispatchQueue
    /// Nodes waiting for their `async`; the serial queue is the single consumer.
    private let pending = TaskQueue()
    /// Runs the oldest pending node. Made once: a block stored as a block is only retained by `async`, not copied.
    /// nonisolated(unsafe): written once in `init`, before the scheduler is shared, and only read afterwards.
    nonisolated(unsafe) private var runOldest: (@Sendable @convention(block) () -> Void)!
    /// nonisolated(unsafe): written once in `init`, before the scheduler is shared, and only read afterwards.
    nonisolated(unsafe) private(set) var timers: DispatchTimerHeap!

    /// The promises every scheduler of this type keeps (see ``SchedulerTraits``).
    public static let traits: SchedulerTraits = [
        .serial, .asynchronous, .timed, .repeating, .fixedRate, .setsCurrent, .sharedThreads,
    ]

    public var traits: SchedulerTraits { Self.traits }

    /// A serial scheduler over a private queue that targets `targetQueue` (the default global queue if nil).
    public init(name: String, targetQueue: DispatchQueue? = nil, qos: DispatchQoS = .unspecified) {
        self.name = name
        self.queue = DispatchQueue(label: name, qos: qos, target: targetQueue ?? .global())
        // unowned(unsafe): every `async` of this block holds a +1 on the scheduler until the block has run.
        runOldest = { [unowned(unsafe) self] in self.runOldestPending() }
        // unowned: the heap is the scheduler's, and pending delayed work keeps the scheduler alive. The timer fires
        // on the private queue, so a due task runs right there.
        timers = DispatchTimerHeap(
            queue: queue, enqueue: { [unowned self] in self.enqueue($0) },
            fire: { [unowned self] task in _ = Schedulers.performAsCurrent(self) { task.run() } })
    }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        enqueue(task)
        return task
    }

    fileprivate func enqueue(_ task: ScheduledWork) {
        _ = pending.push(task)
        _ = Unmanaged.passRetained(self)  // pending work keeps the scheduler alive; released by the block
        queue.async(execute: runOldest)
    }

    private func runOldestPending() {
        defer { Unmanaged.passUnretained(self).release() }
        var task = pending.pop()
        while task == nil {
            // Every block follows a completed push, so a node is there; a concurrent push is still linking it.
            sched_yield()
            task = pending.pop()
        }
        _ = Schedulers.performAsCurrent(self) { task!.run() }
    }
}

@_spi(Bench) extension DispatchQueueScheduler: NodeScheduler {
    public func enqueue(node: ScheduledWork) { enqueue(node) }
}

extension DispatchQueueScheduler {
    /// A scheduler on the main queue. On Linux the main queue runs only once the program serves it: an async
    /// `main` (and so `swift test`) calls `dispatchMain()`, after which Dispatch drains the main queue from a worker
    /// thread (so `Thread.isMainThread` is false there); a plain program must call `dispatchMain()` or pump it with
    /// ``pumpMainQueue(for:)`` from the main thread, or nothing scheduled on `main` ever runs.
    public static let main = DispatchQueueScheduler(name: "main", targetQueue: .main)

    /// Runs the main queue for `duration` from the main thread, so work on ``main`` runs (Linux has no always-on
    /// main run loop). Must be called on the main thread.
    public static func pumpMainQueue(for duration: Duration) {
        precondition(Thread.isMainThread, "pumpMainQueue(for:): must be called on the main thread")
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        RunLoop.main.run(until: Date(timeIntervalSinceNow: seconds))
    }
}
