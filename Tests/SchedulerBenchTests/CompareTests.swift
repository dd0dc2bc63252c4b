import Foundation
import Testing
@testable import SchedulerBench

@Suite struct CompareTests {
    /// Writes rows as a summary.csv and reads them back, as `bench compare` does.
    func file(_ rows: [SummaryRow]) throws -> [SummaryRow] {
        let path = try temporaryDirectory().appendingPathComponent("summary.csv")
        try CSV.writeAtomically(CSV.encode([SummaryRow.columns] + rows.map(\.fields)), to: path)
        return try SummaryRow.read(path.path)
    }

    @Test func overlappingIntervalsAreWithinNoise() throws {
        let before = try file([Fixtures.row(backend: "dispatch", median: 100, low: 95, high: 105)])
        let after = try file([Fixtures.row(backend: "dispatch", median: 103, low: 99, high: 108)])
        let comparison = Comparison(before: before, after: after)
        #expect(comparison.lines.count == 1)
        #expect(comparison.lines[0].verdict == .withinNoise)
        #expect(abs(comparison.lines[0].ratio - 1.03) < 1e-9)
        #expect(!comparison.render().contains("**"))
    }

    @Test func separatedIntervalsAreMarkedInTheRightDirection() throws {
        let before = try file([
            Fixtures.row(backend: "dispatch", median: 100, low: 98, high: 102),
            Fixtures.row(backend: "threadpool", median: 100, low: 98, high: 102),
        ])
        let after = try file([
            Fixtures.row(backend: "dispatch", median: 150, low: 145, high: 155),
            Fixtures.row(backend: "threadpool", median: 50, low: 48, high: 52),
        ])
        let verdicts = Comparison(before: before, after: after).lines.map(\.verdict)
        #expect(verdicts == [.worse, .better])
    }

    @Test func higherIsBetterMetricsFlipTheVerdict() {
        var before = Fixtures.row(backend: "dispatch", median: 100, low: 98, high: 102)
        var after = Fixtures.row(backend: "dispatch", median: 150, low: 145, high: 155)
        before.lowerIsBetter = false
        after.lowerIsBetter = false
        #expect(Comparison(before: [before], after: [after]).lines[0].verdict == .better)
    }

    @Test func wideSpreadIsTooNoisyEvenWhenMediansDiffer() throws {
        let before = try file([Fixtures.row(backend: "dispatch", median: 100, low: 50, high: 200)])
        let after = try file([Fixtures.row(backend: "dispatch", median: 300, low: 290, high: 310)])
        let comparison = Comparison(before: before, after: after)
        #expect(comparison.lines[0].verdict == .tooNoisy)
        #expect(comparison.render().contains("too noisy to trust"))
    }

    @Test func singleRoundCountsAreComparedExactly() {
        let before = Fixtures.row(backend: "dispatch", median: 4, low: 4, high: 4, count: 1, metric: "allocs_per_task")
        let same = Fixtures.row(backend: "dispatch", median: 4, low: 4, high: 4, count: 1, metric: "allocs_per_task")
        let fewer = Fixtures.row(backend: "dispatch", median: 3, low: 3, high: 3, count: 1, metric: "allocs_per_task")
        #expect(Comparison(before: [before], after: [same]).lines[0].verdict == .withinNoise)
        #expect(Comparison(before: [before], after: [fewer]).lines[0].verdict == .better)
    }

    @Test func cellsInOneFileOnlyAreListedNotCompared() throws {
        let before = try file([Fixtures.row(backend: "dispatch", median: 1, low: 1, high: 1)])
        let after = try file([Fixtures.row(backend: "threadpool", median: 1, low: 1, high: 1)])
        let comparison = Comparison(before: before, after: after)
        #expect(comparison.lines.isEmpty)
        #expect(comparison.onlyBefore.count == 1 && comparison.onlyAfter.count == 1)
    }

    @Test func malformedSummaryIsRejectedWithTheRecordNamed() throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("summary.csv")
        var fields = Fixtures.row(backend: "dispatch", median: 1, low: 1, high: 1).fields
        fields[SummaryRow.columns.firstIndex(of: "median")!] = "fast"
        try CSV.writeAtomically(CSV.encode([SummaryRow.columns, fields]), to: path)
        #expect {
            try SummaryRow.read(path.path)
        } throws: { error in
            "\(error)".contains("record 2") && "\(error)".contains("median")
        }
        try CSV.writeAtomically("not,a,bench,file\r\n", to: path)
        #expect(throws: CSV.ParseError.self) { try SummaryRow.read(path.path) }
    }
}
