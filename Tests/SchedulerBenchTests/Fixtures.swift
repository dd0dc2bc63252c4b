import Foundation
import SchedulerConformance
import SchedulerKit
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// Runs and rows for the tests, made through the same summarization as `bench run`.
enum Fixtures {
    static let metadata: RunMetadata = {
        var metadata = RunMetadata(fields: [
            "run_id": "test-run", "timestamp": "2026-11-21T00:00:00Z", "git_commit": "abc", "host": "host, with comma",
            "cpu_model": "CPU \"quoted\"", "cores": "2", "os": "Linux", "swift_version": "Swift 6", "build": "release",
            "command": "bench --quick", "load_average": "0.5", "clock_overhead_ns": "20",
        ])
        metadata.scale = "full"
        metadata.selection = "all"
        metadata.cpus = "0-1"
        metadata.machine = "Test CPU, 2 cores, 4 GiB, Linux"
        return metadata
    }()

    /// One cell's per-round values, by backend (a backend's rounds are paired with another's by position).
    struct Cell {
        var workload: Workload = .singleProducer
        var parameters: Parameters?
        var metric: Metric = .nsPerTask
        var rounds: [BackendID: [Double]]
        var order: [BackendID]? = nil
    }

    /// A run of these cells, summarised as `bench run` summarises, with its rounds kept as `samples.csv` keeps them.
    static func run(_ cells: [Cell], metadata: RunMetadata = metadata, allocator: AllocatorChoice = .jemalloc)
        -> RunData
    {
        let measured = cells.map { cell in
            let order = cell.order ?? cell.rounds.keys.sorted()
            return CellMeasurement(
                workload: cell.workload, parameters: cell.parameters ?? cell.workload.parameters(at: .full)[0],
                backends: order.map { id in
                    BackendRounds(
                        backend: Catalog.backend(id)!,
                        rounds: cell.rounds[id]!.map {
                            RoundRecord(result: RoundResult(values: [cell.metric: $0]))
                        })
                })
        }
        let results = RunResults(cells: measured, metadata: metadata, allocator: allocator)
        var rounds: [CellKey: [Double]] = [:]
        for sample in results.samples {
            let key = CellKey(
                allocator: sample.allocator, backend: sample.backend, workload: sample.workload,
                parameters: sample.parameters, metric: sample.metric)
            rounds[key, default: []].append(sample.value)
        }
        return RunData(summary: results.summary, rounds: rounds, source: "fixture")
    }

    /// A summary row with a given median and interval.
    static func row(
        _ backend: BackendID, median: Double, low: Double? = nil, high: Double? = nil, count: Int = 9,
        workload: WorkloadID = .throughput, metric: Metric = .nsPerTask,
        parameters: Parameters = Parameters([.tasks: 1000]), reference: BackendID? = nil
    ) -> SummaryRow {
        SummaryRow(
            metadata: metadata, allocator: .jemalloc, backend: backend, reference: reference, workload: workload,
            workloadName: "throughput", parameters: parameters, metric: metric,
            summary: SampleSummary(
                count: count, median: Estimate(value: median, low: low ?? median, high: high ?? median),
                min: low ?? median, max: high ?? median))
    }

    /// `count` values around `center` with relative noise `spread` (log-normal), from `generator`.
    static func noisy(_ center: Double, spread: Double, count: Int, _ generator: inout SplitMix64) -> [Double] {
        (0..<count).map { _ in center * Foundation.exp(spread * gaussian(&generator)) }
    }

    /// A standard normal draw (Box–Muller).
    static func gaussian(_ generator: inout SplitMix64) -> Double {
        let u = max(Double(generator.next() >> 11) / Double(1 << 53), 1e-12)
        let v = Double(generator.next() >> 11) / Double(1 << 53)
        return (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * .pi * v)
    }
}
