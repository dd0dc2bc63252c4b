import Dispatch
import Foundation
@_spi(Bench) @_spi(Threads) import SchedulerKit
import Synchronization

/// The `spin-handoff` reference: the floor of handing one heap-allocated task to another thread on this machine.
///
/// The thread pool's own task node and lock-free queue (``TaskQueue``), consumed by a dedicated thread that never
/// sleeps and keeps no books: no ownership hand-back, no ready list, no wake-up, no current scheduler. What is left
/// is one allocation, one queue link and the cache misses of moving the node between cores, so the pool's W1 cost
/// divided by this one is what the pool's bookkeeping costs, and no design with a node per task can go below it.
/// It burns a core while it exists, so it is measured only where that does not distort (W1, W9, W10), and on the
/// actor rows (W11–W13), as the floor of every custom executor: an actor's or a task's job handed over in the pool's
/// node and run by a thread that never sleeps, what any executor outside Swift's cooperative pool must at least do.
/// Those rows run at most two such threads, and the caller that times them waits asleep, so two cores hold them. With
/// W12's `caller=global`, what is left is the global executor waking one of its threads to resume the awaiting task.
final class HandOffFloorLane: Lane {
    private let queue = TaskQueue()
    private let stopping = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)

    /// The consumer thread holds the lane until ``stop()``, which the lane group calls at the end of every round.
    init(name: String) {
        let thread = Thread { [self] in
            nameThisThread(name)  // from inside: Foundation's `Thread.name`, set before `start()`, never reaches Linux
            while !stopping.load(ordering: .acquiring) {
                queue.pop()?.run()
            }
            while let task = queue.pop() { task.run() }
            stopped.signal()
        }
        thread.start()
    }

    var scheduler: (any Scheduler)? { nil }

    func submit(_ work: @escaping @Sendable () -> Void) { push(ScheduledWork(work)) }

    func push(_ node: ScheduledWork) { _ = queue.push(node) }

    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        preconditionFailure("the hand-off floor has no timers")
    }

    func drain() {}

    var taskExecutor: (any TaskExecutor)? { SchedulerTaskExecutor(unchecked: HandOffScheduler(lane: self)) }

    /// An actor's executor on the same thread: its jobs travel in their nodes as on the pool's executors.
    var serialExecutor: (any SerialExecutor)? { SchedulerExecutor(unchecked: HandOffScheduler(lane: self)) }

    /// A lane group whose lanes are stopped when the group shuts down.
    static func group() -> LaneGroup {
        let lanes = Locked<[HandOffFloorLane]>([])
        return LaneGroup(
            make: { name in
                let lane = HandOffFloorLane(name: name)
                lanes.withLock { $0.append(lane) }
                return lane
            },
            close: {
                for lane in lanes.withLock({ $0 }) { lane.stop() }
            })
    }

    /// Stops the consumer thread after it has run what is queued, and waits for it.
    func stop() {
        stopping.store(true, ordering: .releasing)
        stopped.wait()
    }
}

/// The hand-off floor behind a `SchedulerTaskExecutor`, so that a task's job travels in its node as it does on the
/// pool (one allocation per job). Not a scheduler of the kit: its thread sets no current scheduler, so it declares
/// only what it keeps, and the executor is made unchecked.
final class HandOffScheduler: NodeScheduler {
    let lane: HandOffFloorLane
    init(lane: HandOffFloorLane) { self.lane = lane }

    var name: String { "spin-handoff" }
    var traits: SchedulerTraits { [.serial, .asynchronous] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let node = ScheduledWork(work)
        lane.push(node)
        return node
    }

    func enqueue(node: ScheduledWork) { lane.push(node) }
}
