import Testing
@testable import SchedulerBench

@Suite struct ReportTests {
    static func row(_ backend: String, _ workload: String, _ metric: String, _ median: Double,
                    parameters: String = "tasks=1000") -> SummaryRow {
        var row = Fixtures.row(backend: backend, median: median, low: median, high: median, parameters: parameters, metric: metric)
        row.workload = workload
        return row
    }

    @Test func goalsAreJudgedFromTheRows() {
        let rows = [
            Self.row("dispatch", "W1", "ns_per_task", 105), Self.row("raw-dispatch", "W1", "ns_per_task", 100),
            Self.row("threadpool", "W1", "ns_per_task", 50),
            Self.row("threadpool", "W9", "allocs_per_task", 1), Self.row("direct-call", "W9", "allocs_per_task", 0),
        ]
        let checks = Dictionary(Goals.check(rows).map { ($0.goal, $0.outcome) }) { first, _ in first }
        #expect(checks["DispatchQueueScheduler ≤ 1.10x raw DispatchQueue.async (W1)"] == .met)
        #expect(checks["ThreadPoolScheduler ≥ 4x faster than raw Dispatch (W1)"] == .notMet)
        #expect(checks["ThreadPoolScheduler: exactly 1 allocation per schedule beyond the closure context (W9)"] == .met)
        #expect(checks["OperationQueueScheduler ≤ 1.05x raw OperationQueue (W1)"] == .unknown)
    }

    @Test func reportNamesItsSourceAndListsEveryCell() {
        var results = RunResults(summary: [
            Self.row("dispatch", "W1", "ns_per_task", 460), Self.row("raw-dispatch", "W1", "ns_per_task", 400),
        ], samples: [])
        results.computeRatios()
        let text = Report.markdown(rows: results.summary, metadata: Fixtures.metadata, folder: "run-1", charts: ["run-1/charts/throughput.png"])
        #expect(text.contains("run-1/summary.csv"))
        #expect(text.contains("`bench --quick`"))
        #expect(text.contains("![throughput](run-1/charts/throughput.png)"))
        #expect(text.contains("| dispatch | 460 |"))
        #expect(text.contains("1.15x raw-dispatch"))
        #expect(text.contains("not met"))
    }
}
