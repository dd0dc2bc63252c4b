/// One row of `summary.csv`: one (allocator, backend, workload, parameters, metric) cell of one run.
public struct SummaryRow: Sendable, Equatable {
    public var metadata: RunMetadata
    public var allocator: String
    public var backend: String
    /// The reference row this backend is compared to ("" for references and virtual time).
    public var reference: String
    public var workload: String
    public var workloadName: String
    public var parameters: String
    public var metric: String
    public var unit: String
    public var lowerIsBetter: Bool
    public var summary: SampleSummary
    /// From all rounds' latency samples merged (latency workloads only).
    public var percentiles: [String: Double]
    /// median / the reference row's median (nil when there is no reference row).
    public var ratioToReference: Double?
    /// median / the best median among the scheduler backends of the same cell (lower-is-better: ≥ 1 means slower).
    public var ratioToFastest: Double?

    public static let percentileColumns = ["p50", "p90", "p99", "p99.9", "p_max"]

    public static let columns = RunMetadata.columns + [
        "allocator", "backend", "reference", "workload", "workload_name", "parameters", "metric", "unit", "better",
        "samples", "median", "min", "max", "ci_low", "ci_high", "spread_pct", "trusted",
    ] + percentileColumns + ["ratio_to_reference", "ratio_to_fastest"]

    /// The identity of a cell across runs, for `compare`.
    public var key: String { [allocator, backend, workload, parameters, metric].joined(separator: "|") }

    public var fields: [String] {
        metadata.fields + [
            allocator, backend, reference, workload, workloadName, parameters, metric, unit, lowerIsBetter ? "lower" : "higher",
            String(summary.count), Format.number(summary.median), Format.number(summary.min), Format.number(summary.max),
            Format.number(summary.intervalLow), Format.number(summary.intervalHigh),
            Format.number((summary.relativeSpread * 1000).rounded() / 10), summary.isTooNoisy ? "no" : "yes",
        ] + Self.percentileColumns.map { percentiles[$0].map(Format.number) ?? "" }
          + [ratioToReference.map(Format.number) ?? "", ratioToFastest.map(Format.number) ?? ""]
    }

    public init(metadata: RunMetadata, allocator: String, backend: String, reference: String, workload: String,
                workloadName: String, parameters: String, metric: String, unit: String, lowerIsBetter: Bool,
                summary: SampleSummary, percentiles: [String: Double] = [:]) {
        self.metadata = metadata
        self.allocator = allocator
        self.backend = backend
        self.reference = reference
        self.workload = workload
        self.workloadName = workloadName
        self.parameters = parameters
        self.metric = metric
        self.unit = unit
        self.lowerIsBetter = lowerIsBetter
        self.summary = summary
        self.percentiles = percentiles
    }

    /// Reads a record of `summary.csv`; throws naming the first field that is not a number.
    public init(record: [String: String], row: Int) throws {
        func number(_ column: String) throws -> Double {
            guard let text = record[column], let value = Double(text) else {
                throw CSV.ParseError(description: "record \(row): \(column) is \"\(record[column] ?? "")\", not a number")
            }
            return value
        }
        func optional(_ column: String) -> Double? { record[column].flatMap(Double.init) }
        self.init(
            metadata: RunMetadata(fields: record), allocator: record["allocator"] ?? "", backend: record["backend"] ?? "",
            reference: record["reference"] ?? "", workload: record["workload"] ?? "",
            workloadName: record["workload_name"] ?? "", parameters: record["parameters"] ?? "",
            metric: record["metric"] ?? "", unit: record["unit"] ?? "", lowerIsBetter: record["better"] != "higher",
            summary: SampleSummary(
                count: Int(try number("samples")), median: try number("median"), min: try number("min"),
                max: try number("max"), intervalLow: try number("ci_low"), intervalHigh: try number("ci_high")
            )
        )
        for column in Self.percentileColumns { percentiles[column] = optional(column) }
        ratioToReference = optional("ratio_to_reference")
        ratioToFastest = optional("ratio_to_fastest")
    }

    /// Reads a whole `summary.csv`.
    public static func read(_ path: String) throws -> [SummaryRow] {
        let table = try CSVTable(contentsOf: path, required: ["allocator", "backend", "workload", "parameters", "metric",
                                                              "samples", "median", "min", "max", "ci_low", "ci_high"])
        return try table.records.enumerated().map { index, record in
            do { return try SummaryRow(record: record, row: index + 2) } catch {
                throw CSV.ParseError(description: "\(path): \(error)")
            }
        }
    }
}

/// One row of `samples.csv`: one round's value of one metric.
public struct SampleRow: Sendable, Equatable {
    public var metadata: RunMetadata
    public var allocator: String
    public var backend: String
    public var workload: String
    public var parameters: String
    public var metric: String
    public var unit: String
    public var round: Int
    public var value: Double

    public static let columns = RunMetadata.columns + [
        "allocator", "backend", "workload", "parameters", "metric", "unit", "round", "value",
    ]

    public var fields: [String] {
        metadata.fields + [allocator, backend, workload, parameters, metric, unit, String(round), Format.number(value)]
    }
}
