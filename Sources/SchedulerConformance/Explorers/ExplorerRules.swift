import Foundation
import SchedulerExplorer
import SchedulerKit

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
