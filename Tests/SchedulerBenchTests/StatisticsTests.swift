import SchedulerKit
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

@Suite struct StatisticsTests {
    @Test func medianOfOddAndEvenCounts() {
        #expect(Statistics.median([5, 1, 3]) == 3)
        #expect(Statistics.median([4, 1, 3, 2]) == 2.5)
        #expect(Statistics.median([7]) == 7)
    }

    @Test func quantileInterpolatesBetweenNeighbours() {
        let sorted: [Double] = [10, 20, 30, 40, 50]
        #expect(quantile(sorted: sorted, 0) == 10)
        #expect(quantile(sorted: sorted, 1) == 50)
        #expect(quantile(sorted: sorted, 0.125) == 15)
    }

    @Test func identicalRoundsGiveAPointInterval() {
        let estimate = Statistics.medianEstimate([100, 100, 100, 100, 100])
        #expect(estimate == Estimate(value: 100, low: 100, high: 100))
        #expect(estimate.relativeWidth == 0)
        #expect(!SampleSummary([100, 100, 100, 100, 100, 100]).isTooNoisy)
        #expect(SampleSummary([100, 100, 100]).isTooNoisy)  // too few rounds to trust
    }

    @Test func anExactCountIsTrustedHoweverFewRoundsCountedIt() {
        let counted = Fixtures.row(.threadPool, median: 1, count: 1, workload: .allocations, metric: .allocsPerTask)
        #expect(counted.isTrusted)
        let timedOnce = Fixtures.row(.threadPool, median: 45, count: 1, workload: .allocations, metric: .peakRSSGrowth)
        #expect(!timedOnce.isTrusted)
        #expect(!Fixtures.row(.threadPool, median: 100, low: 80, high: 140).isTrusted)
        #expect(Fixtures.row(.threadPool, median: 100, low: 95, high: 108).isTrusted)
    }

    @Test func intervalLiesWithinTheRangeAndContainsTheMedian() {
        let estimate = Statistics.medianEstimate([98, 103, 99, 101, 100, 97, 102])
        #expect(estimate.value == 100)
        #expect(estimate.low >= 97 && estimate.low <= 100 && estimate.high >= 100 && estimate.high <= 103)
    }

    @Test func bootstrapsAreReproducible() {
        let values: [Double] = [3, 9, 4, 8, 5, 7, 6]
        #expect(Statistics.medianEstimate(values) == Statistics.medianEstimate(values))
        #expect(
            Statistics.pairedRatio(values, over: values.reversed())
                == Statistics.pairedRatio(values, over: values.reversed()))
    }

    /// Pairing cancels what hits both rows of a round: two rows that move together by 2x from round to round have a
    /// ratio with no spread at all, where their medians' intervals overlap.
    @Test func pairedRatiosCancelWhatHitsBothRowsOfARound() throws {
        let machine: [Double] = [1, 2, 1, 2, 1.5, 1, 2, 1.2, 1.8]
        let reference = machine.map { 100 * $0 }
        let backend = machine.map { 110 * $0 }
        let paired = try #require(Statistics.pairedRatio(backend, over: reference))
        #expect(abs(paired.value - 1.1) < 1e-9 && abs(paired.low - 1.1) < 1e-9 && abs(paired.high - 1.1) < 1e-9)
        let unpaired = try #require(Statistics.unpairedRatio(backend, over: reference))
        #expect(unpaired.low < 1 && unpaired.high > 1.2)  // the medians alone cannot tell
    }

    @Test func aZeroReferenceRoundHasNoRatio() {
        #expect(Statistics.pairedRatio([1, 2], over: [0, 0]) == nil)
        #expect(Statistics.pairedRatio([4, 6], over: [2, 0])?.value == 2)
    }

    @Test func pairedDifferencesAreMediansOfTheRoundsDifferences() throws {
        let difference = try #require(
            Statistics.pairedDifference([12, 13, 11, 12, 12, 12, 14, 10, 12], minus: Array(repeating: 10, count: 9)))
        #expect(difference == Estimate(value: 2, low: 1, high: 3))
    }

    /// The interval of a median runs from the k-th smallest to the k-th largest value: k = 2 of 9 at 95 % (each end
    /// is beyond the median with probability 10/512), none at all below 6 values.
    @Test func medianIntervalsComeFromOrderStatistics() {
        #expect(Statistics.intervalRank(count: 9, confidence: 0.95) == 2)
        #expect(Statistics.intervalRank(count: 6, confidence: 0.95) == 1)
        #expect(Statistics.intervalRank(count: 5, confidence: 0.95) == nil)
        #expect(Statistics.intervalRank(count: 7, confidence: 0.99) == nil)
        #expect(Statistics.intervalRank(count: 8, confidence: 0.99) == 1)
        // P(B ≤ 468) = 0.0231, P(B ≤ 469) = 0.0268.
        #expect(Statistics.intervalRank(count: 1_000, confidence: 0.95) == 469)
        let estimate = Statistics.medianEstimate([5, 1, 9, 3, 7, 2, 8, 4, 6])
        #expect(estimate == Estimate(value: 5, low: 2, high: 8))
        let tooFew = Statistics.medianEstimate([1, 2, 3])
        #expect(tooFew.value == 2 && tooFew.low == -.infinity && tooFew.high == .infinity)
    }
}

/// Two clusters of rounds are two modes; one cluster with stray rounds is one.
@Suite struct ModeTests {
    @Test func twoClustersAreReportedAsTwoModesWithTheirShares() {
        let modes = Modes.detect([240, 245, 238, 250, 242, 550, 560, 548, 240, 555])
        #expect(modes.count == 2)
        #expect(modes[0].value == 241 && modes[0].share == 0.6)
        #expect(modes[1].value == 552.5 && abs(modes[1].share - 0.4) < 1e-9)
    }

    @Test func oneStrayRoundIsNoMode() {
        #expect(Modes.detect([100, 101, 99, 102, 98, 100, 300, 101, 100]).isEmpty)
        #expect(Modes.detect([100, 200, 100, 200]).isEmpty)  // too few rounds to tell
    }

    /// Unimodal noise, 10 % log-normal, 9 to 21 rounds: two modes are claimed in under 1 % of seeds.
    @Test func unimodalNoiseIsAlmostNeverSplit() {
        var claimed = 0
        for seed in 0..<1_000 {
            var generator = SplitMix64(seed: UInt64(seed))
            let values = Fixtures.noisy(300, spread: 0.1, count: 9 + seed % 13, &generator)
            if !Modes.detect(values).isEmpty { claimed += 1 }
        }
        #expect(claimed < 10, "two modes claimed in \(claimed) of 1000 unimodal samples")
    }

    /// Two placements 2.3x apart with 5 % noise each, 30 to 70 % in the first: found in nearly every seed.
    @Test func twoPlacementsAreFound() {
        var found = 0
        for seed in 0..<1_000 {
            var generator = SplitMix64(seed: UInt64(seed))
            let first = 3 + seed % 5
            let values =
                Fixtures.noisy(240, spread: 0.05, count: first, &generator)
                + Fixtures.noisy(550, spread: 0.05, count: 10 - first, &generator)
            if Modes.detect(values).count == 2 { found += 1 }
        }
        #expect(found > 990, "two modes found in \(found) of 1000 bimodal samples")
    }
}
