import Foundation
import SchedulerBench
import ToolSupport

/// The newest `bench global-executors` contest beside the run (`Results/global-executors/<id>/contest.csv`), as
/// REPORT.md shows it: for each workload's timing and allocation, the champion's ratio to each challenger.
struct GlobalExecutorContestSection: Sendable {
    struct Row: Sendable {
        var challenger: String
        var champion: String
        var workload: String
        var parameters: String
        var metric: String
        var a: String
        var b: String
        var ratio: String
        var low: String
        var high: String
        var verdict: String
    }

    let folder: String
    let rows: [Row]
    /// The contest's `jobs.csv`, where it has one (contests before it had none).
    var jobs: GlobalExecutorJobs? = nil
    /// From the contest's `ideals.csv`: per challenger, the rows whose ideal shows them out of reach
    /// (``OutOfReach/ideal``).
    var shownByIdeal: [String: Set<GlobalJobCount.Key>] = [:]

    /// The metrics the report shows: each workload's time per unit, W19's median and 99th percentile (allocations
    /// and the other percentiles are in the contest's own CONTEST.md, which the section links).
    static let shown: Set<String> = ["ns_per_call", "ns_per_task", "ns_per_round_trip", "ns_per_event", "p50", "p99"]

    /// Contests after this one on fewer rows (a longer look at one row), oldest first: shown below its table.
    var later: [GlobalExecutorContestSection] = []

    /// The newest contest under `resultsDirectory/global-executors/` on every default workload (else the newest of
    /// any), with the contests after it; nil if there is none.
    static func newest(in resultsDirectory: String) throws -> GlobalExecutorContestSection? {
        let root = (resultsDirectory as NSString).appendingPathComponent("global-executors")
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { !$0.hasPrefix(".") && FileManager.default.fileExists(atPath: "\(root)/\($0)/contest.csv") }
            .sorted()
        let every = Set(GlobalExecutorContestRequest.defaultWorkloads.map(\.rawValue))
        guard
            let index = try folders.lastIndex(where: { try load(root, $0).coveredWorkloads.isSuperset(of: every) })
                ?? folders.indices.last
        else { return nil }
        var section = try load(root, folders[index])
        section.later = try folders[(index + 1)...].map { try load(root, $0) }
        return section
    }

    var coveredWorkloads: Set<String> { Set(rows.map(\.workload)) }

    /// One contest's files.
    static func load(_ root: String, _ newest: String) throws -> GlobalExecutorContestSection {
        let table = try CSVTable(
            contentsOf: "\(root)/\(newest)/contest.csv",
            required: [
                "a_global_executor", "b_global_executor", "workload", "parameters", "metric", "backend", "a_median",
                "b_median", "ratio", "ratio_low", "ratio_high", "verdict",
            ])
        let rows = try table.records.map { record in
            Row(
                challenger: try record.text("a_global_executor"), champion: try record.text("b_global_executor"),
                workload: try record.text("workload"), parameters: try record.text("parameters"),
                metric: try record.text("metric"), a: try record.text("a_median"), b: try record.text("b_median"),
                ratio: try record.text("ratio"), low: try record.text("ratio_low"), high: try record.text("ratio_high"),
                verdict: try record.text("verdict"))
        }
        let jobsPath = "\(root)/\(newest)/jobs.csv"
        let jobs = try FileManager.default.contents(atPath: jobsPath).map {
            try GlobalExecutorJobs(csv: String(decoding: $0, as: UTF8.self), source: jobsPath)
        }
        return GlobalExecutorContestSection(
            folder: "global-executors/\(newest)", rows: rows, jobs: jobs,
            shownByIdeal: try shownByIdeal(in: "\(root)/\(newest)"))
    }

    /// The rows of a contest's folder whose ideal shows them out of reach, per challenger: from `ideals.csv`'s
    /// `out_of_reach` column, or from the same file under the name the contests of older builds gave it
    /// (`floors.csv`, column `at_floor`); none where the contest has neither.
    static func shownByIdeal(in folder: String) throws -> [String: Set<GlobalJobCount.Key>] {
        let files = [("ideals.csv", OutOfReach.column), ("floors.csv", "at_floor")]
        guard let (file, column) = files.first(where: { FileManager.default.fileExists(atPath: "\(folder)/\($0.0)") })
        else { return [:] }
        // Only the columns read: contests of earlier builds wrote fewer of the others.
        let table = try CSVTable(
            contentsOf: "\(folder)/\(file)", required: ["a_global_executor", "workload", "parameters", column])
        var shown: [String: Set<GlobalJobCount.Key>] = [:]
        for record in table.records where try record.text(column) == "true" {
            shown[try record.text("a_global_executor"), default: []].insert(try GlobalJobCount.Key(record))
        }
        return shown
    }

