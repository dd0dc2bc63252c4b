import SchedulerBench
import SchedulerConformance
import ToolSupport

/// The identity of a cell across runs.
package struct CellKey: Sendable, Hashable, CustomStringConvertible {
    package var allocator: AllocatorChoice
    package var backend: BackendID
    package var workload: WorkloadID
    package var parameters: Parameters
    package var metric: Metric

    package var description: String { "\(workload) \(parameters) \(metric) \(backend) [\(allocator.rawValue)]" }

    package init(
        allocator: AllocatorChoice, backend: BackendID, workload: WorkloadID, parameters: Parameters, metric: Metric
    ) {
        self.allocator = allocator
        self.backend = backend
        self.workload = workload
        self.parameters = parameters
        self.metric = metric
    }
}

extension SummaryRow {
    /// The identity of a cell across runs, for `compare`.
    package var key: CellKey {
        CellKey(allocator: allocator, backend: backend, workload: workload, parameters: parameters, metric: metric)
    }
}

extension CellKey {
    /// The cell a row of `samples.csv` belongs to.
    init(sampleRecord record: CSVRecord) throws {
        let (allocator, parameters) = (try record.text("allocator"), try record.text("parameters"))
        guard let choice = AllocatorChoice(rawValue: allocator), choice != .both else {
            throw record.error("allocator is \"\(allocator)\", not jemalloc or system")
        }
        guard let cell = Parameters(parsing: parameters) else {
            throw record.error("parameters \"\(parameters)\" are not name=value pairs")
        }
        self.init(
            allocator: choice, backend: BackendID(rawValue: try record.text("backend")),
            workload: WorkloadID(rawValue: try record.text("workload")), parameters: cell,
            metric: Metric.named(try record.text("metric"), unit: record["unit"] ?? ""))
    }
}
