import Foundation
import SchedulerBench
import SchedulerConformance
import ToolSupport

/// One deterministic cost of a backend: instructions per task on a path (no workload), or exact allocations or
/// bytes per unit of work of a workload configuration.
package struct CostCell: Sendable, Hashable, CustomStringConvertible {
    package var backend: BackendID
    package var workload: WorkloadID?
    package var parameters: Parameters
    package var metric: Metric

    package init(backend: BackendID, workload: WorkloadID?, parameters: Parameters = Parameters([:]), metric: Metric) {
        self.backend = backend
        self.workload = workload
        self.parameters = parameters
        self.metric = metric
    }

    package var description: String {
        [backend.rawValue, workload?.rawValue, parameters.pairs.isEmpty ? nil : parameters.description, metric.name]
            .compactMap { $0 }.joined(separator: " ")
    }
}

/// The limits `bench check` holds the deterministic costs to, committed per toolchain and architecture (as SwiftNIO
/// keeps its allocation limits): `Benchmarks/thresholds/swift-<major.minor>-<arch>.csv`, and `…-portable.csv` for a
/// portable bench (``ThisBuild/isPortable``). A cost above its limit
/// (beyond the tolerance) is a regression; updating the limits is `bench check --update`, whose diff is reviewed.
package struct Thresholds: Sendable {
    package var limits: [CostCell: Double]

    package init(limits: [CostCell: Double]) { self.limits = limits }

    /// How much a cost may exceed its limit before it counts: the metric's own count tolerance at the limit.
    static func allowance(_ cell: CostCell, limit: Double) -> Double { cell.metric.countTolerance(around: limit) }

    package struct Line: Sendable {
        package enum Verdict: String, Sendable {
            case within = "ok"
            case regressed = "REGRESSED"
            case improved = "improved (lower the limit with --update)"
            case unlimited = "no limit (add it with --update)"
        }

        package let cell: CostCell
        package let measured: Double
        package let limit: Double?
        package let verdict: Verdict
    }

    /// Each measured cost against its limit.
    package func check(_ costs: [CostCell: Double]) -> [Line] {
        costs.sorted { $0.key.description < $1.key.description }.map { cell, measured in
            guard let limit = limits[cell] else {
                return Line(cell: cell, measured: measured, limit: nil, verdict: .unlimited)
            }
            let allowance = Self.allowance(cell, limit: limit)
            let verdict: Line.Verdict =
                measured > limit + allowance ? .regressed : (measured < limit - allowance ? .improved : .within)
            return Line(cell: cell, measured: measured, limit: limit, verdict: verdict)
        }
    }

    // MARK: The file

    static let columns = ["backend", "workload", "parameters", "metric", "unit", "limit"]

    /// The thresholds file of this toolchain and architecture, under `folder`.
    package static func file(in folder: String) -> URL {
        var names = utsname()
        uname(&names)
        let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return URL(fileURLWithPath: folder).appendingPathComponent(
            "swift-\(ThisBuild.swiftVersion)-\(machine)\(ThisBuild.isPortable ? "-portable" : "").csv")
    }

    package var csv: String {
        let rows = limits.sorted { $0.key.description < $1.key.description }.map { cell, limit in
            [
                cell.backend.rawValue, cell.workload?.rawValue ?? "", cell.parameters.description, cell.metric.name,
                cell.metric.unit, Format.number(limit),
            ]
        }
        return CSV.encode([Self.columns] + rows)
    }

    package init(contentsOf path: String) throws {
        var limits: [CostCell: Double] = [:]
        for record in try CSVTable(contentsOf: path, required: Self.columns).records {
            guard let parameters = Parameters(parsing: try record.text("parameters")) else {
                throw record.error("parameters are not name=value pairs")
            }
            let workload = try record.text("workload")
            let cell = CostCell(
                backend: BackendID(rawValue: try record.text("backend")),
                workload: workload.isEmpty ? nil : WorkloadID(rawValue: workload), parameters: parameters,
                metric: Metric.named(try record.text("metric"), unit: record["unit"] ?? ""))
            limits[cell] = try record.number("limit")
        }
        self.init(limits: limits)
    }

    /// Limits set to the measured costs: instructions rounded up, counts to two decimals.
    package static func measured(_ costs: [CostCell: Double]) -> Thresholds {
        Thresholds(
            limits: costs.mapValues { value in
                // Instruction counts are in the hundreds or thousands: whole instructions. Counts per task are small
                // averages: two decimals keep 1.0002 allocations from reading as a limit of 1.0002.
                value >= 100 ? value.rounded(.up) : (value * 100).rounded() / 100
            })
    }
}
