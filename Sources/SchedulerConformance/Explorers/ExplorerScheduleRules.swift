import Foundation
import SchedulerExplorer
import SchedulerKit

extension ExplorerRules {
    static let tasksNumberedOnce = ConformanceRule.explorer(
        id: .ex2,
        statement:
            "A failure's trace numbers each task once, across all its jobs, and names it where it has a name: a body whose three named children yield twice each shows four task numbers (the body's and the children's), each child's name with its number.",
        why:
            "A trace is read task by task: a task renumbered at each job reads as many tasks that each ran once, and hides which one was preempted where. PCT's priorities are per task, so its stated bound also rests on this.",
        catches:
            "An explorer that numbers a task at each job without remembering the number (the fresh mutant set's 100), or gives a job of no task, such as the runtime's extra job for a yield, a task of its own."
    ) { explorer in
        let body: ExplorerUnderTest.Body = { _ in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<3 {
                    group.addTask(name: "worker \(index)") {
                        for _ in 0..<2 { await Task.yield() }
                    }
                }
            }
            try check(false, "stop: the kit reads the trace")
        }
        let report = await explorer.explore(1, 0xE2, ExplorationSettings(), body)
        guard let failure = report.failure else { throw RuleFailure("the body's check(false) did not fail") }
        let numbers = Self.taskNumbers(in: failure.trace)
        try require(
            Set(numbers).count == 4,
            "the trace numbers \(Set(numbers).count) tasks (\(Set(numbers).sorted().joined(separator: ", "))) where the body ran 4:\n\(failure.trace)"
        )
        let unnamed = (0..<3).filter { !failure.trace.contains("'worker \($0)'") }
        try require(unnamed.isEmpty, "the trace does not name worker \(unnamed.map(String.init))):\n\(failure.trace)")
        return "\(numbers.count) jobs of 4 tasks, numbered once each and named"
    }

    /// The task of each step line ("     12 t3 task  (2 of 3 ready)"), in order.
    static func taskNumbers(in trace: String) -> [String] {
        trace.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first {
                $0.hasPrefix("t") && $0.count > 1 && $0.dropFirst().allSatisfy(\.isNumber)
            }
            .map(String.init)
        }
    }

    static let readyWorkAfterTheBody = ConformanceRule.explorer(
        id: .ex3,
        statement:
            "Once the body has returned, the jobs already ready still run inside the schedule, under its order, while time stands still: of three tasks the body started and left behind, each yielding once, all run within each of 20 schedules, also beside a sleeper due a second later, and none is left ready when the schedule stops.",
        why:
            "Work a test started and did not await is where fire-and-forget bugs live: an explorer that stops at the body's return lets that work run later, unexplored, and a bug in it passes every schedule.",
        catches:
            "An explorer that stops a schedule as soon as the body returns, or whenever a sleeper is pending (its earliest deadline read as the later one): the fresh mutant set's 101 and 99."
    ) { explorer in
        let schedules = 20
        let ran = Locked(0)
        let report = await explorer.explore(schedules, 0xE3, ExplorationSettings()) { exploration in
            let clock = exploration.clock
            Task(name: "sleeper") { try? await clock.sleep(for: .seconds(1)) }
            // In most schedules the sleeper is asleep before the loggers exist.
            for _ in 0..<5 { await Task.yield() }
            for _ in 0..<3 {
                Task(name: "logger") {
                    await Task.yield()
                    ran.withLock { $0 += 1 }
                }
            }
        }
        try require(report.failure == nil, "a schedule failed: \(report.failure?.reason ?? "")")
        let readyLeft = report.leftReady
        try require(readyLeft.isEmpty, "a schedule stopped with jobs ready: \(readyLeft.joined(separator: ", "))")
        let count = ran.withLock { $0 }
        try require(
            count == 3 * report.schedules,
            "\(count) of the \(3 * report.schedules) tasks left behind ran (3 in each of \(report.schedules) schedules)"
        )
        return "\(count) tasks left behind ran in \(report.schedules) schedules, none left ready"
    }

    static let capturedTasksStayInside = ConformanceRule.explorer(
        id: .ex4,
        statement:
            "A job of a task the body started with Task { } runs inside the schedule, with the exploring scheduler current, also when it comes back from another thread: a continuation resumed from a plain thread 100 ms after the task began to wait.",
        why:
            "Task { } is how app code starts work; its later jobs come back through the global executor from whatever thread resumed them, and an explorer that lets them out runs them on the cooperative pool, beside the schedule, unordered.",
        catches:
            "An explorer that captures a task's jobs only while it is driving and forgets the tasks it took (the fresh mutant set's 103)."
    ) { explorer in
        // Forced: the resume comes 100 ms after the task began to wait, so the task has suspended and its next job
        // comes back through the global executor (a resume before it suspended would continue it in place, and
        // the check would pass whatever the capture did).
        let inside = Locked<Bool?>(nil)
        let settings = ExplorationSettings(allowedOutside: ["thread"], outsideWait: .seconds(30))
        let report = await explorer.explore(1, 0xE4, settings) { exploration in
            let scheduler = exploration.scheduler
            let stayed = await Task {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: 0.1)
                        continuation.resume()
                    }
                }
                return Schedulers.current === scheduler
            }.value
            inside.withLock { $0 = stayed }
        }
        let stayed = inside.withLock { $0 }
        try require(stayed != nil, "the body did not finish: \(report.failure?.reason ?? "")")
        try require(
            stayed == true, "the task's job after the resume from another thread ran outside the schedule")
        return "the task's job after a resume from another thread ran inside the schedule"
    }
}
