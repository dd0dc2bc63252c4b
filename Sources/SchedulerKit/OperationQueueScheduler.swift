import Foundation
import Synchronization

/// RxSwift's `OperationQueueScheduler`: an `OperationQueue`, serial by default (`maxConcurrentOperationCount = 1`),
/// concurrent with a width above one, or a queue the caller owns (say `OperationQueue.main`, or a queue shared with
/// other code), whose `maxConcurrentOperationCount` is the width.
///
/// - Width 1 keeps the serial promises (``SchedulerTraits/serial``); a larger width is ``SchedulerTraits/concurrent``:
///   up to `width` tasks at once, and `scheduleRecursive` steps and repeating ticks still one at a time. The width is
///   read once: do not change the queue's `maxConcurrentOperationCount` afterwards.
/// - Every operation gets the scheduler's `queuePriority`, so work of several schedulers on one shared queue is
///   ordered by priority first, as `Operation` orders it.
/// - Cancelling a task that has not started cancels its `Operation` too (real `Operation` cancellation), so the
///   queue drops it; the task's own atomic state keeps `cancel()` truthful when it races the start.
/// - `OperationQueue` has no timers. Delayed work waits in the scheduler's own (deadline, sequence) heap behind one
///   Dispatch timer, as ``DispatchQueueScheduler``'s does, and is added to the queue when due: never early, but it
///   queues behind whatever is already there. Work scheduled at a deadline that has passed goes through the same heap,
///   after every task of the heap that is due, so it never overtakes earlier deadlines whose timer is late. Repeating
///   work is a fixed-rate tick on a shared Dispatch timekeeper that adds one tick operation at a time; a tick that
///   comes due while the previous one is still queued or running is coalesced.
/// - Operations run on Dispatch's shared worker threads, each submitted on its own, so busy queues take turns with
///   other work on those threads (conformance rule S6), which a serial `DispatchQueue` does not.
public final class OperationQueueScheduler: TimedScheduler, ConcurrentScheduler {
    public let name: String
    public let operationQueue: OperationQueue
    /// The queue's `maxConcurrentOperationCount` when the scheduler was made.
    public let width: Int
    /// Given to every operation this scheduler adds.
    public let queuePriority: Operation.QueuePriority

    /// Keeps time for the repeating work of every operation-queue scheduler.
    private static let timekeeper = DispatchQueueScheduler(name: "operation-queue-timekeeper")
    /// Where every operation-queue scheduler's delayed-work timer fires (the handler only adds operations).
    /// Internal: a test holds it to make a timer late.
    static let timerQueue = DispatchQueue(label: "operation-queue-timers")
    /// Delayed work: each entry is a relay that adds its task's operation to the queue (see `schedule(at:_:)`).
    private let timers = DispatchTimerHeap(queue: OperationQueueScheduler.timerQueue, handOff: { relay in relay.run() })

    /// On a private queue that runs up to `maxConcurrentOperationCount` operations at once (1: serial).
    public convenience init(
        name: String, maxConcurrentOperationCount: Int = 1, queuePriority: Operation.QueuePriority = .normal
    ) {
        precondition(
            maxConcurrentOperationCount > 0,
            "OperationQueueScheduler(maxConcurrentOperationCount:): must be > 0, got \(maxConcurrentOperationCount)")
        let queue = OperationQueue()
        queue.name = name
        queue.maxConcurrentOperationCount = maxConcurrentOperationCount
        self.init(name: name, operationQueue: queue, queuePriority: queuePriority)
    }

    /// On a queue the caller owns and may share. Its `maxConcurrentOperationCount` must be set (not the default,
    /// which leaves the width to the system and so promises none).
    public init(name: String, operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        let width = operationQueue.maxConcurrentOperationCount
        precondition(
            width > 0,
            "OperationQueueScheduler(operationQueue:): set the queue's maxConcurrentOperationCount (got \(width)) first"
        )
        self.name = name
        self.operationQueue = operationQueue
        self.width = width
        self.queuePriority = queuePriority
    }

