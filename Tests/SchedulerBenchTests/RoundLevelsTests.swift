import Foundation
import SchedulerConformance
import SchedulerKit
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// The round level (``RoundLevels``) on simulated cells: 12 backends × 10 rounds, log-normal noise of 8 %, every
/// backend's long-run figure 1. With no level shared by the rounds, the adjusted intervals must be as honest and as
/// narrow as the raw ones; with a step of the machine (1.7x for up to four rounds running, as W2 shows on this VM),
/// they must be much narrower and still cover the figure.
@Suite struct RoundLevelsTests {
    struct Outcome {
        var covered = 0
        var lanes = 0
        var width = 0.0
        var rawWidth = 0.0
        var coverage: Double { Double(covered) / Double(lanes) }
    }

    /// `sensitivity(lane)`: how strongly a lane feels the step (0: not at all, as NIO's event loop in W2).
    static func simulate(seeds: Int = 300, step: Bool, sensitivity: (Int) -> Double = { _ in 1 }) -> Outcome {
        var outcome = Outcome()
        var generator = SplitMix64(seed: 42)
        for _ in 0..<seeds {
            let start = Int(generator.next() % 10)
            let length = step ? Int(generator.next() % 5) : 0  // fewer than half the rounds: the median level is 1
            let lanes = (0..<12).map { lane in
                (0..<10).map { round in
                    let slowed = (start..<start + length).contains(round) ? sensitivity(lane) * Foundation.log(1.7) : 0
                    return Foundation.exp(slowed + 0.08 * Fixtures.gaussian(&generator))
                }
            }
            for (raw, adjusted) in zip(lanes, RoundLevels.adjusted(lanes, of: .nsPerTask)) {
                let interval = Statistics.medianEstimate(adjusted)
                outcome.lanes += 1
                outcome.covered += interval.contains(1) ? 1 : 0
                outcome.width += interval.relativeWidth
                outcome.rawWidth += Statistics.medianEstimate(raw).relativeWidth
            }
        }
        return outcome
    }

    @Test func withoutASharedLevelTheIntervalsStayAsTheyWere() {
        let outcome = Self.simulate(step: false)
        #expect(outcome.coverage >= 0.95, "coverage \(outcome.coverage)")
        #expect(outcome.width <= 1.1 * outcome.rawWidth, "width \(outcome.width) against \(outcome.rawWidth)")
    }

    @Test func aStepOfTheMachineIsTakenOut() {
        let outcome = Self.simulate(step: true)
        #expect(outcome.coverage >= 0.93, "coverage \(outcome.coverage)")
        #expect(outcome.width <= 0.5 * outcome.rawWidth, "width \(outcome.width) against \(outcome.rawWidth)")
    }

    /// Lanes that ignore the step, or feel it half or one and a half times, are each moved by their own slope.
    @Test func backendsThatFeelTheStepDifferentlyKeepTheirCoverage() {
        let outcome = Self.simulate(step: true) { lane in [0, 0.5, 1, 1.5][lane % 4] }
        #expect(outcome.coverage >= 0.93, "coverage \(outcome.coverage)")
        #expect(outcome.width <= 0.7 * outcome.rawWidth, "width \(outcome.width) against \(outcome.rawWidth)")
    }

    @Test func cellsWithTooFewUsableBackendsAreLeftAlone() {
        let lanes: [[Double]] = [
            [1, 2, 1, 2, 1, 2], [1, 2, 1, 2, 1, 2], [1, 2, 1, 2, 1, 2],
            [0, 2, 1, 2, 1, 2],  // a zero round: neither moved nor used as a witness
            [5, 5, 5, 5, 5, 5],  // never varies: tells nothing of the rounds
        ]
        #expect(RoundLevels.adjusted(lanes, of: .nsPerTask) == lanes)
        #expect(
            RoundLevels.adjusted(Array(lanes.prefix(3)) + [[1, 2, 1, 2, 1, 2]], of: .nsPerTask) != lanes.prefix(3) + [
                [1, 2, 1, 2, 1, 2]
            ])
    }

    /// A run's summary rests on the levelled rounds; `samples.csv` keeps what was measured beside them.
    @Test func aRunsFiguresRestOnTheLevelledRoundsAndItsSamplesKeepTheMeasuredOnes() throws {
        let step = [1.0, 1, 1, 1, 1, 1, 1.7, 1.7, 1.7, 1.7]
        var generator = SplitMix64(seed: 7)
        let backends: [BackendID] = [.dispatch, .threadPool, .operationQueue, .rawDispatch, .rawOperationQueue]
        let rounds = Dictionary(
            uniqueKeysWithValues: backends.map { id in
                (id, Fixtures.noisy(100, spread: 0.03, count: 10, &generator).enumerated().map { $1 * step[$0] })
            })
        let run = Fixtures.run([Fixtures.Cell(rounds: rounds)])
        let row = try #require(run.row(.dispatch, .throughput, .nsPerTask, allocator: .jemalloc))
        #expect(row.isTrusted, "interval \(row.summary.median)")
        #expect(!Statistics.medianEstimate(rounds[.dispatch]!).relativeWidth.isLess(than: Statistics.trustedSpread))
        #expect(row.summary.max == rounds[.dispatch]!.max(), "the range is what was measured")
        #expect(run.measuredValues(of: row) == rounds[.dispatch]!)
        #expect(run.values(of: row).max()! < 110)
    }
}
