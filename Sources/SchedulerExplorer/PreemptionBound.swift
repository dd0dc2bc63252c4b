/// The depth-first walk of ``ExplorationStrategy/exhaustive(preemptions:)`` over the tree of choices, as CHESS and loom
/// bound it. At each choice the default is the job that continues the task that ran last; taking another job while
/// that task has one ready is a preemption, and when it has none ready every job may run for free. A choice is an
/// alternative: 0 is the default, 1, 2, … the other ready jobs in the order they became ready. The next schedule
/// changes the last choice that can still take its next alternative within the bound, and takes the default after
/// it: every schedule within the bound comes once, and the walk ends when no choice can change.
enum PreemptionBound {
    /// One choice of a schedule.
    struct Decision: Equatable {
        /// How many jobs were ready.
        let offered: Int
        /// True when the task that ran last had no job ready: any alternative is free.
        let free: Bool
        /// The alternative taken.
        let taken: Int

        var preemptions: Int { free || taken == 0 ? 0 : 1 }
    }

    /// The rank among the ready jobs (0: the one ready first) of alternative `alternative`, when the default is the
    /// job of rank `defaultRank`.
    static func rank(ofAlternative alternative: Int, defaultRank: Int) -> Int {
        alternative == 0 ? defaultRank : alternative <= defaultRank ? alternative - 1 : alternative
    }

    /// The alternatives of the next schedule after the one that made `decisions`, or nil when every schedule with at
    /// most `preemptions` preemptions has run.
    static func next(after decisions: [Decision], preemptions bound: Int) -> [Int]? {
        var spent = decisions.reduce(0) { $0 + $1.preemptions }
        for index in decisions.indices.reversed() {
            let decision = decisions[index]
            spent -= decision.preemptions
            let alternative = decision.taken + 1
            if alternative < decision.offered && spent + (decision.free ? 0 : 1) <= bound {
                return decisions[..<index].map(\.taken) + [alternative]
            }
        }
        return nil
    }

    /// The alternatives up to the last that left the default: what replays the schedule.
    static func departures(_ decisions: [Decision]) -> [Int] {
        let taken = decisions.map(\.taken)
        guard let last = taken.lastIndex(where: { $0 != 0 }) else { return [] }
        return Array(taken[...last])
    }
}
