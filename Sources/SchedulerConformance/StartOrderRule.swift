import Dispatch
import SchedulerKit

extension ParallelismRules {
    static let startOrder = ConformanceRule(
        id: .p6, family: .parallelism,
        statement:
            "Tasks submitted from one thread start in the order they were submitted, though they may finish in any: of 200 tasks queued behind a busy width, fewer than half of all pairs start out of order (starts race only between workers taking tasks at the same moment).",
        why:
            "A concurrent scheduler is still a queue: work submitted first must not wait behind work submitted after it, or under load the oldest work starves.",
        catches:
            "A pool that puts new work at the front of its queue (the mutation pass's mutant 57 survived every other rule); Dispatch's concurrent queues and OperationQueue start work in order.",
        requires: .concurrent
    ) { context in
        let scheduler = try makeConcurrentScheduler(context)
        let width = scheduler.width
        let count = 200
        // Forced: every slot is held first, so all 200 tasks are queued before any of them can start.
        let gate = DispatchSemaphore(value: 0)
        let holding = Counter()
        for _ in 0..<width {
            scheduler.schedule {
                holding.increment()
                _ = gate.wait(timeout: .now() + 30)
            }
        }
        try context.waitUntil("\(width) tasks holding the width", on: scheduler) { holding.value == width }
        let starts = Shared<[Int]>([])
        for index in 0..<count { scheduler.schedule { starts.append(index) } }
        for _ in 0..<width { gate.signal() }
        try context.waitUntil("\(count) queued tasks", on: scheduler) { starts.value.count == count }
        let order = starts.value
        var inverted = 0
        for first in 0..<count {
            for second in (first + 1)..<count where order[first] > order[second] { inverted += 1 }
        }
        let pairs = count * (count - 1) / 2
        // Racing workers swap neighbours now and then; a queue that starts the newest first reverses nearly all.
        try require(
            inverted * 2 < pairs,
            "\(grouped(inverted)) of \(grouped(pairs)) pairs of tasks started in the reverse of their submission order")
        return "\(grouped(inverted)) of \(grouped(pairs)) pairs started out of order (workers taking tasks at once)"
    }
}
