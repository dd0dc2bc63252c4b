import SchedulerKit

/// Uniformly at random among the ready jobs, from the schedule's seed.
public struct RandomStrategy: SchedulingStrategy {
    public init() {}

    public init?(spelling: StrategySpelling) {
        guard spelling == Self().spelling else { return nil }
    }

    public var spelling: StrategySpelling { StrategySpelling("random") }
    public var description: String { "random" }

    public func makeChooser(seed: UInt64, choices: [Int]) -> any ScheduleChooser { Chooser(seed: seed) }

    final class Chooser: ScheduleChooser {
        /// Unchecked: one schedule's driving thread alone calls `choose`, under the engine's lock, so the runtime's
        /// exclusivity check (two calls into the runtime, some 110 instructions a step) would only cost time.
        @exclusivity(unchecked) private var random: SplitMix64

        init(seed: UInt64) { random = SplitMix64(seed: seed) }

        func choose(among ready: ReadyJobs, step: Int) -> ReadyJob {
            ready.job(ofRank: Int(random.next(below: UInt64(ready.count))))
        }
    }
}
