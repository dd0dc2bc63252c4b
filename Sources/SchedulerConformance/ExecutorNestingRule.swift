import Dispatch
import SchedulerKit

extension SchedulerAsExecutorRules {
    /// E5: forced. Each job enqueues the next from inside itself and writes before and after doing so; an executor
    /// that runs a job inside `enqueue` (a shortcut for a scheduler that takes no prepared nodes, say) writes the
    /// child between the two, every time.
    static let noNestedJobs = ConformanceRule(
        id: .e5, family: .executor,
        statement:
            "A job enqueued from inside a running job of the same executor runs after that job, never nested inside it: on an actor's executor and on a task's.",
        why:
            "A job run inside enqueue runs on the stack of the job that enqueued it: an actor's code runs re-entrantly inside its own job, and what was meant to follow the current job overtakes the rest of it.",
        catches:
            "An executor that runs the job at once inside enqueue instead of handing it to the scheduler, for schedulers that take no prepared nodes (two mutants of the kit's mutation pass, Docs/Conformance.md).",
        requires: requirements, excludes: exclusions, requiresOneOf: requiredOneOf
    ) { context in
        let scheduler = try makeExecutorScheduler(context)
        let probe = ProbeActor(on: scheduler)
        let log = Shared<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        try context.whileDriven(scheduler) {
            Task(executorPreference: probe.taskExecutor) {
                log.append("task: before")
                Task(executorPreference: probe.taskExecutor) {
                    log.append("task: child")
                    finished.signal()
                }
                log.append("task: after")
                await probe.enqueueFromInside(log: log, finished: finished)
            }
            for _ in 0..<2 { try require(wait(finished), "the jobs did not finish within 30 s: \(log.value)") }
        }
        let seen = log.value
        for executor in ["task", "actor"] {
            let order = ["before", "after", "child"].map { seen.firstIndex(of: "\(executor): \($0)") }
            guard order.allSatisfy({ $0 != nil }), order == order.sorted(by: { $0! < $1! }) else {
                throw RuleFailure("on the \(executor)'s executor the jobs ran as \(seen.joined(separator: ", "))")
            }
        }
        return ""
    }
}

extension ProbeActor {
    /// Starts a task isolated to this actor, so its job is enqueued on this actor's executor from inside this job.
    func enqueueFromInside(log: Shared<[String]>, finished: DispatchSemaphore) {
        log.append("actor: before")
        Task {
            self.touch()
            log.append("actor: child")
            finished.signal()
        }
        log.append("actor: after")
    }

    private func touch() {}
}