    /// The section's lines: one row per cell shown, one column per challenger.
    var lines: [String] {
        let challengers = rows.map(\.challenger).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        guard let champion = rows.first?.champion else { return [] }
        var cells: [String: [String: Row]] = [:]
        var order: [String] = []
        for row in rows where Self.shown.contains(row.metric) {
            let key = "| \(row.workload) | \(row.parameters) | \(row.metric) |"
            if cells[key] == nil { order.append(key) }
            cells[key, default: [:]][row.challenger] = row
        }
        var lines = [
            "## The global executor: \(champion) against \(challengers.joined(separator: " and "))",
            "",
            "From [`\(folder)`](\(folder)/CONTEST.md) (`bench global-executors`): processes on each global executor, "
                + "paired; each cell is \(champion)'s figure over the challenger's in the same pair, with its 99 % "
                + "confidence sequence (below 1: \(champion) is faster). Default actors and tasks with no preference "
                + "(`default-executor`), `Task.sleep` (`continuous-clock`)."
                + (jobs == nil
                    ? ""
                    : " The last column is the jobs each global executor was sent per unit while the row was timed "
                        + "(\(champion) first), with the tasks other than the timed one in brackets. "
                        + OutOfReach.definition + " A cell says where its row is out of reach, and by what."),
            "",
            "| workload | parameters | metric | "
                + challengers.map { "\(champion) / \($0)" }.joined(separator: " | ")
                + (jobs == nil ? "" : " | jobs a unit") + " |",
            "|---|---|---|" + challengers.map { _ in "--:|" }.joined() + (jobs == nil ? "" : "--:|"),
        ]
        for key in order {
            let figures = challengers.map { challenger -> String in
                cells[key]?[challenger].map { cell($0, champion: champion) } ?? ""
            }
            lines.append(
                key + " "
                    + (figures + jobColumn(key: key, cells: cells, champion, challengers)).joined(separator: " | ")
                    + " |")
        }
        for contest in later {
            let shown = contest.rows.filter { Self.shown.contains($0.metric) }
            guard let champion = shown.first?.champion else { continue }
            lines += [
                "",
                "Later, a longer look at fewer rows, [`\(contest.folder)`](\(contest.folder)/CONTEST.md): "
                    + shown.map {
                        "\($0.workload) \($0.parameters) \(champion) / \($0.challenger) "
                            + contest.cell($0, champion: champion)
                    }.joined(separator: "; ") + ".",
            ]
        }
        return lines
    }

    /// A cell as the table shows it: the ratio, its interval, the verdict and where its row is out of reach.
    func cell(_ row: Row, champion: String) -> String {
        let interval = row.low.isEmpty || row.low == row.high ? "" : " (\(row.low)–\(row.high))"
        let mark = row.verdict == "faster" || row.verdict == "slower" ? " **\(row.verdict)**" : " \(row.verdict)"
        let reach = OutOfReach.of(
            GlobalJobCount.Key(workload: WorkloadID(rawValue: row.workload), parameters: row.parameters),
            champion: champion, challenger: row.challenger, jobs: jobs, ideals: shownByIdeal[row.challenger] ?? [])
        return "\(row.ratio)x\(interval)\(mark)\(OutOfReach.mark(reach, emphasis: true))"
    }

    /// The jobs a unit on each executor of a row (the champion first), or nothing where the contest counted none.
    private func jobColumn(
        key: String, cells: [String: [String: Row]], _ champion: String, _ challengers: [String]
    ) -> [String] {
        guard let jobs else { return [] }
        guard let row = cells[key]?.values.first else { return [""] }
        let counts = ([champion] + challengers).map {
            jobs.count($0, workload: WorkloadID(rawValue: row.workload), parameters: row.parameters)
        }
        guard counts.contains(where: { $0 != nil }) else { return ["-"] }
        return [counts.map { $0.map(Format.jobs) ?? "-" }.joined(separator: " / ")]
    }
}
