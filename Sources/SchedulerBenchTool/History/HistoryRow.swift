import SchedulerBench
import SchedulerConformance
import ToolSupport

/// One cell of one run in the history (`Results/history/`, ``HistoryFolder``): what a run said of a cell.
///
/// The figure is the one `bench compare` compares (``ComparedFigure``): a measured cell's paired ratio to its run's
/// reference row where it has one, else its median, with its 95 % interval; an exact count as counted.
package struct HistoryRow: Sendable, Equatable {
    package var runID = ""
    package var timestamp = ""
    package var commit = ""
    package var machine = ""
    package var scale = ""
    package var cpus = ""
    package var pinned = false
    package var allocator = ""
    package var backend = ""
    package var workload = ""
    package var parameters = ""
    package var metric = ""
    /// `exact` (a count) or `measured`.
    package var kind = ""
    /// `ratio_to_reference` or `median`.
    package var statistic = ""
    package var value = 0.0
    /// The figure's 95 % interval within its run (an exact count's is the count itself).
    package var low = 0.0
    package var high = 0.0

    package init() {}

    /// A summary row as history keeps it.
    package init(_ row: SummaryRow) {
        let metadata = row.metadata
        (runID, timestamp, commit, machine) = (metadata.runID, metadata.timestamp, metadata.gitCommit, metadata.machine)
        (scale, cpus, pinned) = (metadata.scale, metadata.cpus, metadata.pinned)
        (allocator, backend, workload) = (row.allocator.rawValue, row.backend.rawValue, row.workload.rawValue)
        (parameters, metric) = (row.parameters.description, row.metric.name)
        kind = Metric.named(row.metric.name).isExactCount ? "exact" : "measured"
        let figure = ComparedFigure(row)
        statistic = figure.statistic.rawValue
        value = figure.value
        let interval = isExact ? nil : figure.estimate
        (low, high) = (interval?.low ?? value, interval?.high ?? value)
    }

    /// The cell as one text: `W12 tasks=2000 caller=global · threadpool [jemalloc]`.
    package var cell: String { "\(workload) \(parameters) · \(backend) [\(allocator)]" }

    package var isExact: Bool { kind == "exact" }

    /// The cell as the tools key it (to find its calibrated noise bound); nil for a row that does not parse.
    var key: CellKey? {
        guard let allocator = AllocatorChoice(rawValue: allocator), let parameters = Parameters(parsing: parameters)
        else { return nil }
        return CellKey(
            allocator: allocator, backend: BackendID(rawValue: backend), workload: WorkloadID(rawValue: workload),
            parameters: parameters, metric: Metric.named(metric))
    }

    /// The run's metadata as far as a calibration needs it (machine, scale, CPUs).
    var calibrationMetadata: RunMetadata {
        var metadata = RunMetadata(fields: [:])
        (metadata.machine, metadata.scale, metadata.cpus, metadata.pinned) = (machine, scale, cpus, pinned)
        return metadata
    }

    static let schema: [CSVColumn<HistoryRow>] = [
        .text("run_id", \.runID), .text("timestamp", \.timestamp), .text("git_commit", \.commit),
        .text("machine", \.machine), .text("scale", \.scale), .text("cpus", \.cpus), .flag("pinned", \.pinned),
        .text("allocator", \.allocator), .text("backend", \.backend), .text("workload", \.workload),
        .text("parameters", \.parameters), .text("metric", \.metric), .text("kind", \.kind),
        .text("statistic", \.statistic), .number("value", \.value), .number("low", \.low), .number("high", \.high),
    ]
}
