import Dispatch
import SchedulerKit

extension SchedulerAsExecutorRules {
    /// E6 is the other half of the E rules' gate: they judge the executors ``SchedulerExecutor/accepts(_:)`` lets
    /// a user build, and this one judges `accepts` itself, on every scheduler, against where the scheduler was seen to
    /// run work. Forced: the check calls `schedule` in each situation where a scheduler may run work on the caller's
    /// stack, so whether it did is seen every time, not by chance.
    static let refusedWhenInline = ConformanceRule(
        id: .e6, family: .executor,
        statement:
            "A scheduler that runs work on the caller's stack (called where no scheduler is current, from inside one of its own tasks, from inside a task of another scheduler, or on the main queue where it claims that path) cannot back an executor: SchedulerExecutor.accepts(its traits) is false.",
        why:
            "An executor runs a job later than the enqueue that submitted it; over a scheduler that runs work inline, an actor's job would run inside the job that enqueued it, on its stack, and overtake the rest of it (E5's promise), and SchedulerExecutor(_:) would build that executor without a word.",
        catches:
            "An accepts(_:) that asks only for serial and current-setting, so that the immediate scheduler and a main-thread scheduler that runs inline become executors (the fresh mutant set's 89; the E rules' gate alone never offers such a scheduler).",
        requires: []
    ) { context in
        let scheduler = context.makeScheduler()
        let inside = InsideSchedule()
        let seen = Shared<[String: Bool]>([:])
        /// Calls `schedule` as `situation` and records whether the work ran on this call's stack.
        @Sendable func call(_ situation: String) {
            inside.call {
                _ = scheduler.schedule {
                    let onStack = inside.thisThreadIsInside
                    seen.update { $0[situation] = onStack }
                }
            }
        }
        let outside = "where no scheduler is current"
        let ownTask = "from inside one of its own tasks"
        let otherTask = "from inside a task of another scheduler"
        let mainQueue = "on the main queue"
        var situations = [outside, ownTask]
        call(outside)
        _ = scheduler.schedule { call(ownTask) }
        if !scheduler.traits.contains(.threadConfined) {
            // A scheduler confined to one thread takes no calls from a thread of another scheduler.
            situations.append(otherTask)
            try runAsTask(context, on: DispatchQueueScheduler(name: "conformance-host"), "a task of another scheduler")
            {
                call(otherTask)
            }
        }
        if scheduler.traits.contains(.inlineOnMainQueue) {
            situations.append(mainQueue)
            DispatchQueue.main.async { call(mainQueue) }
        }
        let expected = situations
        try context.waitUntil("work scheduled \(expected.joined(separator: ", "))", on: scheduler) {
            seen.value.count == expected.count
        }
        let inline = situations.filter { seen.value[$0] == true }
        let accepted = SchedulerExecutor.accepts(scheduler.traits)
        try require(
            inline.isEmpty || !accepted,
            "it ran work on the caller's stack (called \(inline.joined(separator: "; "))), yet SchedulerExecutor.accepts([\(scheduler.traits)]) is true: an executor over it would run jobs inside the enqueue that submitted them"
        )
        if inline.isEmpty {
            return "ran no work on the caller's stack in \(situations.count) situations; "
                + (accepted
                    ? "accepted as an executor" : "not accepted as an executor (not serial or not current-setting)")
        }
        return "ran work on the caller's stack (called \(inline.joined(separator: "; "))); refused as an executor"
    }
}
