import Foundation
import TestSupport
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// `bench global-executors`' files and how `bench report` reads them back, on synthetic pairs (the contest itself runs
/// processes for minutes, so it is measured, not tested).
@Suite struct GlobalExecutorContestTests {
    /// 16 pairs where the champion takes 0.8 of the challenger's time on one cell.
    static var analysis: ABAnalysis {
        let pairs = (0..<16).map { index -> (baseline: [SummaryRow], candidate: [SummaryRow]) in
            let a = 1_000 + Double(index % 3)
            return ([Fixtures.row(.threadPool, median: a)], [Fixtures.row(.threadPool, median: a * 0.8)])
        }
        return ABAnalysis(pairs: pairs, minimumEffect: 0.02, pairing: .sequential)
    }

    @Test func theCSVNamesBothExecutorsAndTheReportShowsTheRatio() throws {
        let csv = GlobalExecutorContest.csv([(.dispatch, Self.analysis)], champion: .pool)
        let table = try CSVTable(
            text: csv, source: "contest.csv", required: ["a_global_executor", "b_global_executor"])
        #expect(table.records.count == 1)
        #expect(try table.records[0].text("a_global_executor") == "dispatch")
        #expect(try table.records[0].text("b_global_executor") == "pool")
        #expect(try table.records[0].text("verdict") == "faster")

        let results = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: results) }
        #expect(try GlobalExecutorContestSection.newest(in: results.path) == nil)
        let folder = results.appendingPathComponent("global-executors/20261127T000000Z-abcdef0-000001")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try csv.write(to: folder.appendingPathComponent("contest.csv"), atomically: true, encoding: .utf8)
        let section = try #require(try GlobalExecutorContestSection.newest(in: results.path))
        let lines = section.lines
        #expect(lines.first == "## The global executor: pool against dispatch")
        #expect(lines.contains { $0.contains("| pool / dispatch |") })
        #expect(lines.contains { $0.contains("0.8") && $0.contains("**faster**") })
    }

    @Test func everyChoiceIsAGlobalExecutorTheKitJudges() {
        #expect(GlobalExecutorChoice.all.map(\.id).prefix(2) == ["dispatch", "pool"])
        #expect(GlobalExecutorChoice.withID("nope") == nil)
        let judged = Set(Catalog.globalExecutors.map(\.name))
        for choice in GlobalExecutorChoice.all { #expect(judged.contains(choice.subject.name)) }
    }
}
