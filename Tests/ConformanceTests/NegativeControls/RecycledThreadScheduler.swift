import DequeModule
import Foundation
import SchedulerConformance
import SchedulerKit

/// Negative control for K4: each scheduler gets a worker thread of its own, from a pool that takes a thread back
/// when its scheduler is freed and hands it to the next scheduler. The defect: a thread keeps naming the scheduler
/// it was started for when it is handed on, so the tasks of every later scheduler on it run with a freed
/// scheduler's identity as current: a thread-keyed identity that outlives its owner (the ABA that SwiftNIO's
/// testInEventLoopABAProblem guards against for inEventLoop). The name is a weak reference, so a freed owner reads
/// as no scheduler rather than as a dangling pointer the check could not read safely.
final class RecycledThreadScheduler: Scheduler {
    let name = "recycled-thread"
    var traits: SchedulerTraits { [.serial, .asynchronous, .setsCurrent] }
    private let pool: RecyclingPool
    private let worker: RecycledWorker

    init(pool: RecyclingPool) {
        self.pool = pool
        worker = pool.take()
        worker.adopt(self)
    }

    deinit { pool.giveBack(worker) }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        worker.enqueue(task)
        return task
    }

    /// One pool per check, so only schedulers of one check share threads.
    static let backend = ConformanceBackend(
        name: "Control: recycled thread keeps its owner",
        traits: [.serial, .asynchronous, .setsCurrent]
    ) {
        let pool = RecyclingPool()
        return ConformanceSession(makeScheduler: { RecycledThreadScheduler(pool: pool) }, tearDown: { pool.close() })
    }
}

/// Idle workers, handed to the next scheduler that needs one.
final class RecyclingPool: Sendable {
    private let idle = Locked<(workers: [RecycledWorker], closed: Bool)>(([], false))

    func take() -> RecycledWorker {
        idle.withLock { $0.workers.popLast() } ?? RecycledWorker()
    }

    func giveBack(_ worker: RecycledWorker) {
        let closed = idle.withLock { state -> Bool in
            if !state.closed { state.workers.append(worker) }
            return state.closed
        }
        if closed { worker.stop() }
    }

    func close() {
        let workers = idle.withLock { state -> [RecycledWorker] in
            state.closed = true
            defer { state.workers = [] }
            return state.workers
        }
        for worker in workers { worker.stop() }
    }
}

/// A thread that runs queued tasks in order.
// @unchecked Sendable: `owner`, `queue` and `stopped` are touched only with `condition` locked.
final class RecycledWorker: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue = Deque<ScheduledWork>()
    private var stopped = false
    private weak var owner: RecycledThreadScheduler?
    private var adopted = false

    init() {
        Thread.detachNewThread { [self] in run() }
    }

    /// The defect: only the first scheduler a thread serves becomes its owner.
    func adopt(_ scheduler: RecycledThreadScheduler) {
        condition.lock()
        if !adopted {
            owner = scheduler
            adopted = true
        }
        condition.unlock()
    }

    func enqueue(_ task: ScheduledWork) {
        condition.lock()
        queue.append(task)
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            guard let task = queue.popFirst() else {
                if stopped { break }
                condition.wait()
                continue
            }
            let owner = owner
            condition.unlock()
            if let owner {
                Schedulers.performAsCurrent(owner) { _ = task.run() }
            } else {
                task.run()
            }
            condition.lock()
        }
        condition.unlock()
    }
}
