import Foundation
import SchedulerKit
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// The confidence sequence `bench ab` stops on, on synthetic pairs with the noise seen here: a process runs in one of
/// two speeds (TestScheduler's W1: 172–215 ns or 275–310 ns, for seconds at a time), 30 % of them slow by 35 %, with
/// 3 % of jitter besides. A pair's log-ratio is B's process minus A's.
@Suite struct ConfidenceSequenceTests {
    static func process(_ generator: inout SplitMix64, shift: Double) -> Double {
        let slow = Double(generator.next() >> 11) / Double(1 << 53) < 0.3
        return log(shift) + (slow ? 0.30 : 0) + 0.03 * Fixtures.gaussian(&generator)
    }

    /// What `bench ab` does with one cell: a look after every pair from the first bound on, stopping at the first
    /// verdict of faster or slower. `rank` gives the rank r of a look at n sorted values (nil: no bound yet).
    static func firstCall(
        seed: UInt64, shift: Double, pairs: Int, margin: Double, rank: (Int) -> Int?
    ) -> ABAnalysis.Verdict {
        var generator = SplitMix64(seed: seed)
        var sorted: [Double] = []
        for count in 1...pairs {
            let ratio = exp(process(&generator, shift: shift) - process(&generator, shift: 1))
            sorted.insert(ratio, at: sorted.firstIndex { $0 > ratio } ?? sorted.endIndex)
            guard let r = rank(count) else { continue }
            let median = Statistics.median(sorted: sorted)
            let estimate = Estimate(value: median, low: sorted[r - 1], high: sorted[count - r])
            let verdict = ABAnalysis.verdict(estimate, lowerIsBetter: true, minimumEffect: margin)
            if verdict == .slower || verdict == .faster { return verdict }
        }
        return .undecided
    }

    static let sequenceRanks = (0...300).map { ConfidenceSequence.rank(count: $0, miss: ABAnalysis.miss) }
    static let fixedRanks = (0...300).map { Statistics.intervalRank(count: $0, confidence: 0.99) }

    /// A build against itself, looked at after every one of 200 pairs with no margin at all: marked faster or slower
    /// in at most 1 % of 1 000 seeds (the sequence's promise).
    /// One pair, or eleven that agree, bound nothing yet: a verdict after the first pair would be a guess.
    @Test func fewerValuesThanTheFirstBoundAreUnbounded() {
        for count in [1, 11] {
            let estimate = ConfidenceSequence.median(Array(repeating: 1.05, count: count), miss: ABAnalysis.miss)
            #expect(estimate.low == -.infinity && estimate.high == .infinity, "\(count) values")
        }
        #expect(ConfidenceSequence.median(Array(repeating: 1.05, count: 12), miss: ABAnalysis.miss) == .exact(1.05))
    }

    @Test func optionalStoppingKeepsFalseAlarmsUnderOnePercent() {
        let marked = (0..<1_000).filter {
            Self.firstCall(seed: UInt64($0), shift: 1, pairs: 200, margin: 0) { Self.sequenceRanks[$0] } != .undecided
        }
        #expect(marked.count <= 10, "an A/A comparison was marked in \(marked.count) of 1000 seeds")
    }

    /// Why a sequence: the fixed 99 % interval, re-checked after every pair as `bench ab` did, is marked far more
    /// often than 1 % on the same data.
    @Test func aFixedIntervalRecheckedAfterEveryPairIsFooled() {
        let marked = (0..<1_000).filter {
            Self.firstCall(seed: UInt64($0), shift: 1, pairs: 200, margin: 0) { Self.fixedRanks[$0] } != .undecided
        }
        #expect(marked.count >= 30, "the re-checked fixed interval was marked in \(marked.count) of 1000 seeds")
    }

    /// A 3 % slowdown in that bimodal noise, with the default 2 % margin: called slower within 300 pairs in at least
    /// 90 % of 200 seeds, never faster.
    @Test func aThreePercentShiftInBimodalNoiseIsFound() {
        let verdicts = (0..<200).map {
            Self.firstCall(seed: UInt64($0), shift: 1.03, pairs: 300, margin: 0.02) { Self.sequenceRanks[$0] }
        }
        #expect(!verdicts.contains(.faster))
        let found = verdicts.filter { $0 == .slower }.count
        #expect(found >= 180, "a 3 % slowdown was found in \(found) of 200 seeds")
    }

    /// The sequence is the fixed interval's shape, a little wider, and has no bound before 12 values at 1 %.
    @Test func ranksAreAFewWiderThanTheFixedIntervalsAndStartAtTwelve() throws {
        #expect(ConfidenceSequence.rank(count: 11, miss: 0.01) == nil)
        #expect(ConfidenceSequence.rank(count: 12, miss: 0.01) == 1)
        #expect(ABAnalysis.pairsForABound == 12)
        for count in [40, 100, 200] {
            let sequence = try #require(ConfidenceSequence.rank(count: count, miss: 0.01))
            let fixed = try #require(Statistics.intervalRank(count: count, confidence: 0.99))
            #expect(sequence < fixed && sequence >= fixed * 3 / 4, "\(count): \(sequence) against \(fixed)")
        }
        let estimate = ConfidenceSequence.median((1...40).map(Double.init), miss: 0.01)
        #expect(estimate.value == 20.5)
        #expect(estimate.low == 10 && estimate.high == 31)
    }
}
