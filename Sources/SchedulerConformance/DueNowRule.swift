import Dispatch
import Foundation
import SchedulerKit

extension TimeRules {
    static let dueNow = ConformanceRule(
        id: .t3, family: .time,
        statement:
            "Work due now or in the past behaves like schedule at the moment of the call: it keeps FIFO order with plain work, and runs after delayed work that came due before it (also while a task kept the scheduler busy).",
        why: "Work due now is plain work: it must neither overtake nor fall behind what was scheduled before it.",
        catches: "SwiftNIO runs due delayed work interleaved with plain work (its adapter fails T3 by design).",
        requires: [.timed, .serial]
    ) { context in
        let scheduler = try context.makeTimedScheduler()
        // Virtual time starts at zero, where `.zero` is now, not the past: move the clock on first.
        (scheduler as? any VirtualTimeDriver)?.advance(by: .seconds(1))
        let order = Shared<[Int]>([])
        let count = 300
        // Submitted from inside a task, so the whole sequence is queued before any of it runs.
        scheduler.schedule {
            for index in 0..<count {
                switch index % 3 {
                case 0: scheduler.schedule { order.append(index) }
                case 1: scheduler.schedule(at: scheduler.now) { order.append(index) }
                default: scheduler.schedule(at: .zero) { order.append(index) }
                }
            }
        }
        let kinds = ["plain", "due now", "due in the past"]
        do {
            try context.waitUntil("\(count) tasks", on: scheduler) { order.value.count == count }
        } catch let failure as RuleFailure {
            // Name what never ran, so a lost task reads as one, not as slowness.
            let ran = Set(order.value)
            let missing = (0..<count).filter { !ran.contains($0) }
            let named = missing.prefix(5).map { "\($0) (\(kinds[$0 % 3]))" }.joined(separator: ", ")
            throw RuleFailure(
                "\(failure.detail); \(ran.count) of \(count) ran, never: \(named)"
                    + (missing.count > 5 ? " and \(missing.count - 5) more" : ""))
        }
        let ran = order.value
        if let bad = ran.indices.first(where: { ran[$0] != $0 }) {
            throw RuleFailure("task \(ran[bad]) (\(kinds[ran[bad] % 3])) ran in place \(bad) of \(count)")
        }
        guard !context.backend.traits.contains(.virtualTime) else { return "" }
        // Forced: delayed work that came due while a task kept the scheduler busy was due first, so it runs before
        // work scheduled for now after that (a scheduler that queues due-now work ahead of its late timers fails).
        // (The session's other threads stay free: a pool's idle worker may move the timer meanwhile, and that is
        // allowed. Keeping every thread busy too would also starve the Dispatch timer that OperationQueueScheduler's
        // delayed work needs; Docs/Conformance.md, "Mutation pass", mutant 24.)
        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let lateOrder = Shared<[String]>([])
        scheduler.schedule {
            busy.signal()
            _ = wait(release)
        }
        try require(wait(busy), "a task did not start within 30 s")
        let deadline = scheduler.now + .milliseconds(2)
        scheduler.schedule(at: deadline) { lateOrder.append("delayed") }
        // 50 ms past its deadline: a scheduler whose timers fire on another thread (Dispatch's, OperationQueue's)
        // has handed the delayed task over by then, also on a busy machine.
        while scheduler.now < deadline + .milliseconds(50) { usleep(1_000) }
        scheduler.schedule(at: scheduler.now) { lateOrder.append("due now") }
        release.signal()
        try context.waitUntil("2 tasks", on: scheduler) { lateOrder.value.count == 2 }
        try require(
            lateOrder.value == ["delayed", "due now"],
            "work due now, scheduled after a delayed task had come due while the scheduler was busy, ran first")
        return ""
    }
}
