import Foundation
import SchedulerExplorer
import SchedulerKit

extension RuleFamily {
    public static let explorer = RuleFamily("EX", title: "Explorers (async code run under many schedules)")
}

extension RuleID {
    public static let ex1 = RuleID(newRuleOf: .explorer, number: 1)
    public static let ex2 = RuleID(newRuleOf: .explorer, number: 2)
    public static let ex3 = RuleID(newRuleOf: .explorer, number: 3)
    public static let ex4 = RuleID(newRuleOf: .explorer, number: 4)
}

/// EX: what a test relies on when it runs async code under an explorer. A pass means each schedule ran every job of
/// the body's tasks under the explorer's order, and a failure means its seed (or its choices) runs it again, step
/// for step, with a trace that names real tasks. Each check explores bodies of its own, as a test would; every check
/// is forced (the bodies are fixed and the explorer is deterministic for a seed), with one exception said in EX4.
public enum ExplorerRules {
    public static let all: [ConformanceRule] = [
        replays, tasksNumberedOnce, readyWorkAfterTheBody, capturedTasksStayInside,
    ]

    /// Three tasks of a group, each logging its number three times with a yield after each: 1 680 orders.
    static func interleaved(_ record: @escaping @Sendable (_ seed: UInt64, _ order: [Int]) throws -> Void)
        -> ExplorerUnderTest.Body
    {
        { exploration in
            let log = Locked<[Int]>([])
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<3 {
                    group.addTask {
                        for _ in 0..<3 {
                            log.withLock { $0.append(task) }
                            await Task.yield()
                        }
                    }
                }
            }
            try record(exploration.seed, log.withLock { $0 })
        }
    }

    static let replays = ConformanceRule.explorer(
        id: .ex1,
        statement:
            "A schedule runs again exactly as it ran: a failure's replay (by its seed, or by its choices for a systematic explorer) fails with the same trace, and every schedule of a seeded explorer, replayed by the seed its body saw, runs its tasks in the same order.",
        why:
            "A failure found once in 1 000 schedules is worth only what its replay is: a seed that runs another order sends the debugging to a schedule that passes.",
        catches:
            "An explorer that seeds each schedule's choices by its index rather than by the seed it reports (the fresh mutant set's 102): the first schedule replays, every later one does not."
    ) { explorer in
        let settings = ExplorationSettings()
        // A failure, then its replay: any interleaving fails, so the first schedule that preempts a task does.
        let failing = interleaved { _, order in try check(order == order.sorted(), "interleaved: \(order)") }
        let found = await explorer.explore(200, 0xE1, settings, failing)
        guard let failure = found.failure else {
            throw RuleFailure("no schedule of \(found.schedules) interleaved three tasks of three steps")
        }
        let again = await explorer.replay(failure.replay, settings, failing)
        try require(
            again.failure?.trace == failure.trace,
            "schedule \(failure.schedule) failed; its replay \(again.failure.map { "failed with another trace:\n\($0.trace)" } ?? "passed")\nfirst:\n\(failure.trace)"
        )
        guard explorer.strategyKind == .seeded else {
            return "schedule \(failure.schedule + 1) failed and its choices replayed it with the same trace"
        }
        // Every schedule by the seed its body saw (the one a failure would print).
        let schedules = 20
        let orders = Locked<[UInt64: [Int]]>([:])
        let explored = await explorer.explore(
            schedules, 0xE1, settings, interleaved { seed, order in orders.withLock { $0[seed] = order } })
        let byExploration = orders.withLock { $0 }
        try require(
            explored.failure == nil && byExploration.count == schedules,
            "\(byExploration.count) of \(schedules) schedules ran the body to its end: \(explored.failure?.reason ?? "")"
        )
        var differing: [UInt64] = []
        for (seed, order) in byExploration.sorted(by: { $0.key < $1.key }) {
            let replayed = Locked<[Int]?>(nil)
            _ = await explorer.replay(
                .seed(seed), settings, interleaved { _, order in replayed.withLock { $0 = order } })
            if replayed.withLock({ $0 }) != order { differing.append(seed) }
        }
        try require(
            differing.isEmpty,
            "\(differing.count) of \(schedules) schedules ran their tasks in another order when replayed by their seed (the first: seed 0x\(String(differing.first ?? 0, radix: 16, uppercase: true)))"
        )
        let distinct = Set(byExploration.values).count
        return "schedule \(failure.schedule + 1)'s failure replayed with the same trace; \(schedules) schedules "
            + "(\(distinct) distinct orders) each replayed by its seed in the same order"
    }
}

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

extension SubjectKind {
    /// Explorers (``ExplorerSubject``): `ConformanceRules.rules(for: .explorer)`.
    public static var explorer: SubjectKind { ExplorerSubject.kind }
}

extension ConformanceRule {
    /// An explorer rule (family EX), for explorers of any of `strategies`. Its check is `async`: it explores bodies
    /// of its own, as a test would, while the kit's check thread waits.
    static func explorer(
        id: RuleID, evidence: RuleEvidence = .forced, statement: String, why: String, catches: String,
        strategies: Set<ExplorerStrategyKind> = Set(ExplorerStrategyKind.allCases),
        deadline: Duration = RuleDeadline.standard,
        check: @escaping @Sendable (ExplorerUnderTest) async throws -> String
    ) -> ConformanceRule {
        let gate = RuleGate<ExplorerStrategyKind>(
            RuleGate<ExplorerStrategyKind>.words(strategies, every: "every explorer", plural: "explorers")
        ) { strategies.contains($0) }
        return ConformanceRule(
            id: id, family: .explorer, evidence: evidence, statement: statement, why: why, catches: catches,
            about: ExplorerSubject.self, gate: gate, deadline: deadline
        ) { explorer in try RuleRunner.awaiting { try await check(explorer) } }
    }
}
