import Testing
@testable import SchedulerBench

@Suite struct StatisticsTests {
    @Test func medianOfOddAndEvenCounts() {
        #expect(Statistics.median([5, 1, 3]) == 3)
        #expect(Statistics.median([4, 1, 3, 2]) == 2.5)
        #expect(Statistics.median([7]) == 7)
    }

    @Test func quantileInterpolatesBetweenNeighbours() {
        let sorted: [Double] = [10, 20, 30, 40, 50]
        #expect(Statistics.quantile(sorted: sorted, 0) == 10)
        #expect(Statistics.quantile(sorted: sorted, 1) == 50)
        #expect(Statistics.quantile(sorted: sorted, 0.5) == 30)
        #expect(Statistics.quantile(sorted: sorted, 0.125) == 15)
    }

    @Test func identicalRoundsGiveAPointIntervalAndAreTrusted() {
        let summary = Statistics.summarize([100, 100, 100, 100, 100])
        #expect(summary.median == 100 && summary.min == 100 && summary.max == 100)
        #expect(summary.intervalLow == 100 && summary.intervalHigh == 100)
        #expect(summary.relativeSpread == 0)
        #expect(!summary.isTooNoisy)
    }

    @Test func intervalLiesWithinTheRangeAndContainsTheMedian() {
        let values: [Double] = [98, 103, 99, 101, 100, 97, 102]
        let summary = Statistics.summarize(values)
        #expect(summary.median == 100)
        #expect(summary.min == 97 && summary.max == 103)
        #expect(summary.intervalLow >= 97 && summary.intervalLow <= 100)
        #expect(summary.intervalHigh >= 100 && summary.intervalHigh <= 103)
        #expect(!summary.isTooNoisy)
    }

    @Test func wideSpreadIsReportedAsTooNoisy() {
        let summary = Statistics.summarize([100, 40, 180, 95, 260, 30, 150])
        #expect(summary.relativeSpread > Statistics.trustedSpread)
        #expect(summary.isTooNoisy)
    }

    @Test func tooFewRoundsAreNeverTrusted() {
        #expect(Statistics.summarize([100, 100]).isTooNoisy)
        #expect(!Statistics.summarize([100, 100, 100]).isTooNoisy)
    }

    @Test func bootstrapIsReproducible() {
        let values: [Double] = [3, 9, 4, 8, 5, 7, 6]
        #expect(Statistics.summarize(values) == Statistics.summarize(values))
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        #expect((0..<5).map { _ in first.next() } == (0..<5).map { _ in second.next() })
    }
}
