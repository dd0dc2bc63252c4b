import SchedulerKit
import ToolSupport

/// The flood S1, S2 and S4 share: producers racing one scheduler, in rounds (``ObservedTrials``).
extension SerialRules {
    /// The tasks of one round of a flood (``ObservedTrials``), `producers` × 6 250.
    static let floodRound = 25_000

    /// Floods `scheduler` with `total` tasks in rounds of ``floodRound``: in each, `producers` threads released
    /// together submit their share, each task running `body(producer, index)` (`index` counts one producer's tasks
    /// across rounds); once all of a round's tasks ran, `check(tasksSoFar)` looks for the defect. Returns the tasks
    /// run (fewer than `total` when half the rule's deadline was spent first).
    @discardableResult
    static func flood(
        _ context: ConformanceContext, _ scheduler: any Scheduler,
        _ body: @escaping @Sendable (_ producer: Int, _ index: Int) -> Void,
        afterEachRound check: (_ tasksSoFar: Int) throws -> Void = { _ in }
    ) throws -> Int {
        let ran = Counter()
        return try context.observe(total, inRoundsOf: floodRound) { round in
            let first = round.lowerBound / producers
            let each = round.count / producers
            context.whileDriven(scheduler) {
                Producers.run(producers) { producer in
                    for index in first..<first + each {
                        scheduler.schedule {
                            body(producer, index)
                            ran.increment()
                        }
                    }
                }
            }
            let expected = round.upperBound
            try context.waitUntil("all \(grouped(expected)) tasks", on: scheduler) { ran.value == expected }
            try check(expected)
        }
    }
}
