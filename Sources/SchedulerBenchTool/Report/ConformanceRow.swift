import SchedulerBench
import ToolSupport

/// One row of `conformance.csv` (written by `bench conformance`), as the report reads it beside a run.
struct ConformanceRow: Sendable, Equatable {
    enum Outcome: String, Sendable {
        case passed, failed, declared
        case notApplicable = "n/a"
    }

    var rule: String
    /// The conformance backend's name (``Backend/conformanceName``).
    var backend: String
    var outcome: Outcome
    var detail: String

    /// Reads a `conformance.csv`.
    static func read(_ path: String) throws -> [ConformanceRow] {
        try CSVTable(contentsOf: path, required: ["rule", "backend", "outcome", "detail"]).records.map { record in
            guard let outcome = Outcome(rawValue: try record.text("outcome")) else {
                throw record.error("outcome is \"\(record["outcome"] ?? "")\", not passed, failed, declared or n/a")
            }
            return ConformanceRow(
                rule: try record.text("rule"), backend: try record.text("backend"), outcome: outcome,
                detail: try record.text("detail"))
        }
    }
}
