import Dispatch

/// RxSwift's `ConcurrentDispatchQueueScheduler`: tasks go to a concurrent `DispatchQueue`, your own or a global one
/// of a quality of service, and run side by side.
///
/// - Tasks start in the order they were submitted and may finish in any order. ``width`` is what the scheduler
///   declares it reaches: libdispatch runs a concurrent queue's blocks on as many threads as it chooses to bring up
///   (at least one per active processor, more when blocks block), so the declared width is the processor count.
///   Dispatch itself sets no upper bound: a task may share the machine with more of its siblings than `width` when
///   they block; this scheduler does not promise a bound ("never exceeded" is declared, not kept).
/// - Every task runs with `Schedulers.current === self`; `cancel()` is truthful (the task's own atomic state);
///   scheduling allocates the task and Dispatch's block.
/// - Delayed work: the same (deadline, FIFO) heap behind one Dispatch timer as ``DispatchQueueScheduler``, each due
///   task queued on the concurrent queue in deadline order. Repeating work is a fixed-rate `DispatchSourceTimer`
///   whose ticks never overlap (a source never runs its handler twice at once).
/// - `scheduleRecursive` runs one step at a time (see ``Scheduler/scheduleRecursive(_:)``).
public final class ConcurrentDispatchQueueScheduler: DispatchBackedScheduler, TimedScheduler, ConcurrentScheduler {
    public let name: String
    /// The concurrent queue tasks run on.
    public let queue: DispatchQueue
    public let width: Int
    /// nonisolated(unsafe): written once in `init`, before the scheduler is shared, and only read afterwards.
    nonisolated(unsafe) private(set) var timers: DispatchTimerHeap!

    /// The promises every scheduler of this type keeps (see ``SchedulerTraits``).
    public static let traits: SchedulerTraits = [
        .concurrent, .asynchronous, .timed, .repeating, .fixedRate, .setsCurrent, .sharedThreads,
    ]

    public var traits: SchedulerTraits { Self.traits }

    /// On a private concurrent queue that targets the global queue of `qos`.
    public convenience init(name: String, qos: DispatchQoS = .default) {
        self.init(name: name, queue: DispatchQueue(label: name, qos: qos, attributes: .concurrent))
    }

    /// On `queue`, which must be concurrent (a global queue, or one made with `attributes: .concurrent`); a serial
    /// queue makes a scheduler that never reaches its width.
    public init(name: String, queue: DispatchQueue) {
        self.name = name
        self.queue = queue
        self.width = ThreadPool.activeProcessorCount
        // unowned: the heap is the scheduler's, and pending delayed work keeps the scheduler alive.
        timers = DispatchTimerHeap(queue: queue, handOff: { [unowned self] in self.enqueue($0) })
    }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        enqueue(task)
        return task
    }

    /// Pending work keeps the scheduler alive: the block holds it.
    private func enqueue(_ task: ScheduledWork) {
        queue.async { [self] in _ = Schedulers.performAsCurrent(self) { task.run() } }
    }
}
