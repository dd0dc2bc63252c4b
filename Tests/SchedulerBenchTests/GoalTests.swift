import Foundation
import SchedulerKit
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// Goals are data checked against the catalog: a goal that names a lane or a configuration no full run measures
/// fails here, not as "not measured" in a report.
@Suite struct GoalCatalogTests {
    @Test(arguments: Goal.all.map(\.id))
    func everyGoalReadsCellsThatAFullRunMeasures(_ id: GoalID) throws {
        let goal = try #require(Goal.all.first { $0.id == id })
        for cell in goal.measure.cells + (goal.floor?.measure.cells ?? []) {
            let workload = try #require(Workload.withID(cell.workload), "\(id): no workload \(cell.workload)")
            let backend = try #require(Catalog.backend(cell.backend), "\(id): no backend \(cell.backend)")
            #expect(workload.supports(backend), "\(id): \(cell.backend) does not run \(cell.workload)")
            #expect(workload.allMetrics.contains(cell.metric), "\(id): \(cell.workload) reports no \(cell.metric)")
            #expect(
                workload.parameters(at: .full).contains { $0.contains(cell.parameters) },
                "\(id): \(cell.workload) has no configuration with \(cell.parameters)")
        }
    }

    @Test func goalIdentifiersAreUnique() {
        #expect(Set(Goal.all.map(\.id)).count == Goal.all.count)
    }
}

@Suite struct GoalEvaluationTests {
    /// W1 of dispatch against raw Dispatch, with 5 % noise per round that both share and 2 % of their own.
    static func run(ratio: Double, rounds: Int = 15, seed: UInt64 = 7) -> RunData {
        var generator = SplitMix64(seed: seed)
        let shared = Fixtures.noisy(300, spread: 0.05, count: rounds, &generator)
        let own = Fixtures.noisy(1, spread: 0.02, count: rounds, &generator)
        return Fixtures.run([
            Fixtures.Cell(rounds: [.rawDispatch: shared, .dispatch: zip(shared, own).map { $0 * ratio * $1 }])
        ])
    }

    static func verdict(_ run: RunData, _ id: GoalID = .dispatchOverhead, calibration: Calibration? = nil) -> GoalResult
    {
        GoalEvaluation.evaluate(in: run, allocator: .jemalloc, calibration: calibration).first { $0.goal.id == id }!
    }

    @Test func aClearMarginIsMetOrNotMet() {
        #expect(Self.verdict(Self.run(ratio: 1.0)).verdict == .met)
        #expect(Self.verdict(Self.run(ratio: 1.3)).verdict == .notMet)
    }

    @Test func anIntervalAcrossTheLimitIsUndecided() {
        #expect(Self.verdict(Self.run(ratio: 1.1)).verdict == .undecided)
    }

    /// The floor is judged in the same run and in the goal's terms; the report names it beside the verdict.
    @Test func aGoalsFloorIsMeasuredInTheSameRunAndReported() throws {
        let run = Fixtures.run([
            Fixtures.Cell(rounds: [
                .rawDispatch: Array(repeating: 300, count: 9), .threadPool: Array(repeating: 150, count: 9),
                .spinHandOff: Array(repeating: 100, count: 9),
            ])
        ])
        let result = Self.verdict(run, .poolThroughputOverDispatch)
        #expect(result.verdict == .notMet)
        let floor = try #require(result.floor)
        #expect(abs(floor.value - 3) < 1e-9, "raw Dispatch over the hand-off floor: 300 / 100")
        let section = Report.goalsSection(run: run, allocator: .jemalloc, calibration: nil)
        #expect(section.contains("| 2.00x faster | the run's interval | not met | 3.00x faster [1] |"))
        #expect(section.contains("1. \(Goal.handOffFloor)"))
        #expect(Self.verdict(run, .immediateShare).verdict == .notMeasured, "no protocol-call cell in this run")
    }

    @Test func aGoalWhoseCellsAreMissingIsNotMeasured() {
        #expect(Self.verdict(Self.run(ratio: 1), .poolRoundTrip).verdict == .notMeasured)
    }

    /// A ratio met within the run becomes undecided once the machine's run-to-run margin is added.
    @Test func theCalibratedMarginWidensTheInterval() throws {
        let run = Self.run(ratio: 1.05)
        #expect(Self.verdict(run).verdict == .met)
        var calibration = try ComparisonTests.calibration()
        calibration.goals[Calibration.GoalKey(goal: .dispatchOverhead, allocator: .jemalloc)] =
            Calibration.Entry(deviation: 0.05, onLogScale: true, freedom: 8, values: [])
        let result = Self.verdict(run, calibration: calibration)
        #expect(result.calibrated && result.verdict == .undecided)
    }

    /// The margin is how far whole runs' figures move, the run's own noise included: the judged interval is the wider
    /// of the two on each side, never their sum.
    @Test func theMarginAndTheRunsOwnIntervalAreNotAdded() {
        let margin = Calibration.Entry(deviation: 0.05, onLogScale: true, freedom: 8, values: [])  // ±12.2 %
        let narrow = margin.widen(Estimate(value: 1, low: 0.97, high: 1.03))
        #expect(abs(narrow.low - 1 / 1.122) < 0.002 && abs(narrow.high - 1.122) < 0.002)
        let wide = margin.widen(Estimate(value: 1, low: 0.95, high: 1.30))
        #expect(abs(wide.low - 1 / 1.122) < 0.002 && wide.high == 1.30)
        let counts = Calibration.Entry(deviation: 0.5, onLogScale: false, freedom: 8, values: [])
        let shifted = counts.widen(Estimate(value: 0, low: -2, high: 0.5))
        #expect(shifted.low == -2 && abs(shifted.high - 0.5 * StudentT.quantile975(8)) < 1e-9)
    }

    /// A ratio at the limit never reads met in one seed and not met in another... unless its margin is honest:
    /// across seeds, met and not met may both appear only for a figure the interval cannot place.
    @Test func aFigureFarFromItsLimitNeverFlips() {
        let verdicts = Set((0..<200).map { Self.verdict(Self.run(ratio: 0.95, seed: UInt64($0))).verdict })
        #expect(verdicts == [.met])
    }

    @Test func countsAreJudgedExactly() {
        let run = Fixtures.run([
            Fixtures.Cell(
                workload: .allocations, metric: .allocsPerTask,
                rounds: [.threadPool: [1.0002], .directCall: [0]])
        ])
        #expect(Self.verdict(run, .poolAllocations).verdict == .met)
        let planted = Fixtures.run([
            Fixtures.Cell(
                workload: .allocations, metric: .allocsPerTask,
                rounds: [.threadPool: [2], .directCall: [0]])
        ])
        #expect(Self.verdict(planted, .poolAllocations).verdict == .notMet)
    }

    @Test func figuresReadAsPeopleReadThem() throws {
        let goal = try #require(Goal.all.first { $0.id == .virtualTimeRate })
        #expect(
            goal.present(Estimate(value: 100, low: 90, high: 125)) == "10.0 M tasks/s (8.00 M tasks/s–11.1 M tasks/s)")
    }
}
