import ToolSupport

/// One row of `samples.csv`: one round's value of one metric, with what the round looked like, so that anyone can
/// re-analyse a run (`Docs/Results.md`). A row names its run and commit; the rest of the run's metadata is written
/// once per row of `summary.csv` beside it (same `run_id`), not again on each of the thousands of rounds.
public struct SampleRow: Sendable, Equatable {
    public var metadata: RunMetadata
    public var allocator: AllocatorChoice
    public var backend: BackendID
    public var workload: WorkloadID
    public var parameters: Parameters
    public var metric: Metric
    /// 1-based measured round (counted rounds of the allocation pass are numbered on their own).
    public var round: Int
    public var value: Double
    /// The value moved to the cell's median machine level (`RoundLevels`); the figures rest on it. Nil when read
    /// from a run that did not write it (the level is recomputed from the values then).
    public var levelled: Double?
    public var repetitions: Int?
    public var roundMilliseconds: Double?
    public var contextSwitches: Double?
    public var migrations: Double?

    /// The columns, in CSV order, each with what it writes.
    static let schema: [CSVColumn<SampleRow>] = [
        CSVColumn("run_id") { $0.metadata.runID }, CSVColumn("git_commit") { $0.metadata.gitCommit },
        CSVColumn("allocator") { $0.allocator.rawValue }, CSVColumn("backend") { $0.backend.rawValue },
        CSVColumn("workload") { $0.workload.rawValue }, CSVColumn("parameters") { $0.parameters.description },
        CSVColumn("metric") { $0.metric.name }, CSVColumn("unit") { $0.metric.unit },
        CSVColumn("round") { String($0.round) }, CSVColumn("value") { Format.number($0.value) },
        CSVColumn("value_levelled") { Format.optionalNumber($0.levelled) },
        CSVColumn("repetitions") { $0.repetitions.map(String.init) ?? "" },
        CSVColumn("round_ms") { Format.optionalNumber($0.roundMilliseconds) },
        CSVColumn("context_switches") { Format.optionalNumber($0.contextSwitches) },
        CSVColumn("cpu_migrations") { Format.optionalNumber($0.migrations) },
    ]

    public static var columns: [String] { schema.names() }
    public var fields: [String] { Self.schema.fields(of: self) }
}

extension SampleRow {
    public static let requiredColumns = ["allocator", "backend", "workload", "parameters", "metric", "round", "value"]

    /// Reads a record of `samples.csv`.
    public init(record: CSVRecord) throws {
        guard let allocator = AllocatorChoice(rawValue: try record.text("allocator")), allocator != .both else {
            throw record.error("allocator is \"\(record["allocator"] ?? "")\", not jemalloc or system")
        }
        guard let parameters = Parameters(parsing: try record.text("parameters")) else {
            throw record.error("parameters \"\(record["parameters"] ?? "")\" are not name=value pairs")
        }
        metadata = RunMetadata(fields: record.fields)
        self.allocator = allocator
        backend = BackendID(rawValue: try record.text("backend"))
        workload = WorkloadID(rawValue: try record.text("workload"))
        self.parameters = parameters
        metric = Metric.named(try record.text("metric"), unit: record["unit"] ?? "")
        round = Int(try record.number("round"))
        value = try record.number("value")
        levelled = record.optionalNumber("value_levelled")
        repetitions = record.optionalNumber("repetitions").map { Int($0) }
        roundMilliseconds = record.optionalNumber("round_ms")
        contextSwitches = record.optionalNumber("context_switches")
        migrations = record.optionalNumber("cpu_migrations")
    }
}
