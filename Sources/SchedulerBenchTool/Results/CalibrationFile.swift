import Foundation
import SchedulerBench
import SchedulerConformance
import ToolSupport

/// A calibration on disk: `Results/calibration/<scale>-<cpus>-<machine hash>.csv`, one row per calibrated figure,
/// each naming the machine, scale and CPUs it holds for (`Docs/Results.md`).
extension Calibration {
    static let columns = [
        "machine", "scale", "cpus", "commit", "runs", "kind", "allocator", "backend", "workload", "parameters",
        "metric",
        "statistic", "goal", "scale_of_spread", "deviation", "freedom", "noise_bound", "run_margin", "values",
    ]
    /// What a file must hold; the spreads and noise bounds in it are for people, the tools recompute them from `values`.
    static let requiredColumns = [
        "machine", "scale", "cpus", "commit", "runs", "kind", "allocator", "backend",
        "workload", "parameters", "metric", "goal", "values",
    ]

    /// Where the calibration for runs with `metadata` lives under `root`.
    package static func file(for metadata: RunMetadata, root: String) -> URL {
        file(machine: metadata.machine, scale: metadata.scale, cpus: cpuKey(metadata), root: root)
    }

    static func file(machine: String, scale: String, cpus: String, root: String) -> URL {
        // FNV-1a of the fingerprint: a stable, short name (Swift's Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in machine.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let cpuPart = cpus.replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: ",", with: "_")
        return URL(fileURLWithPath: root).appendingPathComponent("calibration")
            .appendingPathComponent("\(scale)-cpus\(cpuPart)-\(String(hash, radix: 16).prefix(8)).csv")
    }

    package var csv: String {
        let common = { [machine, scale, cpus, commit, String(runs)] }
        let entry = { (value: Entry) in
            [
                value.onLogScale ? "log" : "absolute", Format.precise(value.deviation), Format.number(value.freedom),
                Format.number(value.noiseBound), Format.number(value.runMargin),
                value.values.map(Format.precise).joined(separator: " "),
            ]
        }
        let cellRows = cells.sorted { $0.key.description < $1.key.description }.map { key, value in
            common() + [
                "cell", key.allocator.rawValue, key.backend.rawValue, key.workload.rawValue,
                key.parameters.description, key.metric.name, cellFigures[key]?.statistic.rawValue ?? "", "",
            ]
                + entry(value)
        }
        let goalRows = goals.sorted { $0.key.goal < $1.key.goal }.map { key, value in
            common() + ["goal", key.allocator.rawValue, "", "", "", "", "", key.goal.rawValue] + entry(value)
        }
        return CSV.encode([Self.columns] + cellRows + goalRows)
    }

    /// Reads the calibration for runs with `metadata`, if this machine has one.
    package static func load(for metadata: RunMetadata, root: String) throws -> Calibration? {
        let url = file(for: metadata, root: root)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let calibration = try Calibration(contentsOf: url.path)
        return calibration.applies(to: metadata) ? calibration : nil
    }

    /// Reads a calibration file and computes its spreads anew from the figures it keeps.
    init(contentsOf path: String) throws {
        let records = try CSVTable(contentsOf: path, required: Self.requiredColumns).records
        guard let first = records.first else { throw BenchError.input("\(path) is empty; run bench calibrate again") }
        var cells: [CellKey: Figures] = [:]
        var goals: [GoalKey: [Double]] = [:]
        for record in records {
            let values = (record["values"] ?? "").split(separator: " ").compactMap { Double($0) }
            guard let allocator = AllocatorChoice(rawValue: try record.text("allocator")) else {
                throw record.error("allocator is not jemalloc or system")
            }
            if record["kind"] == "goal" {
                goals[GoalKey(goal: GoalID(rawValue: try record.text("goal")), allocator: allocator)] = values
                continue
            }
            guard let parameters = Parameters(parsing: try record.text("parameters")) else {
                throw record.error("parameters are not name=value pairs")
            }
            let backend = BackendID(rawValue: try record.text("backend"))
            let key = CellKey(
                allocator: allocator, backend: backend, workload: WorkloadID(rawValue: try record.text("workload")),
                parameters: parameters, metric: Metric.named(try record.text("metric")))
            // Files written before the column existed: a backend with a reference row is compared by its ratio.
            let statistic =
                record["statistic"].flatMap(ComparedFigure.Statistic.init(rawValue:))
                ?? (Catalog.backend(backend)?.wraps == nil ? .median : .ratioToReference)
            cells[key] = Figures(values: values, statistic: statistic)
        }
        self.init(
            machine: try first.text("machine"), scale: try first.text("scale"), cpus: try first.text("cpus"),
            commit: try first.text("commit"), runs: Int(try first.number("runs")), cellFigures: cells,
            goalFigures: goals)
    }
}
