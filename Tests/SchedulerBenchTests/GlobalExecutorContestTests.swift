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

    /// A pair where the timed task was alone and sent next to no job on both sides is marked at the floor; one where
    /// either side's jobs belonged to another task too (a single job in 5 000 units) is not; the counts round-trip
    /// through `jobs.csv`.
    @Test func aPairSentNoJobsIsMarkedAtTheFloor() throws {
        let row = GlobalJobCount.Key(workload: .actorPipeline, parameters: "events=5000")
        let alone = GlobalJobCount.Count(jobsPerUnit: 0.0002, otherTasks: 0)
        let beside = GlobalJobCount.Count(jobsPerUnit: 0.0002, otherTasks: 1)
        let jobs = GlobalExecutorJobs(counts: ["pool": [row: alone], "dispatch": [row: beside], "nio": [row: alone]])
        let read = try GlobalExecutorJobs(csv: jobs.csv, source: "jobs.csv")
        #expect(read.count("dispatch", workload: row.workload, parameters: row.parameters) == beside)
        #expect(read.atFloor("pool", "nio", workload: row.workload, parameters: row.parameters))
        #expect(!read.atFloor("pool", "dispatch", workload: row.workload, parameters: row.parameters))
        #expect(!read.atFloor("pool", "nio", workload: row.workload, parameters: "events=64"))

        let results = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: results) }
        let folder = results.appendingPathComponent("global-executors/20261127T000000Z-abcdef0-000001")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let csv = GlobalExecutorContest.csv([(.dispatch, Self.analysis)], champion: .pool)
        try csv.write(to: folder.appendingPathComponent("contest.csv"), atomically: true, encoding: .utf8)
        let section = try #require(try GlobalExecutorContestSection.newest(in: results.path))
        #expect(section.jobs == nil)
        #expect(!section.lines.contains { $0.contains("jobs a unit") })
        let cell = try #require(section.rows.first)
        let key = GlobalJobCount.Key(workload: WorkloadID(rawValue: cell.workload), parameters: cell.parameters)
        let floorJobs = GlobalExecutorJobs(counts: ["pool": [key: alone], "dispatch": [key: alone]])
        try floorJobs.csv.write(to: folder.appendingPathComponent("jobs.csv"), atomically: true, encoding: .utf8)
        let marked = try #require(try GlobalExecutorContestSection.newest(in: results.path))
        #expect(marked.lines.contains { $0.contains("| jobs a unit |") })
        #expect(marked.lines.contains { $0.contains("*at the floor*") && $0.contains("0.0002 (0) / 0.0002 (0)") })
    }

    /// W25 with its consumer started before the burst against its floor (`consumer=after`), each side in its own
    /// processes: a side whose row equals its floor, pair after pair, is the same as it; one 30 % above it is not;
    /// and a pair is at the floor only where the two sides are the same too, on the row or on the floor.
    @Test func aRowIsComparedWithItsFloorConfigurationSideBySide() throws {
        let (row, floor) = (Self.pipeline(.before), Self.pipeline(.after))
        #expect(Workload.actorPipeline.floor(row) == floor)
        #expect(Workload.actorPipeline.floor(floor) == nil)
        func rows(_ task: Double, _ inline: Double) -> [SummaryRow] {
            [
                Fixtures.row(
                    .defaultExecutor, median: task, workload: .actorPipeline, metric: .nsPerEvent, parameters: row),
                Fixtures.row(
                    .defaultExecutor, median: inline, workload: .actorPipeline, metric: .nsPerEvent, parameters: floor),
            ]
        }
        let pairs = (0..<16).map { index -> ProcessPair in
            let wobble = 1 + Double(index % 3) * 0.001
            return (rows(1_100 * wobble, 1_100), rows(1_430 * wobble, 1_100))
        }
        func lines(_ pairs: [ProcessPair]) -> [GlobalExecutorFloorLine] {
            GlobalExecutorFloorLine.lines(
                pairs, analysis: ABAnalysis(pairs: pairs, minimumEffect: 0.02, pairing: .sequential))
        }
        let line = try #require(lines(pairs).first)
        #expect(lines(pairs).count == 1 && line.cell.parameters == row && line.floor == floor)
        #expect(line.isSame(line.a) && !line.isSame(line.b) && line.floorVerdict == .same && !line.atFloor)
        #expect(line.markdown(challenger: "nio", champion: "pool").contains("Not at the floor"))
        let level = lines(pairs.map { ($0.baseline, $0.baseline) })
        #expect(level.first?.atFloor == true)
        // Both at their own floor, but one 30 % above the other on the row and on the floor: not at the floor.
        let apart = lines(pairs.map { pair in (pair.baseline, rows(1_430, 1_430)) })
        #expect(apart.first.map { $0.isSame($0.a) && $0.isSame($0.b) && !$0.atFloor } == true)
    }

    static func pipeline(_ consumer: PipelineConsumer) -> Parameters {
        Parameters([.events: 5_000], choices: [.consumer: consumer.rawValue])
    }

    /// A contest after the newest full one, on fewer rows, is listed below the full one's table, not in its place.
    @Test func aLaterContestOnFewerRowsFollowsTheFullOne() throws {
        func contest(_ workloads: [WorkloadID]) -> String {
            let pairs = (0..<16).map { index -> ProcessPair in
                let rows = workloads.map {
                    Fixtures.row(.defaultExecutor, median: 1_000 + Double(index % 3), workload: $0, metric: .nsPerTask)
                }
                return (
                    rows,
                    rows.map { row in
                        Fixtures.row(
                            .defaultExecutor, median: row.summary.median.value * 0.8, workload: row.workload,
                            metric: .nsPerTask)
                    }
                )
            }
            let analysis = ABAnalysis(pairs: pairs, minimumEffect: 0.02, pairing: .sequential)
            return GlobalExecutorContest.csv([(.dispatch, analysis)], champion: .pool)
        }
        let results = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: results) }
        let full = "20261127T000000Z-abcdef0-000001"
        let later = "20261128T000000Z-abcdef0-000002"
        for (name, workloads) in [
            (full, GlobalExecutorContestRequest.defaultWorkloads), (later, [WorkloadID.actorPipeline]),
        ] {
            let folder = results.appendingPathComponent("global-executors/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try contest(workloads).write(
                to: folder.appendingPathComponent("contest.csv"), atomically: true, encoding: .utf8)
        }
        let section = try #require(try GlobalExecutorContestSection.newest(in: results.path))
        #expect(section.folder == "global-executors/\(full)")
        #expect(section.later.map(\.folder) == ["global-executors/\(later)"])
        #expect(section.lines.contains { $0.hasPrefix("Later, a longer look") && $0.contains("W25") })
    }

    @Test func everyChoiceIsAGlobalExecutorTheKitJudges() {
        #expect(GlobalExecutorChoice.all.map(\.id).prefix(2) == ["dispatch", "pool"])
        #expect(GlobalExecutorChoice.withID("nope") == nil)
        let judged = Set(Catalog.globalExecutors.map(\.name))
        for choice in GlobalExecutorChoice.all { #expect(judged.contains(choice.subject.name)) }
    }
}
