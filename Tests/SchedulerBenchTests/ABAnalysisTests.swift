import Foundation
import SchedulerKit
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// `bench ab`'s verdicts on synthetic pairs of processes: each process's figure carries its own noise (where its
/// threads landed) and each pair a noise both processes share (what the machine did meanwhile).
@Suite struct ABAnalysisTests {
    static func pairs(
        seed: UInt64, count: Int, shift: Double, processNoise: Double,
        machineNoise: Double = 0.05
    ) -> [(baseline: [SummaryRow], candidate: [SummaryRow])] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let machine = Foundation.exp(machineNoise * Fixtures.gaussian(&generator))
            let a = 200 * machine * Foundation.exp(processNoise * Fixtures.gaussian(&generator))
            let b = 200 * shift * machine * Foundation.exp(processNoise * Fixtures.gaussian(&generator))
            return ([Fixtures.row(.threadPool, median: a)], [Fixtures.row(.threadPool, median: b)])
        }
    }

    /// What `bench ab` does: at least 12 pairs, then more while the cell is undecided, up to 40.
    static func sequential(seed: UInt64, shift: Double, processNoise: Double) -> ABAnalysis.Verdict {
        let all = pairs(seed: seed, count: 40, shift: shift, processNoise: processNoise)
        var count = ABAnalysis.pairsForABound
        var analysis = ABAnalysis(pairs: Array(all.prefix(count)), minimumEffect: 0.05, pairing: .sequential)
        while count < all.count && analysis.wantsMorePairs {
            count += 1
            analysis = ABAnalysis(pairs: Array(all.prefix(count)), minimumEffect: 0.05, pairing: .sequential)
        }
        return analysis.lines[0].verdict
    }

    /// The same build against itself, with 6 % noise per process (twice what was measured here): no verdict in at
    /// least 99 % of seeds, although the procedure looks again after every pair.
    @Test func aBuildAgainstItselfIsAlmostNeverMarked() {
        let marked = (0..<1_000).filter {
            [.faster, .slower].contains(Self.sequential(seed: UInt64($0), shift: 1, processNoise: 0.06))
        }
        #expect(marked.count <= 10, "an A/A comparison was marked in \(marked.count) of 1000 seeds")
    }

    /// A 10 % slowdown with the noise measured here between processes (3 % each): found in at least 95 % of seeds,
    /// never called faster.
    @Test func aTenPercentSlowdownIsFound() {
        let verdicts = (0..<1_000).map { Self.sequential(seed: UInt64($0), shift: 1.1, processNoise: 0.03) }
        #expect(!verdicts.contains(.faster))
        let found = verdicts.filter { $0 == .slower }.count
        #expect(found >= 950, "a 10 % slowdown was found in \(found) of 1000 seeds")
    }

    /// An undecided cell says how large a change this comparison could have called; a change twice that size, on the
    /// same noise, is called.
    @Test func anUndecidedCellSaysWhatItCouldHaveCalled() throws {
        for seed in UInt64(0)..<50 {
            let noise = Self.pairs(seed: seed, count: 16, shift: 1, processNoise: 0.06)
            let line = try #require(ABAnalysis(pairs: noise, minimumEffect: 0.05, pairing: .sequential).lines.first)
            guard line.verdict == .undecided else { continue }
            let callable = try #require(line.smallestCallable)
            #expect(callable > 0.05)
            let shifted = Self.pairs(seed: seed, count: 16, shift: 1 + 2 * callable, processNoise: 0.06)
            #expect(
                ABAnalysis(pairs: shifted, minimumEffect: 0.05, pairing: .sequential).lines.first?.verdict == .slower,
                "seed \(seed)")
        }
    }

    @Test func verdictsFollowTheIntervalAgainstTheBand() {
        // A change is called when the interval excludes 1 and its median clears the margin; a change proven but
        // smaller than the margin is not claimed.
        #expect(
            ABAnalysis.verdict(
                Estimate(value: 1.03, low: 1.01, high: 1.05), lowerIsBetter: true, minimumEffect: 0.02) == .slower)
        #expect(
            ABAnalysis.verdict(
                Estimate(value: 1.015, low: 1.005, high: 1.04), lowerIsBetter: true, minimumEffect: 0.02)
                == .undecided)
        let band = 0.05
        #expect(
            ABAnalysis.verdict(
                Estimate(value: 1.2, low: 1.1, high: 1.3), lowerIsBetter: true, minimumEffect: band)
                == .slower)
        #expect(
            ABAnalysis.verdict(
                Estimate(value: 1.2, low: 1.1, high: 1.3), lowerIsBetter: false, minimumEffect: band)
                == .faster)
        #expect(
            ABAnalysis.verdict(
                Estimate(value: 0.8, low: 0.7, high: 0.9), lowerIsBetter: true, minimumEffect: band)
                == .faster)
        #expect(
            ABAnalysis.verdict(
                Estimate(value: 1.01, low: 0.98, high: 1.03), lowerIsBetter: true, minimumEffect: band)
                == .same)
        #expect(
            ABAnalysis.verdict(
                Estimate(value: 1.04, low: 0.99, high: 1.09), lowerIsBetter: true, minimumEffect: band)
                == .undecided)
        // Exact counts compare as counts, with the metric's own tolerance: sub-unit jitter is never a verdict.
        #expect(ABAnalysis.countVerdict([(a: 1, b: 2)], metric: .allocsPerTask) == .slower)
        #expect(ABAnalysis.countVerdict([(a: 1, b: 1.0004)], metric: .allocsPerTask) == .same)
        #expect(ABAnalysis.countVerdict([(a: 0.02, b: 0.0172)], metric: .sizeClassBytesPerCall) == .same)
        #expect(ABAnalysis.countVerdict([(a: 2, b: 1)], metric: .allocsPerTask) == .faster)
    }

    @Test func cellsMissingFromAProcessAreLeftOutOfThatPair() {
        let pairs: [(baseline: [SummaryRow], candidate: [SummaryRow])] = [
            (
                [Fixtures.row(.threadPool, median: 100), Fixtures.row(.dispatch, median: 300)],
                [Fixtures.row(.threadPool, median: 110)]
            ),
            (
                [Fixtures.row(.threadPool, median: 100), Fixtures.row(.dispatch, median: 300)],
                [Fixtures.row(.threadPool, median: 110), Fixtures.row(.dispatch, median: 300)]
            ),
        ]
        let analysis = ABAnalysis(pairs: pairs, minimumEffect: 0.05, pairing: .sequential)
        #expect(analysis.lines.map(\.cell.backend) == [.threadPool, .dispatch])
        #expect(analysis.lines.map(\.pairs) == [2, 1])
        #expect(analysis.csv.contains("threadpool,2,100,110,1.100"))
        #expect(
            analysis.csv.split(separator: "\n").dropFirst().allSatisfy {
                $0.hasSuffix(",\(analysis.pairing.rawValue)")
            },
            "every row names the pairing that measured it")
    }
}
