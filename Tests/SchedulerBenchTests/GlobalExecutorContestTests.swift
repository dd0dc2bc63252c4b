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

    /// A pair where the timed task was alone and sent next to no job on both sides is out of reach by its job count;
    /// one where either side's jobs belonged to another task too (a single job in 5 000 units) is not; the counts
    /// round-trip through `jobs.csv`.
    @Test func aPairSentNoJobsIsOutOfReachByItsJobCount() throws {
        let row = GlobalJobCount.Key(workload: .actorPipeline, parameters: "events=5000")
        let alone = GlobalJobCount.Count(jobsPerUnit: 0.0002, otherTasks: 0)
        let beside = GlobalJobCount.Count(jobsPerUnit: 0.0002, otherTasks: 1)
        let jobs = GlobalExecutorJobs(counts: ["pool": [row: alone], "dispatch": [row: beside], "nio": [row: alone]])
        let read = try GlobalExecutorJobs(csv: jobs.csv, source: "jobs.csv")
        #expect(read.count("dispatch", workload: row.workload, parameters: row.parameters) == beside)
        func reach(_ challenger: String, _ key: GlobalJobCount.Key) -> OutOfReach? {
            OutOfReach.of(key, champion: "pool", challenger: challenger, jobs: read, ideals: [])
        }
        #expect(reach("nio", row) == .jobCount)
        #expect(reach("dispatch", row) == nil)
        #expect(reach("nio", GlobalJobCount.Key(workload: row.workload, parameters: "events=64")) == nil)
        #expect(OutOfReach.of(row, champion: "pool", challenger: "dispatch", jobs: read, ideals: [row]) == .ideal)

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
        let aloneJobs = GlobalExecutorJobs(counts: ["pool": [key: alone], "dispatch": [key: alone]])
        try aloneJobs.csv.write(to: folder.appendingPathComponent("jobs.csv"), atomically: true, encoding: .utf8)
        let marked = try #require(try GlobalExecutorContestSection.newest(in: results.path))
        #expect(marked.lines.contains { $0.contains("| jobs a unit |") })
        #expect(
            marked.lines.contains {
                $0.contains("*out of reach* (job count)") && $0.contains("0.0002 (0) / 0.0002 (0)")
            })
        // CONTEST.md marks the same cell the same way: one definition for both pages.
        let page = GlobalExecutorContest.markdown(
            [(.dispatch, Self.analysis)], champion: .pool, jobs: aloneJobs, command: "bench", commit: "c", machine: "m")
        #expect(page.contains("faster, out of reach (job count) |"))
    }

    /// The report reads which rows their ideal shows out of reach from `ideals.csv`, and from the `floors.csv` of the
    /// contests of older builds (column `at_floor`), as the committed contests in `Results/` are.
    @Test func theReportReadsIdealsUnderEitherName() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try GlobalExecutorContestSection.shownByIdeal(in: folder.path).isEmpty)
        let old = "a_global_executor,workload,parameters,at_floor\nnio,W25,consumer=before events=5000,true\n"
        try old.write(to: folder.appendingPathComponent("floors.csv"), atomically: true, encoding: .utf8)
        let row = GlobalJobCount.Key(workload: .actorPipeline, parameters: "consumer=before events=5000")
        #expect(try GlobalExecutorContestSection.shownByIdeal(in: folder.path) == ["nio": [row]])
        let new = "a_global_executor,workload,parameters,out_of_reach\ndispatch,W25,consumer=before events=5000,true\n"
        try new.write(to: folder.appendingPathComponent("ideals.csv"), atomically: true, encoding: .utf8)
        #expect(try GlobalExecutorContestSection.shownByIdeal(in: folder.path) == ["dispatch": [row]])
    }

    /// W25 with its consumer started before the burst against its ideal (`consumer=after`), each side in its own
    /// processes: a side whose row equals its ideal, pair after pair, is the same as it; one 30 % above it is not;
    /// and the ideal shows the row out of reach only where the two sides are the same too, on the row or the ideal.
    @Test func aRowIsComparedWithItsIdealSideBySide() throws {
        let (row, ideal) = (Self.pipeline(.before), Self.pipeline(.after))
        #expect(Workload.actorPipeline.ideal(row) == ideal)
        #expect(Workload.actorPipeline.ideal(ideal) == nil)
        func rows(_ task: Double, _ inline: Double) -> [SummaryRow] {
            [
                Fixtures.row(
                    .defaultExecutor, median: task, workload: .actorPipeline, metric: .nsPerEvent, parameters: row),
                Fixtures.row(
                    .defaultExecutor, median: inline, workload: .actorPipeline, metric: .nsPerEvent, parameters: ideal),
            ]
        }
        let pairs = (0..<16).map { index -> ProcessPair in
            let wobble = 1 + Double(index % 3) * 0.001
            return (rows(1_100 * wobble, 1_100), rows(1_430 * wobble, 1_100))
        }
        func lines(_ pairs: [ProcessPair]) -> [GlobalExecutorIdealLine] {
            GlobalExecutorIdealLine.lines(
                pairs, analysis: ABAnalysis(pairs: pairs, minimumEffect: 0.02, pairing: .sequential))
        }
        let line = try #require(lines(pairs).first)
        #expect(lines(pairs).count == 1 && line.cell.parameters == row && line.ideal == ideal)
        #expect(line.isSame(line.a) && !line.isSame(line.b) && line.idealVerdict == .same && !line.showsOutOfReach)
        #expect(line.markdown(challenger: "nio", champion: "pool").contains("Not shown out of reach by its ideal"))
        let level = lines(pairs.map { ($0.baseline, $0.baseline) })
        #expect(level.first?.showsOutOfReach == true)
        // Both the same as their own ideal, but one 30 % above the other on the row and on the ideal: not shown.
        let apart = lines(pairs.map { pair in (pair.baseline, rows(1_430, 1_430)) })
        #expect(apart.first.map { $0.isSame($0.a) && $0.isSame($0.b) && !$0.showsOutOfReach } == true)
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
