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
    public var repetitions: Int?
    public var roundMilliseconds: Double?
    public var contextSwitches: Double?
    public var migrations: Double?

    public static let columns =
        ["run_id", "git_commit"] + [
            "allocator", "backend", "workload", "parameters", "metric", "unit", "round", "value",
            "repetitions", "round_ms", "context_switches", "cpu_migrations",
        ]

    public var fields: [String] {
        let number = { (value: Double?) in value.map(Format.number) ?? "" }
        return [metadata.runID, metadata.gitCommit] + [
            allocator.rawValue, backend.rawValue, workload.rawValue, parameters.description, metric.name, metric.unit,
            String(round), Format.number(value), repetitions.map(String.init) ?? "", number(roundMilliseconds),
            number(contextSwitches), number(migrations),
        ]
    }
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
        repetitions = record.optionalNumber("repetitions").map { Int($0) }
        roundMilliseconds = record.optionalNumber("round_ms")
        contextSwitches = record.optionalNumber("context_switches")
        migrations = record.optionalNumber("cpu_migrations")
    }
}
