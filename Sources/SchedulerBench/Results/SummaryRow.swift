import Foundation
import SchedulerConformance
import ToolSupport

/// One row of `summary.csv`: one (allocator, backend, workload, parameters, metric) cell of one run
/// (`Docs/Results.md` describes every column).
public struct SummaryRow: Sendable, Equatable {
    public var metadata: RunMetadata
    public var allocator: AllocatorChoice
    public var backend: BackendID
    /// The reference row this backend is compared to (nil for references and virtual time).
    public var reference: BackendID?
    public var workload: WorkloadID
    public var workloadName: String
    public var parameters: Parameters
    public var metric: Metric
    public var summary: SampleSummary
    /// Citable as it is: an exact count (the same on every run of the build, however few rounds counted it), or a
    /// measurement with enough rounds whose interval is narrow enough (within ``Statistics/trustedSpread`` of its
    /// median).
    public var isTrusted: Bool { metric.isExactCount || !summary.isTooNoisy }
    /// Percentiles of all rounds' latency samples merged (latency workloads only).
    var percentiles: [Metric: Double] = [:]
    /// Median of the per-round ratios to the reference row, with its interval.
    public var ratioToReference: Estimate?
    /// The scheduler backend with the best median in this cell, and the paired ratio to it.
    var fastest: BackendID?
    public var ratioToFastest: Estimate?
    /// Medians per round of how long a round took, how often it repeated the workload, and what the kernel's
    /// scheduler did meanwhile (nil where not measured, e.g. counted rows).
    public var roundMilliseconds: Double?
    var repetitions: Double?
    public var contextSwitches: Double?
    public var migrations: Double?

    init(
        metadata: RunMetadata, allocator: AllocatorChoice, backend: BackendID, reference: BackendID?,
        workload: WorkloadID, workloadName: String, parameters: Parameters, metric: Metric,
        summary: SampleSummary
    ) {
        self.metadata = metadata
        self.allocator = allocator
        self.backend = backend
        self.reference = reference
        self.workload = workload
        self.workloadName = workloadName
        self.parameters = parameters
        self.metric = metric
        self.summary = summary
    }

    /// The percentile columns: each percentile metric's name, but `p_max` for the maximum (a column named `max` is
    /// the rounds' maximum).
    static let percentileColumns: [(column: String, metric: Metric)] = Metric.latencyPercentiles.map { entry in
        (entry.metric == .maxLatency ? "p_max" : entry.metric.name, entry.metric)
    }

    /// The columns, in CSV order, each with what it writes: the run's metadata, the cell, the summary of its rounds,
    /// the percentiles, the paired ratios, what the rounds looked like.
    static let schema: [CSVColumn<SummaryRow>] = {
        var columns: [CSVColumn<SummaryRow>] = RunMetadata.schema.map { $0.lifted(\SummaryRow.metadata) }
        columns += cell
        columns += percentileColumns.map { column, metric in
            CSVColumn(column) { Format.optionalNumber($0.percentiles[metric]) }
        }
        columns += estimateColumns("ratio_to_reference", \SummaryRow.ratioToReference)
        columns.append(CSVColumn("fastest") { $0.fastest?.rawValue ?? "" })
        columns += estimateColumns("ratio_to_fastest", \SummaryRow.ratioToFastest)
        columns += rounds
        return columns
    }()

    /// The cell and the summary of its rounds.
    static let cell: [CSVColumn<SummaryRow>] = [
        CSVColumn("allocator") { $0.allocator.rawValue }, CSVColumn("backend") { $0.backend.rawValue },
        CSVColumn("reference") { $0.reference?.rawValue ?? "" }, CSVColumn("workload") { $0.workload.rawValue },
        CSVColumn("workload_name") { $0.workloadName }, CSVColumn("parameters") { $0.parameters.description },
        CSVColumn("metric") { $0.metric.name }, CSVColumn("unit") { $0.metric.unit },
        CSVColumn("better") { $0.metric.lowerIsBetter ? "lower" : "higher" },
        CSVColumn("kind") { $0.metric.isExactCount ? "exact" : "measured" },
        CSVColumn("samples") { String($0.summary.count) },
        CSVColumn("median") { Format.number($0.summary.median.value) },
        CSVColumn("min") { Format.number($0.summary.min) }, CSVColumn("max") { Format.number($0.summary.max) },
        CSVColumn("ci_low") { Format.number($0.summary.median.low) },
        CSVColumn("ci_high") { Format.number($0.summary.median.high) },
        CSVColumn("spread_pct") { Format.number(($0.summary.median.relativeWidth * 1000).rounded() / 10) },
        CSVColumn("trusted") { $0.isTrusted ? "yes" : "no" },
        CSVColumn("mode_low") { Format.optionalNumber($0.twoModes.first?.value) },
        CSVColumn("mode_low_share") { Format.optionalNumber($0.twoModes.first?.share) },
        CSVColumn("mode_high") { Format.optionalNumber($0.twoModes.last?.value) },
        CSVColumn("mode_high_share") { Format.optionalNumber($0.twoModes.last?.share) },
    ]