    /// The promises a scheduler of this type keeps at width 1 (see ``SchedulerTraits``).
    public static let traits: SchedulerTraits = [
        .serial, .asynchronous, .timed, .repeating, .fixedRate, .setsCurrent, .sharedThreads,
    ]

    /// The promises it keeps at a larger width.
    public static let concurrentTraits: SchedulerTraits = traits.subtracting(.serial).union(.concurrent)

    public var traits: SchedulerTraits { width == 1 ? Self.traits : Self.concurrentTraits }

    public var now: SchedulerTime { .monotonicNow() }

    @discardableResult
    public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let handle = OperationHandle(ScheduledWork(work))
        enqueue(handle)
        return handle
    }

    @discardableResult
    public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let handle = OperationHandle(ScheduledWork(work))
        // The heap holds a relay, not the task: handing it off adds the task's operation, which the handle keeps so
        // that cancelling drops the operation from the queue. Cancelling the handle cancels the relay too.
        let relay = ScheduledWork { [self] in
            if !handle.task.isCancelled { enqueue(handle) }
        }
        handle.setTimer(relay)
        timers.schedule(relay, at: deadline, owner: self)
        return handle
    }

    @discardableResult
    public func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        ArgumentCheck.repeating(interval: interval, leeway: leeway)
        let repeating = RepeatingWork(work)
        let tickInFlight = Atomic<Bool>(false)
        let timer = Self.timekeeper.schedule(at: start, every: interval, leeway: leeway) { [self] in
            guard !repeating.isCancelled,
                tickInFlight.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
            else { return }
            let tick = TaskOperation(scheduler: self) {
                repeating.runTick()
                tickInFlight.store(false, ordering: .releasing)
            }
            if queuePriority != .normal { tick.queuePriority = queuePriority }
            operationQueue.addOperation(tick)
        }
        repeating.setOnEnd { timer.cancel() }
        return repeating
    }

    private func enqueue(_ handle: OperationHandle) {
        // Captures the task, not the handle: the handle keeps the operation, so capturing the handle would be a
        // cycle that leaks every finished task (and keeps the scheduler alive through the operation).
        let task = handle.task
        let operation = TaskOperation(scheduler: self) { task.run() }
        // The setter takes Operation's lock: only when it changes something (it cost 218 instructions a task).
        if queuePriority != .normal { operation.queuePriority = queuePriority }
        handle.setOperation(operation)
        operationQueue.addOperation(operation)
    }
}

/// Runs one task with the current scheduler set.
// @unchecked Sendable: all stored properties are immutable and Sendable; `Operation` guards its own state.
private final class TaskOperation: Operation, @unchecked Sendable {
    private let scheduler: any Scheduler
    private let body: @Sendable () -> Void

    init(scheduler: any Scheduler, body: @escaping @Sendable () -> Void) {
        self.scheduler = scheduler
        self.body = body
    }

    override func main() {
        guard !isCancelled else { return }
        Schedulers.performAsCurrent(scheduler, body)
    }
}

/// The task plus whatever stands for it in the queue or the timekeeper, cancelled together.
private final class OperationHandle: Cancellable {
    let task: ScheduledWork
    private let links = Locked<(operation: Operation?, timer: (any Cancellable)?)>((nil, nil))

    init(_ task: ScheduledWork) { self.task = task }

    func setOperation(_ operation: Operation) {
        links.withLock { $0.operation = operation }
        if task.isCancelled { operation.cancel() }
    }

    func setTimer(_ timer: any Cancellable) {
        links.withLock { $0.timer = timer }
        if task.isCancelled { timer.cancel() }
    }

    func cancel() -> Bool {
        guard task.cancel() else { return false }
        let (operation, timer) = links.withLock { links in
            defer { links = (nil, nil) }
            return links
        }
        operation?.cancel()
        timer?.cancel()
        return true
    }

    var isCancelled: Bool { task.isCancelled }
}
