/// Always the job that became ready first: `TestScheduler`'s order, one schedule whatever the seed.
public struct FirstInFirstOutStrategy: SchedulingStrategy {
    public init() {}

    public init?(spelling: StrategySpelling) {
        guard spelling == Self().spelling else { return nil }
    }

    public var spelling: StrategySpelling { StrategySpelling("firstInFirstOut") }
    public var description: String { "first-in-first-out" }

    public func makeChooser(seed: UInt64, choices: [Int]) -> any ScheduleChooser { Chooser() }

    final class Chooser: ScheduleChooser {
        func choose(among ready: ReadyJobs, step: Int) -> ReadyJob { ready.job(ofRank: 0) }
    }
}
