import SchedulerBench
import ToolSupport

/// One entry of github-action-benchmark's custom tools (`customSmallerIsBetter`, `customBiggerIsBetter`):
/// `name`, `unit` and `value` are required; `range` and `extra` are shown beside the value as text.
struct GitHubActionBenchmarkEntry: Encodable, Equatable {
    var name: String
    var unit: String
    var value: Double
    /// The median's 95 % interval, as text (the tool draws no interval); absent for exact counts.
    var range: String?
    var extra: String

    init(_ cell: ExportedCell) {
        name = "\(cell.benchmark) · \(cell.row.metric.name)"
        unit = cell.row.metric.unit
        value = cell.row.summary.median.value
        range = cell.interval.map { "95 % interval \(Format.number($0.low))–\(Format.number($0.high))" }
        extra = cell.provenance
    }
}