    /// What the rounds looked like.
    static let rounds: [CSVColumn<SummaryRow>] = [
        CSVColumn("round_ms") { Format.optionalNumber($0.roundMilliseconds) },
        CSVColumn("repetitions") { Format.optionalNumber($0.repetitions) },
        CSVColumn("context_switches") { Format.optionalNumber($0.contextSwitches) },
        CSVColumn("cpu_migrations") { Format.optionalNumber($0.migrations) },
    ]

    /// A ratio and its interval: `name`, `name_low`, `name_high`.
    static func estimateColumns(_ name: String, _ field: any KeyPath<SummaryRow, Estimate?> & Sendable)
        -> [CSVColumn<SummaryRow>]
    {
        [
            CSVColumn(name) { Format.optionalNumber($0[keyPath: field]?.value) },
            CSVColumn(name + "_low") { Format.optionalNumber($0[keyPath: field]?.low) },
            CSVColumn(name + "_high") { Format.optionalNumber($0[keyPath: field]?.high) },
        ]
    }

    public static var columns: [String] { schema.names() }
    public var fields: [String] { Self.schema.fields(of: self) }

    /// The two modes when the rounds fall into two, else none.
    var twoModes: [SampleSummary.Mode] { summary.modes.count == 2 ? summary.modes : [] }

    /// Reads a record of `summary.csv`; throws naming the first required field that is not what it should be.
    /// Columns an older run did not write are read as absent.
    init(record: CSVRecord) throws {
        let summary = SampleSummary(
            count: Int(try record.number("samples")),
            median: Estimate(
                value: try record.number("median"), low: try record.number("ci_low"),
                high: try record.number("ci_high")),
            min: try record.number("min"), max: try record.number("max"),
            modes: [("mode_low", "mode_low_share"), ("mode_high", "mode_high_share")].compactMap { value, share in
                record.optionalNumber(value).map { (value: $0, share: record.optionalNumber(share) ?? 0) }
            })
        guard let allocator = AllocatorChoice(rawValue: try record.text("allocator")), allocator != .both else {
            throw record.error("allocator is \"\(record["allocator"] ?? "")\", not jemalloc or system")
        }
        guard let parameters = Parameters(parsing: try record.text("parameters")) else {
            throw record.error("parameters \"\(record["parameters"] ?? "")\" are not name=value pairs")
        }
        let reference = record["reference"].flatMap { $0.isEmpty ? nil : BackendID(rawValue: $0) }
        self.init(
            metadata: RunMetadata(fields: record.fields), allocator: allocator,
            backend: BackendID(rawValue: try record.text("backend")), reference: reference,
            workload: WorkloadID(rawValue: try record.text("workload")),
            workloadName: record["workload_name"] ?? "", parameters: parameters,
            metric: Metric.named(
                try record.text("metric"), unit: record["unit"] ?? "",
                lowerIsBetter: record["better"] != "higher"),
            summary: summary)
        for (column, metric) in Self.percentileColumns { percentiles[metric] = record.optionalNumber(column) }
        ratioToReference = record.estimate("ratio_to_reference")
        fastest = record["fastest"].flatMap { $0.isEmpty ? nil : BackendID(rawValue: $0) }
        ratioToFastest = record.estimate("ratio_to_fastest")
        roundMilliseconds = record.optionalNumber("round_ms")
        repetitions = record.optionalNumber("repetitions")
        contextSwitches = record.optionalNumber("context_switches")
        migrations = record.optionalNumber("cpu_migrations")
    }

    static let requiredColumns = [
        "allocator", "backend", "workload", "parameters", "metric", "samples", "median", "min", "max", "ci_low",
        "ci_high",
    ]

    /// Reads a whole `summary.csv`.
    public static func read(_ path: String) throws -> [SummaryRow] {
        try CSVTable(contentsOf: path, required: requiredColumns).records.map(SummaryRow.init(record:))
    }
}

extension CSVRecord {
    /// A ratio column with its `_low` and `_high` columns; a ratio written without an interval (an older run)
    /// reads as absent, since it cannot be judged.
    func estimate(_ column: String) -> Estimate? {
        guard let value = optionalNumber(column), let low = optionalNumber(column + "_low"),
            let high = optionalNumber(column + "_high")
        else { return nil }
        return Estimate(value: value, low: low, high: high)
    }
}
