import Foundation
import SchedulerKit
import TestSupport
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// `bench history`: change points over exact counts and over measured figures with their intervals and calibrated
/// noise bounds, and none in runs of one build.
@Suite struct HistoryTests {
    static func count(_ values: [Double]) -> [HistoryRow] {
        values.enumerated().map { index, value in
            var row = HistoryRow()
            (row.runID, row.commit, row.metric, row.kind) = ("run\(index)", "c\(index)", "allocs_per_task", "exact")
            (row.value, row.low, row.high) = (value, value, value)
            return row
        }
    }

    static func measured(_ figures: [(value: Double, low: Double, high: Double)]) -> [HistoryRow] {
        figures.enumerated().map { index, figure in
            var row = HistoryRow()
            (row.runID, row.commit, row.metric, row.kind) = ("run\(index)", "c\(index)", "ns_per_task", "measured")
            (row.value, row.low, row.high) = figure
            return row
        }
    }

    @Test func aStepInACountIsNamedWithTheRunWhereItBegan() {
        let changes = ChangePoint.find(in: Self.count([10, 10, 9.99, 10, 7, 7, 7]))
        #expect(changes.map(\.commit) == ["c4"])
        #expect(changes.first.map { ($0.before, $0.after) } ?? (0, 0) == (10, 7))
    }

    @Test func aStepTakingTwoRunsIsNamedWhereItBegan() {
        #expect(ChangePoint.find(in: Self.count([100, 100, 100, 103, 108, 108, 108])).map(\.commit) == ["c3"])
    }

    @Test func jitterWithinTheCountToleranceAndSmallStepsAreNoChange() {
        #expect(ChangePoint.find(in: Self.count([0.02, 0.017, 0.02, 0.019, 0.02])).isEmpty)
        #expect(ChangePoint.find(in: Self.count([100, 100, 100, 103, 103, 103])).isEmpty)  // 3 % < 5 %
    }

    @Test func theNewestRunAloneNamesNothingYet() {
        #expect(ChangePoint.find(in: Self.count([10, 10, 10, 7])).isEmpty)
    }

    @Test func aMeasuredStepNeedsItsCalibratedNoiseBound() {
        let series = Self.measured([
            (100, 95, 105), (101, 96, 106), (99, 94, 104), (130, 125, 135), (131, 126, 136), (129, 124, 134),
        ])
        #expect(ChangePoint.find(in: series).isEmpty, "no calibration: not judged")
        #expect(
            ChangePoint.find(in: series, noiseBound: { _ in 0.5 }).isEmpty, "a 30 % step within a ±50 % noise bound")
        #expect(ChangePoint.find(in: series, noiseBound: { _ in 0.1 }).map(\.commit) == ["c3"])
    }

    @Test func aMeasuredFigureWithoutAnIntervalSeparatesNothing() {
        let once = Self.measured([(100, 100, 100), (100, 100, 100), (50, 50, 50), (50, 50, 50)])
        #expect(ChangePoint.find(in: once, noiseBound: { _ in 0.1 }).isEmpty)
    }

    /// Runs of one build: each run's figure drawn around one level with run-to-run noise (σ = 0.1 on the log scale)
    /// far wider than its own interval, judged with the noise bound a calibration of that noise gives (±44 %), over 1 000
    /// series of 12 runs: at most 1 % of series with a change point (this seed: 1 of 1 000).
    @Test func runsOfOneBuildHaveNoChangePoint() {
        let bound = Calibration.Entry(deviation: 0.1, onLogScale: true, freedom: 1_000, values: []).noiseBound
        var generator = SplitMix64(seed: 7)
        var alarms = 0
        for _ in 0..<1_000 {
            let series = Self.measured(
                (0..<12).map { _ in
                    let level = 100 * Foundation.exp(0.1 * Fixtures.gaussian(&generator))
                    return (level, level * 0.95, level * 1.05)
                })
            alarms += ChangePoint.find(in: series, noiseBound: { _ in bound }).count
        }
        #expect(alarms <= 10)
    }

    @Test func aRunIsAddedOnceAndRunsStayInTheOrderTheyWereMade() throws {
        var early = Fixtures.metadata
        (early.runID, early.timestamp) = ("early", "2026-11-20T00:00:00Z")
        var late = Fixtures.metadata
        (late.runID, late.timestamp) = ("late", "2026-11-21T00:00:00Z")
        let cell = Fixtures.Cell(rounds: [.threadPool: Array(repeating: 100, count: 9)])
        var history = History()
        let addedLate = history.add(Fixtures.run([cell], metadata: late))
        #expect(addedLate)
        let addedEarly = history.add(Fixtures.run([cell], metadata: early))
        #expect(addedEarly)
        let addedAgain = history.add(Fixtures.run([cell], metadata: late))
        #expect(!addedAgain)
        #expect(history.runIDs == ["early", "late"])
        let reread = History(
            rows: try CSVTable(text: history.csv, source: "test", required: []).records.map { record in
                var row = HistoryRow()
                HistoryRow.schema.read(record.fields, into: &row)
                return row
            })
        #expect(reread.rows == history.rows)
    }

    /// The history is a folder of one compressed file per run: adding writes one file and rewrites none; the single
    /// file of earlier versions is split into per-run files the first time a run is added, and read until then.
    @Test func aFolderKeepsAFilePerRunAndTakesOverTheSingleFileOfEarlierVersions() throws {
        let results = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: results) }
        let cell = Fixtures.Cell(rounds: [.threadPool: Array(repeating: 100, count: 9)])
        func run(_ id: String, _ day: Int) -> RunData {
            var metadata = Fixtures.metadata
            (metadata.runID, metadata.timestamp) = (id, "2026-11-\(day)T00:00:00Z")
            return Fixtures.run([cell], metadata: metadata)
        }
        var legacy = History()
        legacy.add(run("first", 20))
        try AtomicFile.write(legacy.csv, to: results.appendingPathComponent("history.csv"))
        let folder = HistoryFolder(results: results.path)
        #expect(try folder.load().runIDs == ["first"], "the single file of earlier versions is read")

        let written = try #require(try folder.add(run("second", 21)))
        #expect(written.lastPathComponent == "second.csv.gz")
        #expect(try folder.add(run("second", 21)) == nil, "a run is added once")
        #expect(!FileManager.default.fileExists(atPath: results.appendingPathComponent("history.csv").path))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(files == ["first.csv.gz", "second.csv.gz"], "one file per run and nothing half-written")
        let history = try folder.load()
        #expect(history.runIDs == ["first", "second"])
        #expect(history.rows.filter { $0.runID == "first" } == legacy.rows, "the split keeps every row as it was")
    }
}
