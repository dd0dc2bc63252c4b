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
            "A scheduler that runs work on the caller's stack (called where no scheduler is current, from inside one of its own tasks, from inside a task of another scheduler, or on the main queue where it claims that path, each with none of its own work outstanding), or that is confined to one thread, cannot back an executor: SchedulerExecutor.accepts(its traits) is false.",
        why:
            "An executor runs a job later than the enqueue that submitted it; over a scheduler that runs work inline, an actor's job would run inside the job that enqueued it, on its stack, and overtake the rest of it (E5's promise), and SchedulerExecutor(_:) would build that executor without a word.",
        catches:
            "An accepts(_:) that asks only for serial and current-setting, so that the immediate scheduler and a main-thread scheduler that runs inline become executors (the fresh mutant set's 89; the E rules' gate alone never offers such a scheduler); one that accepts RxSwift's thread-confined HistoricalScheduler, whose first actor job stopped the program (seen on 6.10.2).",
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
        // One situation at a time, each waited for: a main-thread scheduler runs work inline only while none of
        // its own is outstanding, so an earlier situation's work still queued would hide the inline path.
        var situations: [String] = []
        func observe(_ situation: String, _ start: () throws -> Void) throws {
            situations.append(situation)
            try start()
            try context.waitUntil("work scheduled \(situation)", on: scheduler) { seen.value[situation] != nil }
        }
        if scheduler.traits.contains(.inlineOnMainQueue) {
            try observe("on the main queue") { DispatchQueue.main.async { call("on the main queue") } }
        }
        try observe("where no scheduler is current") { call("where no scheduler is current") }
        try observe("from inside one of its own tasks") {
            _ = scheduler.schedule { call("from inside one of its own tasks") }
        }
        // A scheduler confined to one thread takes no calls from a thread of another scheduler.
        if !scheduler.traits.contains(.threadConfined) {
            let situation = "from inside a task of another scheduler"
            try observe(situation) {
                try runAsTask(
                    context, on: DispatchQueueScheduler(name: "conformance-host"),
                    "a task of another scheduler that calls schedule (a schedule that never returns holds it)"
                ) {
                    call(situation)
                }
            }
        }
        let inline = situations.filter { seen.value[$0] == true }
        let accepted = SchedulerExecutor.accepts(scheduler.traits)
        try require(
            inline.isEmpty || !accepted,
            "it ran work on the caller's stack (called \(inline.joined(separator: "; "))), yet SchedulerExecutor.accepts([\(scheduler.traits)]) is true: an executor over it would run jobs inside the enqueue that submitted them"
        )
        try require(
            !scheduler.traits.contains(.threadConfined) || !accepted,
            "it is confined to one thread, yet SchedulerExecutor.accepts([\(scheduler.traits)]) is true: the runtime would enqueue an actor's jobs from threads of its own"
        )
        if !inline.isEmpty {
            return "ran work on the caller's stack (called \(inline.joined(separator: "; "))); refused as an executor"
        }
        return "ran no work on the caller's stack in \(situations.count) situations; "
            + (accepted ? "accepted as an executor" : "refused as an executor by its traits [\(scheduler.traits)]")
    }
}
