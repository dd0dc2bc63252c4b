import SchedulerBench

/// One element of JMH's JSON result list (`-rf json`), as JMH Visualizer and Jenkins' JMH plugin read it.
///
/// A cell becomes a benchmark `SchedulerBench.<workload>_<name>.<metric>` with the backend, the allocator and the
/// workload's parameters as JMH params, so that the visualizers group backends side by side. JMH's `score` is a mean
/// with a 99.9 % error; here it is the median of the rounds with its 95 % distribution-free interval
/// (`scoreConfidence`, and half its width as `scoreError`), and `rawData` holds the rounds, one fork.
struct JMHResult: Encodable {
    struct PrimaryMetric: Encodable {
        var score: Double
        var scoreError: Double
        var scoreConfidence: [Double]
        var scorePercentiles: [String: Double]
        var scoreUnit: String
        var rawData: [[Double]]
    }

    var jmhVersion = "n/a (SchedulerBench export)"
    var benchmark: String
    /// `avgt` where lower is better (time per operation), `thrpt` where higher is (JMH's own two directions).
    var mode: String
    var threads = 1
    var forks = 1
    var warmupIterations = 1
    var measurementIterations: Int
    var params: [String: String]
    var primaryMetric: PrimaryMetric
    var secondaryMetrics: [String: PrimaryMetric] = [:]

    init(_ cell: ExportedCell) {
        let row = cell.row
        benchmark =
            "SchedulerBench.\(Self.identifier("\(row.workload)_\(row.workloadName)")).\(Self.identifier(row.metric.name))"
        mode = row.metric.lowerIsBetter ? "avgt" : "thrpt"
        measurementIterations = row.summary.count
        params = ["backend": row.backend.rawValue, "allocator": row.allocator.rawValue]
        for pair in row.parameters.pairs { params[pair.name.rawValue] = pair.value.description }
        let interval = cell.interval ?? .exact(row.summary.median.value)
        primaryMetric = PrimaryMetric(
            score: interval.value, scoreError: (interval.high - interval.low) / 2,
            scoreConfidence: [interval.low, interval.high],
            scorePercentiles: ["0.0": row.summary.min, "50.0": row.summary.median.value, "100.0": row.summary.max],
            scoreUnit: row.metric.unit, rawData: [cell.rounds])
    }

    /// A Java identifier part: `W1_throughput`, `p99_9`, `ns_per_task`.
    static func identifier(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }
}
