import SchedulerConformance
import ToolSupport

/// One row of `samples.csv`: one round's value of one metric, with what the round looked like, so that anyone can
/// re-analyse a run (`Docs/Results.md`). A row names its run and commit; the rest of the run's metadata is written
/// once per row of `summary.csv` beside it (same `run_id`), not again on each of the thousands of rounds.
struct SampleRow: Sendable, Equatable {
    var metadata: RunMetadata
    var allocator: AllocatorChoice
    var backend: BackendID
    var workload: WorkloadID
    var parameters: Parameters
    var metric: Metric
    /// 1-based measured round (counted rounds of the allocation pass are numbered on their own).
    var round: Int
    var value: Double
    /// The value moved to the cell's median machine level (`RoundLevels`); the figures rest on it. Nil when read
    /// from a run that did not write it (the level is recomputed from the values then).
    var levelled: Double?
    var repetitions: Int?
    var roundMilliseconds: Double?
    var contextSwitches: Double?
    var migrations: Double?

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

    static var columns: [String] { schema.names() }
    var fields: [String] { Self.schema.fields(of: self) }
}
