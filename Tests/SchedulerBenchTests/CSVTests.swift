import Foundation
import TestSupport
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

@Suite struct CSVTests {
    @Test func roundTripKeepsCommasQuotesCarriageReturnsAndLineFeeds() throws {
        let rows = [
            ["plain", "with,comma", "with \"quotes\"", "two\nlines", "crlf\r\nend", "lone\rreturn", "", " spaced "],
            ["ünïcode ✓", "\"", ",", "a\"\"b", "trailing", "x", "\r", ""],
        ]
        let text = CSV.encode(rows)
        #expect(try CSV.decode(text) == rows)
        #expect(text.hasSuffix("\r\n"))
        #expect(text.contains("\"with \"\"quotes\"\"\""))
        #expect(text.contains("\"lone\rreturn\""))
    }

    @Test func acceptsLFLineEndsAndAMissingFinalLineBreak() throws {
        #expect(try CSV.decode("a,b\n1,2") == [["a", "b"], ["1", "2"]])
        #expect(try CSV.decode("a,\"\"\n") == [["a", ""]])
    }

    @Test func rejectsMalformedQuoting() {
        #expect(throws: CSV.ParseError.self) { try CSV.decode("a,\"never closed\n") }
        #expect(throws: CSV.ParseError.self) { try CSV.decode("a,b\"c\n") }
        #expect(throws: CSV.ParseError.self) { try CSV.decode("\"x\"y,z\n") }
    }

    @Test func tablesCheckColumnsAndFieldCounts() throws {
        let directory = try temporaryDirectory()
        let good = directory.appendingPathComponent("good.csv")
        try AtomicFile.write("backend,median\r\ndispatch,\"1,5\"\r\n", to: good)
        let table = try CSVTable(contentsOf: good.path, required: ["backend"])
        #expect(table.records.map(\.fields) == [["backend": "dispatch", "median": "1,5"]])
        #expect(throws: CSV.ParseError.self) { try CSVTable(contentsOf: good.path, required: ["metric"]) }
        let ragged = directory.appendingPathComponent("ragged.csv")
        try AtomicFile.write("backend,median\r\ndispatch\r\n", to: ragged)
        #expect(throws: CSV.ParseError.self) { try CSVTable(contentsOf: ragged.path, required: []) }
        #expect(throws: CSV.ParseError.self) {
            try CSVTable(contentsOf: directory.appendingPathComponent("missing.csv").path, required: [])
        }
    }

    @Test func anAtomicWriteLeavesNoTemporaryFile() throws {
        let directory = try temporaryDirectory()
        let target = directory.appendingPathComponent("out.csv")
        try AtomicFile.write("a\r\n", to: target)
        try AtomicFile.write("b\r\n", to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "b\r\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.csv"])
    }

    /// Every column, the intervals and modes included, survives a run folder; a malformed field is named.
    @Test func aRunSurvivesItsFolder() throws {
        let run = Fixtures.run([
            Fixtures.Cell(rounds: [
                .threadPool: [240, 245, 238, 250, 242, 550, 560, 548, 240, 555], .rawDispatch: steady(300),
            ])
        ])
        let root = try temporaryDirectory()
        let folder = try RunStore(root: root.path).write(
            runID: "r", files: RunResults(summary: run.summary, samples: []).files)
        let read = try RunData.load(folder.path)
        #expect(read.summary.map(\.fields) == run.summary.map(\.fields))
        let pool = try #require(read.summary.first { $0.backend == .threadPool })
        #expect(pool.summary.modes.count == 2 && pool.ratioToReference != nil && pool.fastest == .threadPool)
        var fields = run.summary[0].fields
        fields[SummaryRow.columns.firstIndex(of: "median")!] = "fast"
        try AtomicFile.write(
            CSV.encode([SummaryRow.columns, fields]), to: folder.appendingPathComponent("summary.csv"))
        #expect { try SummaryRow.read(folder.appendingPathComponent("summary.csv").path) } throws: {
            "\($0)".contains("record 2") && "\($0)".contains("median")
        }
    }

    @Test func samplesRecordEachRoundAndWhatTheKernelDidDuringIt() throws {
        let cell = CellMeasurement(
            workload: .singleProducer, parameters: Parameters([.tasks: 1]),
            backends: [
                BackendRounds(
                    backend: Catalog.backend(.threadPool)!,
                    rounds: [
                        RoundRecord(
                            result: RoundResult(values: [.nsPerTask: 100, .cpuNsPerTask: 180]), repetitions: 7,
                            seconds: 0.21,
                            contextSwitches: 40, migrations: 3)
                    ])
            ])
        let results = RunResults(cells: [cell], metadata: Fixtures.metadata, allocator: .jemalloc)
        let sample = try #require(results.samples.first { $0.metric == .nsPerTask })
        #expect(
            sample.repetitions == 7 && sample.contextSwitches == 40 && sample.migrations == 3
                && sample.roundMilliseconds == 210)
        let row = try #require(results.summary.first { $0.metric == .nsPerTask })
        #expect(row.contextSwitches == 40 && row.migrations == 3 && row.repetitions == 7)
    }
}
