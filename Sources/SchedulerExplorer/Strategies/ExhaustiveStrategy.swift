/// Every schedule with at most `preemptions` preemptions, depth first (iterative context bounding: Musuvathi and
/// Qadeer, PLDI 2007, as CHESS and loom do). A task that has a job ready keeps running unless a choice preempts it;
/// when it has none ready (it awaits), any ready job runs, and those choices are free. Schedule after schedule
/// changes the last choice that can still change within the bound, so none repeats; when none is left the
/// exploration is exhausted, and its pass reads "all N schedules within the bound passed". Replayed by its choices
/// (``ExplorationFailure/choices``), not a seed.
public struct ExhaustiveStrategy: SchedulingStrategy {
    public let preemptions: Int

    public init(preemptions: Int) {
        precondition(
            preemptions >= 0, "ExplorationStrategy.exhaustive: preemptions must not be negative, got \(preemptions)")
        self.preemptions = preemptions
    }

    public init?(spelling: StrategySpelling) {
        guard spelling.name == "exhaustive", spelling.parameters.map(\.label) == ["preemptions"],
            let preemptions = spelling["preemptions"], preemptions >= 0
        else { return nil }
        self.init(preemptions: preemptions)
    }

    public var spelling: StrategySpelling { StrategySpelling("exhaustive", ["preemptions": preemptions]) }
    public var description: String { "exhaustive (at most \(preemptions) preemptions)" }
    public var isSystematic: Bool { true }

    public func makeChooser(seed: UInt64, choices: [Int]) -> any ScheduleChooser {
        Chooser(preemptions: preemptions, prefix: choices)
    }

    /// Takes the alternatives its prefix says at the first choices, the default after them, and remembers what
    /// each choice offered and took.
    final class Chooser: ScheduleChooser {
        private let preemptions: Int
        private let prefix: [Int]
        private(set) var decisions: [PreemptionBound.Decision] = []
        /// The task that ran last (its number; 0 before the first step).
        private var lastTask = 0

        init(preemptions: Int, prefix: [Int]) {
            self.preemptions = preemptions
            self.prefix = prefix
        }

        /// The default continues the task that ran last, if it has a job ready; the prefix says which alternative to
        /// take.
        func choose(among ready: ReadyJobs, step: Int) -> ReadyJob {
            var defaultRank: Int?
            if lastTask != 0 {
                defaultRank = (0..<ready.count).first { ready.job(ofRank: $0).task == lastTask }
            }
            let made = decisions.count
            let alternative = made < prefix.count ? min(prefix[made], ready.count - 1) : 0
            decisions.append(
                PreemptionBound.Decision(offered: ready.count, free: defaultRank == nil, taken: alternative))
            let job = ready.job(
                ofRank: PreemptionBound.rank(ofAlternative: alternative, defaultRank: defaultRank ?? 0))
            lastTask = job.task
            return job
        }

        var choicesToReplay: [Int] { PreemptionBound.departures(decisions) }
        var nextSchedule: [Int]? { PreemptionBound.next(after: decisions, preemptions: preemptions) }
    }
}

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
