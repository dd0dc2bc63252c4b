import Testing

@_spi(Bench) @testable import SchedulerKit

/// The hand-off of a task queue's ownership, step by step on one thread: a producer's push that lands while the
/// owner still owns the queue (so the push does not take it) must be seen by the owner's `relinquish`, whatever the
/// queue's links look like at that moment. The threaded race in `TaskQueueTests` hits these states only by chance.
@Suite struct TaskQueueOwnershipTests {
    /// The owner has just popped the last node (the stub is back at the head) when a push arrives: giving ownership
    /// back must notice it and take the queue again, or the pushed task is stranded with nobody to run it.
    @Test func aPushAfterTheLastPopIsNotLostWhenOwnershipIsGivenBack() {
        let queue = TaskQueue()
        #expect(queue.push(ScheduledWork {}))  // the idle queue: this producer takes ownership
        #expect(queue.pop() != nil)
        #expect(queue.pop() == nil)
        #expect(!queue.push(ScheduledWork {}))  // still owned: the push leaves the hand-off to the owner
        #expect(queue.relinquish(), "relinquish lost the task pushed after the last pop")
        #expect(queue.pop() != nil)
        #expect(queue.pop() == nil)
        #expect(!queue.relinquish())
        #expect(queue.push(ScheduledWork {}), "a push to the released, empty queue takes ownership")
    }

    /// Before any pop: the owner gives the queue back while nodes are still in it; it keeps ownership.
    @Test func relinquishWithNodesLeftKeepsOwnership() {
        let queue = TaskQueue()
        #expect(queue.push(ScheduledWork {}))
        #expect(!queue.push(ScheduledWork {}))
        #expect(queue.relinquish())
        #expect(queue.pop() != nil && queue.pop() != nil)
        #expect(queue.pop() == nil)
        #expect(!queue.relinquish())
    }
}
