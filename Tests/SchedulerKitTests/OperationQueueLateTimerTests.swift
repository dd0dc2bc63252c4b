import Dispatch
import TestSupport
import Testing

@testable import SchedulerKit

/// Deadline order when the timer is late: work scheduled at a deadline that has already passed must not overtake work
/// with an earlier deadline whose timer has not fired yet (rule T4). It failed under ThreadSanitizer, where scheduling
/// a thousand tasks outlasts the first deadlines; here the timer is made late by holding the queue it fires on.
@Suite struct OperationQueueLateTimerTests {
    @Test func dueWorkWaitsForEarlierDeadlinesWhoseTimerIsLate() {
        let scheduler = OperationQueueScheduler(name: "late-timer")
        let timerHeld = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        OperationQueueScheduler.timerQueue.async {
            holding.signal()
            timerHeld.wait()
        }
        holding.wait()
        let order = Shared<[Int]>([])
        let first = scheduler.now + .milliseconds(1)
        scheduler.schedule(at: first) { order.append(1) }
        // The deadline has passed, and its timer cannot fire: the queue it fires on is held. Work at the same
        // deadline, scheduled now, comes second (equal deadlines are FIFO), and work due later still comes third.
        while scheduler.now < first + .milliseconds(2) {}
        scheduler.schedule(at: first) { order.append(2) }
        scheduler.schedule(at: first + .milliseconds(1)) { order.append(3) }
        timerHeld.signal()
        #expect(eventually { order.value.count == 3 })
        #expect(order.value == [1, 2, 3])
    }
}
