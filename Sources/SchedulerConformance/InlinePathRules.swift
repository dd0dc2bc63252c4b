import Dispatch
import Foundation
import SchedulerKit

/// K5 and K6: schedulers whose promise is *where* work runs: inline on the caller's stack in one situation, handed
/// over in the other. Both halves are forced: the check puts the caller in each situation itself.
enum InlinePathRules {
    static let all: [ConformanceRule] = [inlineUnderCurrent, inlineOnMainQueue]

    static let inlineUnderCurrent = ConformanceRule(
        id: .k5, family: .currentScheduler,
        statement:
            "Called from inside a task of another scheduler, it runs the work before schedule returns, on that thread, with that scheduler still current; called where no scheduler is current, it never runs the work on the caller's stack.",
        why:
            "RAC's subscriptionScheduler exists so that subscription side effects stay on the scheduler they were started on, without a hop; and off any scheduler, it must not run them on a thread it does not own.",
        catches:
            "A subscription scheduler that always hops to its background queue (side effects then run later, elsewhere, and the caller's order is lost), or one that always runs inline (blocking the caller's thread).",
        requires: .inlineUnderCurrent
    ) { context in
        let scheduler = context.makeScheduler()
        let host = DispatchQueueScheduler(name: "conformance-host")
        let inside = InsideSchedule()
        let seen = Shared<(onStack: Bool, current: Bool)?>(nil)
        try runAsTask(context, on: host, "a task of another scheduler") {
            inside.call {
                _ = scheduler.schedule {
                    seen.update { $0 = (inside.thisThreadIsInside, Schedulers.current === host) }
                }
            }
        }
        let underCurrent = seen.value
        try require(
            underCurrent != nil,
            "called inside a task of another scheduler, the work had not run when schedule returned")
        try require(
            underCurrent?.current == true,
            "the work ran, but with Schedulers.current no longer the calling task's scheduler")
        let offStack = Shared<Bool?>(nil)
        inside.call {
            _ = scheduler.schedule { offStack.update { $0 = inside.thisThreadIsInside } }
        }
        try context.waitUntil("the work scheduled where no scheduler is current", on: scheduler) {
            offStack.value != nil
        }
        try require(
            offStack.value == false, "called where no scheduler is current, it ran the work on the caller's stack")
        return ""
    }

    static let inlineOnMainQueue = ConformanceRule(
        id: .k6, family: .currentScheduler,
        statement:
            "Called on the main queue with none of its work outstanding, it runs the work before schedule returns, and the caller's current scheduler is current again afterwards; called from another thread, or from inside one of its own tasks, it queues the work on the main queue (never on the caller's stack).",
        why:
            "UI code already on the main thread must see its work done before schedule returns, or a frame shows stale state; work from elsewhere must still reach the main thread, in order.",
        catches:
            "ReactiveX/RxSwift#2704 (MainScheduler's inline fast path); a main scheduler that always queues passes every other rule.",
        requires: .inlineOnMainQueue
    ) { context in
        let scheduler = context.makeScheduler()
        let inside = InsideSchedule()
        let ranInline = Shared<Bool?>(nil)
        let nested = Shared<(onStack: Bool, main: Bool)?>(nil)
        let ranAgainInline = Shared<Bool?>(nil)
        let outerRestored = Shared<Bool?>(nil)
        DispatchQueue.main.async {
            // Inline under another current scheduler: that one is current again once schedule returns (K3's
            // promise, on the one path where this scheduler runs work on the caller's stack).
            let outer = OuterMarker()
            let restored = Schedulers.performAsCurrent(outer) { () -> Bool in
                _ = scheduler.schedule {}
                return Schedulers.current === outer
            }
            outerRestored.update { $0 = restored }
            // Twice in a row: the first call's work has run, so nothing is outstanding for the second either.
            let twice = Counter()
            for _ in 0..<2 { _ = scheduler.schedule { twice.increment() } }
            let again = twice.value == 2
            ranAgainInline.update { $0 = again }
            let ran = Counter()
            inside.call {
                _ = scheduler.schedule {
                    ran.increment()
                    // From inside its own task: queued, not run on this stack.
                    inside.call {
                        _ = scheduler.schedule {
                            nested.update { $0 = (inside.thisThreadIsInside, MainThreadScheduler.isOnMainQueue) }
                        }
                    }
                }
            }
            let inline = ran.value == 1
            ranInline.update { $0 = inline }
        }
        try context.waitUntil("a block on the main queue (is the main queue served?)", on: scheduler) {
            ranInline.value != nil && nested.value != nil
        }
        try require(
            ranInline.value == true,
            "called on the main queue with nothing of its own outstanding, the work had not run when schedule returned")
        try require(
            ranAgainInline.value == true,
            "called twice on the main queue, the second call's work had not run when schedule returned (the first left work outstanding)"
        )
        try require(
            outerRestored.value == true,
            "run inline under another current scheduler, it left Schedulers.current changed when schedule returned")
        try require(
            nested.value?.onStack == false, "called from inside its own task, it ran the work on that task's stack")
        try require(nested.value?.main == true, "work queued from inside its own task ran off the main queue")
        let fromElsewhere = Shared<(onStack: Bool, main: Bool)?>(nil)
        inside.call {
            _ = scheduler.schedule {
                fromElsewhere.update { $0 = (inside.thisThreadIsInside, MainThreadScheduler.isOnMainQueue) }
            }
        }
        try context.waitUntil("work scheduled from another thread", on: scheduler) { fromElsewhere.value != nil }
        try require(
            fromElsewhere.value?.onStack == false, "called from another thread, it ran the work on the caller's stack")
        try require(fromElsewhere.value?.main == true, "called from another thread, the work ran off the main queue")
        return ""
    }
}
