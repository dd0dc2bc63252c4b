import Foundation
import SchedulerBench
import ToolSupport

/// The jobs each global executor of a contest is sent per unit of each row (``GlobalJobCount``, one child process per
/// executor, counted before the pairs run so that a failure stops the contest before its minutes start): what shows a
/// row to be out of reach. Where both executors of a pair are sent fewer than ``GlobalJobCount/floor`` jobs a unit,
/// the row's work does not pass either of them, and neither can be ahead but by noise: that pair is *at the floor*.
struct GlobalExecutorJobs: Sendable {
    /// Jobs per unit by executor id, then by row.
    let counts: [String: [GlobalJobCount.Key: Double]]

    /// Counts on each of `choices`, each in a child process started on it.
    static func count(
        on choices: [GlobalExecutorChoice], workloads: [WorkloadID], scale: Scale, launcher: any ChildLauncher,
        executable: String, environment: (GlobalExecutorChoice) -> [String: String]
    ) throws -> GlobalExecutorJobs {
        var counts: [String: [GlobalJobCount.Key: Double]] = [:]
        for choice in choices {
            let output = try ChildProcess.run(
                .countGlobalJobs(workloads: workloads, scale: scale), launcher: launcher, executable: executable,
                environment: environment(choice))
            counts[choice.id] = try GlobalJobCount.parse(output.standardOutput)
        }
        return GlobalExecutorJobs(counts: counts)
    }

    func perUnit(_ executor: String, workload: WorkloadID, parameters: String) -> Double? {
        counts[executor]?[GlobalJobCount.Key(workload: workload, parameters: parameters)]
    }

    /// Whether a pair of `champion` and `challenger` is at the floor on a row (both counted, both below the floor).
    func atFloor(_ champion: String, _ challenger: String, workload: WorkloadID, parameters: String) -> Bool {
        [champion, challenger].allSatisfy {
            (perUnit($0, workload: workload, parameters: parameters) ?? .infinity) < GlobalJobCount.floor
        }
    }

    /// `jobs.csv`: one row per executor and row counted.
    var csv: String {
        let rows = counts.keys.sorted().flatMap { executor in
            counts[executor]!.sorted {
                ($0.key.workload.rawValue, $0.key.parameters) < ($1.key.workload.rawValue, $1.key.parameters)
            }
            .map { [executor, $0.key.workload.rawValue, $0.key.parameters, String($0.value)] }
        }
        return CSV.encode([["global_executor"] + GlobalJobCount.header] + rows)
    }

    /// Reads `jobs.csv` back (`bench report`).
    init(csv text: String, source: String) throws {
        let table = try CSVTable(text: text, source: source, required: ["global_executor"] + GlobalJobCount.header)
        var counts: [String: [GlobalJobCount.Key: Double]] = [:]
        for record in table.records {
            let key = GlobalJobCount.Key(
                workload: WorkloadID(rawValue: try record.text("workload")), parameters: try record.text("parameters"))
            counts[try record.text("global_executor"), default: [:]][key] = try record.number("jobs_per_unit")
        }
        self.counts = counts
    }

    init(counts: [String: [GlobalJobCount.Key: Double]]) { self.counts = counts }

    /// CONTEST.md's table: a row per counted row, a column per executor in `order`.
    func markdown(order: [String]) -> [String] {
        let rows = Set(counts.values.flatMap(\.keys)).sorted {
            ($0.workload.rawValue, $0.parameters) < ($1.workload.rawValue, $1.parameters)
        }
        return [
            "## Jobs through the global executor per unit", "",
            "Counted in one child process per global executor, every job of the process passing the runtime's "
                + "global-enqueue hook (the difference between a run of the row's units and an empty run, per unit). "
                + "Where both executors of a pair are sent fewer than \(GlobalJobCount.floor) a unit, the row's work "
                + "does not pass either of them and neither can be ahead but by noise: the pair's verdict below is "
                + "marked *at the floor*.",
            "",
            "| workload | parameters | " + order.joined(separator: " | ") + " |",
            "|---|---|" + order.map { _ in "--:|" }.joined(),
        ]
            + rows.map { row in
                let figures = order.map { counts[$0]?[row].map(Format.jobs) ?? "-" }
                return "| \(row.workload) | \(row.parameters) | " + figures.joined(separator: " | ") + " |"
            }
    }
}

extension Format {
    /// Jobs per unit: four decimals, so that one job in a few thousand units shows.
    static func jobs(_ value: Double) -> String { String(format: "%.4f", value) }
}
