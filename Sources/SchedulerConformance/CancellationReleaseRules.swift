import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

// C4–C6: what cancelling releases, what dropping a handle does not do, and repeating work (C1–C3 in
// `CancellationRules.swift`).
extension CancellationRules {
    static let promptRelease = ConformanceRule(
        id: .c4, family: .cancellation,
        statement:
            "Cancelling a task that has not started releases its closure and captures at once, not when the queue or the deadline reaches it.",
        why:
            "Captures hold views, sockets and large buffers: a cancelled task due in an hour must not keep them for an hour.",
        catches: "apple/swift-nio#2373 (a cancelled task was kept alive until the next tick of the loop).",
        requires: .serial
    ) { context in
        let scheduler = context.makeScheduler()
        let captures = LiveCount()
        let releasedAfter = Shared<Duration?>(nil)
        let failure = Shared<String?>(nil)
        // From inside a task, so the cancelled task is still queued behind it while we watch.
        try runAsTask(context, on: scheduler, "the watching task") {
            var capture: Tracked? = captures.make()
            let handle = scheduler.schedule { [capture] in capture?.touch() }
            capture = nil
            guard handle.cancel() else { return failure.update { $0 = "cancel() of a queued task returned false" } }
            let took = poll(upTo: .seconds(2)) { captures.live == 0 }
            if captures.live > 0 { failure.update { $0 = "a cancelled queued task still held its capture after 2 s" } }
            releasedAfter.update { $0 = took }
        }
        if let message = failure.value { throw RuleFailure(message) }
        var note = "queued: released after \(readable(releasedAfter.value ?? .zero))"
        guard let timed = scheduler as? any TimedScheduler else { return note }
        var capture: Tracked? = captures.make()
        let handle = timed.schedule(at: timed.now + .seconds(3_600)) { [capture] in capture?.touch() }
        capture = nil
        try require(handle.cancel(), "cancel() of a task due in an hour returned false")
        let elapsed = poll(upTo: .seconds(2)) { captures.live == 0 }
        try require(
            captures.live == 0, "a cancelled task due in an hour still held its capture after \(readable(elapsed))")
        note += "; due in 1 h: released after \(readable(elapsed))"
        return note
    }

    static let droppingHandle = ConformanceRule(
        id: .c5, family: .cancellation,
        statement:
            "Dropping a handle never cancels: one-shot, delayed and repeating work go on when nobody keeps the handle.",
        why:
            "Fire-and-forget work must go on whether or not anyone keeps its handle, and one-shot and repeating work must agree on it.",
        catches:
            "ReactiveCocoa/ReactiveSwift#582, fixed by #584 (dropping a repeating timer's disposable cancelled it while a one-shot went on); ReactiveCocoa#1742 (the same, by accident)."
    ) { context in
        let scheduler = context.makeScheduler()
        let ran = Counter()
        _ = scheduler.schedule { ran.increment() }
        try context.waitUntil("a task whose handle was dropped", on: scheduler) { ran.value == 1 }
        guard let timed = scheduler as? any TimedScheduler else { return "" }
        _ = timed.schedule(at: timed.now + .milliseconds(20)) { ran.increment() }
        try context.waitUntil("delayed work whose handle was dropped", on: scheduler) { ran.value == 2 }
        guard context.backend.traits.contains(.repeating) else { return "" }
        let ticks = Counter()
        let handle = WeakBox()
        do {
            let strong = timed.schedule(at: timed.now, every: .milliseconds(10)) {
                // Stops itself through a weak reference, so the test never keeps the handle.
                if ticks.increment() >= 3 { (handle.object as? any Cancellable)?.cancel() }
            }
            handle.set(strong as AnyObject)
        }
        try context.waitUntil("3 ticks of repeating work whose handle was dropped", on: scheduler) { ticks.value >= 3 }
        return ""
    }

    static let repeating = ConformanceRule(
        id: .c6, family: .cancellation,
        statement:
            "Cancelling repeating work, from inside a tick or from another thread, stops every later tick and releases the work's closure and captures at once, while its handle is still held.",
        why:
            "A repeating timer is usually stopped from its own tick (a countdown reaching zero) or from another thread (a disposal); no tick may follow either.",
        catches:
            "OpenCombine's OperationQueue scheduler re-arms after the action (its testScheduleRepeatingWithRealQueue); SwiftNIO's testScheduleRepeatedTaskCancelFromDifferentThread checks the second case.",
        requires: [.timed, .repeating]
    ) { context in
        let scheduler = try context.makeTimedScheduler()
        let interval = Duration.milliseconds(10)
        // From inside the third tick.
        let insideTicks = Counter()
        let box = HandleBox()
        let insideResult = Shared<Bool?>(nil)
        box.set(
            scheduler.schedule(at: scheduler.now + .milliseconds(20), every: interval) {
                if insideTicks.increment() == 3 { insideResult.update { $0 = box.value?.cancel() } }
            })
        try context.waitUntil("3 ticks", on: scheduler) { insideTicks.value >= 3 }
        context.letTimePass(interval * 3, on: scheduler)
        try require(
            insideResult.value == true, "cancel() from inside a tick returned \(String(describing: insideResult.value))"
        )
        try require(
            insideTicks.value == 3, "\(insideTicks.value - 3) ticks ran after cancel() from inside tick 3 returned true"
        )
        // From another thread.
        let outsideTicks = Counter()
        let captures = LiveCount()
        var capture: Tracked? = captures.make()
        let handle = scheduler.schedule(at: scheduler.now, every: interval) { [capture] in
            capture?.touch()
            outsideTicks.increment()
        }
        capture = nil
        try context.waitUntil("3 ticks", on: scheduler) { outsideTicks.value >= 3 }
        try require(handle.cancel(), "cancel() of live repeating work returned false")
        let atCancel = outsideTicks.value
        context.letTimePass(interval * 3, on: scheduler)
        // One tick may have begun before cancel() returned and counted itself just after.
        try require(
            outsideTicks.value <= atCancel + 1,
            "\(outsideTicks.value - atCancel) ticks started over 3 intervals after cancel() returned true")
        // As C4 asks of one-shot work: the captures go with the cancel, not with the handle (a cancelled timer that
        // keeps its handler keeps whatever the handler holds for as long as anyone holds the handle).
        let released = poll(upTo: .seconds(2)) { captures.live == 0 }
        try require(
            captures.live == 0,
            "cancelled repeating work still held its closure's capture \(readable(released)) after cancel(), its handle still held"
        )
        try require(!handle.cancel(), "a second cancel() of repeating work returned true")
        return "released its capture \(readable(released)) after cancel()"
    }
}
