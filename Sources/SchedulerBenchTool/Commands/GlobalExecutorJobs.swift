import Foundation
import SchedulerBench
import ToolSupport

/// The jobs each global executor of a contest is sent per unit of each row (``GlobalJobCount``, one child process per
/// executor, counted before the pairs run so that a failure stops the contest before its minutes start): what shows a
/// row to be out of reach by its job count (``OutOfReach/jobCount``).
struct GlobalExecutorJobs: Sendable {
    /// What each executor was sent, by executor id, then by row.
    let counts: [String: [GlobalJobCount.Key: GlobalJobCount.Count]]

    /// Counts on each of `choices`, each in a child process started on it.
    static func count(
        on choices: [GlobalExecutorChoice], workloads: [WorkloadID], scale: Scale, launcher: any ChildLauncher,
        executable: String, environment: (GlobalExecutorChoice) -> [String: String]
    ) throws -> GlobalExecutorJobs {
        var counts: [String: [GlobalJobCount.Key: GlobalJobCount.Count]] = [:]
        for choice in choices {
            let output = try ChildProcess.run(
                .countGlobalJobs(workloads: workloads, scale: scale), launcher: launcher, executable: executable,
                environment: environment(choice))
            counts[choice.id] = try GlobalJobCount.parse(output.standardOutput)
        }
        return GlobalExecutorJobs(counts: counts)
    }

    func count(_ executor: String, workload: WorkloadID, parameters: String) -> GlobalJobCount.Count? {
        counts[executor]?[GlobalJobCount.Key(workload: workload, parameters: parameters)]
    }

    /// `jobs.csv`: one row per executor and row counted.
    var csv: String {
        let rows = counts.keys.sorted().flatMap { executor in
            counts[executor]!.sorted {
                ($0.key.workload.rawValue, $0.key.parameters) < ($1.key.workload.rawValue, $1.key.parameters)
            }
            .map {
                [
                    executor, $0.key.workload.rawValue, $0.key.parameters, String($0.value.jobsPerUnit),
                    String($0.value.otherTasks),
                ]
            }
        }
        return CSV.encode([["global_executor"] + GlobalJobCount.header] + rows)
    }

    /// Reads `jobs.csv` back (`bench report`).
    init(csv text: String, source: String) throws {
        let table = try CSVTable(text: text, source: source, required: ["global_executor"] + GlobalJobCount.header)
        var counts: [String: [GlobalJobCount.Key: GlobalJobCount.Count]] = [:]
        for record in table.records {
            counts[try record.text("global_executor"), default: [:]][try GlobalJobCount.Key(record)] =
                try GlobalJobCount.Count(record)
        }
        self.counts = counts
    }

    init(counts: [String: [GlobalJobCount.Key: GlobalJobCount.Count]]) { self.counts = counts }

    /// CONTEST.md's table: a row per counted row, a column per executor in `order`.
    func markdown(order: [String]) -> [String] {
        let rows = Set(counts.values.flatMap(\.keys)).sorted {
            ($0.workload.rawValue, $0.parameters) < ($1.workload.rawValue, $1.parameters)
        }
        return [
            "## Jobs through the global executor per unit", "",
            "Counted in one child process per global executor, every job of the process passing the runtime's "
                + "global-enqueue hook, read from inside the timed task just before and after one timed run of the "
                + "row's units: jobs per unit, and in brackets the tasks other than the timed one they belonged to. "
                + OutOfReach.definition + " Each verdict below says where its row is out of reach, and by what.",
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
    /// Jobs per unit, four decimals (so that one job in a few thousand units shows), and the other tasks.
    static func jobs(_ count: GlobalJobCount.Count) -> String {
        String(format: "%.4f", count.jobsPerUnit) + " (\(count.otherTasks))"
    }
}
