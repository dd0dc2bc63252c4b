import Foundation
import Testing
@testable import SchedulerBench

@Suite struct CSVTests {
    @Test func roundTripKeepsCommasQuotesAndLineBreaks() throws {
        let rows = [
            ["plain", "with,comma", "with \"quotes\"", "two\nlines", "crlf\r\nend", "", " spaced "],
            ["ünïcode ✓", "\"", ",", "a\"\"b", "trailing", "x", ""],
        ]
        let text = CSV.encode(rows)
        #expect(try CSV.decode(text) == rows)
        #expect(text.hasSuffix("\r\n"))
        #expect(text.contains("\"with \"\"quotes\"\"\""))
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

    @Test func tableChecksColumnsAndFieldCounts() throws {
        let directory = try temporaryDirectory()
        let good = directory.appendingPathComponent("good.csv")
        try CSV.writeAtomically("backend,median\r\ndispatch,\"1,5\"\r\n", to: good)
        let table = try CSVTable(contentsOf: good.path, required: ["backend"])
        #expect(table.records == [["backend": "dispatch", "median": "1,5"]])
        #expect(throws: CSV.ParseError.self) { try CSVTable(contentsOf: good.path, required: ["metric"]) }
        let ragged = directory.appendingPathComponent("ragged.csv")
        try CSV.writeAtomically("backend,median\r\ndispatch\r\n", to: ragged)
        #expect(throws: CSV.ParseError.self) { try CSVTable(contentsOf: ragged.path, required: []) }
        #expect(throws: CSV.ParseError.self) { try CSVTable(contentsOf: directory.appendingPathComponent("missing.csv").path, required: []) }
    }

    @Test func atomicWriteLeavesNoTemporaryFile() throws {
        let directory = try temporaryDirectory()
        let target = directory.appendingPathComponent("out.csv")
        try CSV.writeAtomically("a\r\n", to: target)
        try CSV.writeAtomically("b\r\n", to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "b\r\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.csv"])
    }

    @Test func summaryRowsRoundTripThroughAFile() throws {
        let rows = [
            Fixtures.row(backend: "dispatch", median: 420.5, low: 410, high: 431),
            Fixtures.row(backend: "weird, \"name\"", median: 1, low: 1, high: 1, parameters: "tasks=1 note=\"x\""),
        ]
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("summary.csv")
        try CSV.writeAtomically(CSV.encode([SummaryRow.columns] + rows.map(\.fields)), to: path)
        let read = try SummaryRow.read(path.path)
        #expect(read.map(\.fields) == rows.map(\.fields))
        #expect(read[1].backend == "weird, \"name\"")
    }

    @Test func runFolderIsWrittenWholeOrNotAtAll() throws {
        let directory = try temporaryDirectory()
        let results = RunResults(summary: [Fixtures.row(backend: "dispatch", median: 1, low: 1, high: 1)], samples: [])
        let folder = directory.appendingPathComponent("run-1")
        try results.write(to: folder)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == ["summary.csv", "samples.csv"])
        #expect(throws: BenchError.self) { try results.write(to: folder) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["run-1"])
    }
}

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

enum Fixtures {
    static let metadata = RunMetadata(fields: [
        "run_id": "test-run", "timestamp": "2026-11-21T00:00:00Z", "git_commit": "abc", "host": "host, with comma",
        "cpu_model": "CPU \"quoted\"", "cores": "2", "os": "Linux", "swift_version": "Swift 6", "build": "release",
        "command": "bench --quick", "load_average": "0.5", "clock_overhead_ns": "20",
    ])

    static func row(backend: String, median: Double, low: Double, high: Double, count: Int = 7,
                    parameters: String = "tasks=1000", metric: String = "ns_per_task") -> SummaryRow {
        SummaryRow(metadata: metadata, allocator: "jemalloc", backend: backend, reference: "raw-dispatch", workload: "W1",
                   workloadName: "throughput", parameters: parameters, metric: metric, unit: "ns", lowerIsBetter: true,
                   summary: SampleSummary(count: count, median: median, min: low, max: high, intervalLow: low, intervalHigh: high))
    }
}
