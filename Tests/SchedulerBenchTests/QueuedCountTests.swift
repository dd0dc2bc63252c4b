import Dispatch
import SchedulerKit
import Synchronization
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// W9 counts allocations only while every task waits behind its gate; an attempt in which a task ran is known as such.
@Suite struct QueuedCountTests {
    @Test func aSerialLaneHeldByItsGateHoldsEveryTask() {
        let lane = DispatchLane(label: "w9-test")
        let attempt = QueuedCount.measure(lane, [.asynchronous], queued: 1_000, workers: 1)
        #expect(attempt.heldEveryTask)
    }

    @Test func anAttemptInWhichTasksRanIsNotHeld() {
        let attempt = QueuedCount.measure(LeakyLane(), [.asynchronous], queued: 1_000, workers: 1)
        #expect(!attempt.heldEveryTask)
    }

    @Test func anInlineLaneHasNothingToHold() {
        let attempt = QueuedCount.measure(DirectLane(), [], queued: 10, workers: 1)
        #expect(attempt.heldEveryTask)
    }
}

/// A lane that holds only its first task (the gate's blocker, on a thread of its own); every later task runs inside
/// `submit`, as on a concurrent queue that grew a worker while it was held.
private final class LeakyLane: Lane {
    private let submitted = Atomic<Int>(0)
    var scheduler: (any Scheduler)? { nil }
    func submit(_ work: @escaping @Sendable () -> Void) {
        if submitted.add(1, ordering: .relaxed).oldValue == 0 {
            DispatchQueue.global().async(execute: work)
        } else {
            work()
        }
    }
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {}
    func drain() {}
}
