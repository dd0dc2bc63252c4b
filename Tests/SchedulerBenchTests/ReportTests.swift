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

@Suite struct ActorFindingsTests {
    static func row(_ backend: String, _ workload: String, _ metric: String, _ median: Double, spread: Double = 0.05,
                    parameters: String = "n=1") -> SummaryRow {
        var row = Fixtures.row(backend: backend, median: median, low: median * (1 - spread), high: median * (1 + spread),
                               parameters: parameters, metric: metric)
        row.workload = workload
        return row
    }

    static let rows = [
        row("default-executor", "W11", "ns_per_call", 50, parameters: "calls=1 caller=global"),
        row("dispatch", "W11", "ns_per_call", 1600, parameters: "calls=1 caller=global"),
        row("threadpool", "W11", "ns_per_call", 10_000, parameters: "calls=1 caller=global"),
        row("default-executor", "W11", "ns_per_call", 50, parameters: "calls=1 caller=backend"),
        row("dispatch", "W11", "ns_per_call", 1500, spread: 0.5, parameters: "calls=1 caller=backend"),
        row("threadpool", "W11", "ns_per_call", 500, parameters: "calls=1 caller=backend"),
        row("default-executor", "W13", "ns_per_round_trip", 25), row("threadpool", "W13", "ns_per_round_trip", 1000),
        row("default-executor", "W12", "ns_per_task", 900, parameters: "tasks=1 caller=global"),
        row("dispatch", "W12", "ns_per_task", 920, parameters: "tasks=1 caller=global"),
        row("threadpool", "W12", "ns_per_task", 19_000, parameters: "tasks=1 caller=global"),
        row("threadpool", "W12", "ns_per_task", 1_700, parameters: "tasks=1 caller=backend"),
        row("default-executor", "W11", "allocs_per_call", 0, parameters: "calls=1 caller=global"),
        row("threadpool", "W11", "allocs_per_call", 6.0004, parameters: "calls=1 caller=global"),
    ]

    @Test func sentencesFollowFromTheMediansAndTheNoise() {
        let text = Report.actorFindings(Self.rows).joined(separator: "\n")
        #expect(text.contains("**An actor on the default executor** is the better choice"))
        #expect(text.contains("costs 50.0 ns, 32.0x less than into an actor on the cheapest scheduler executor"))
        #expect(text.contains("When the caller already runs on the backend"))  // not on every backend, so no headline
        #expect(text.contains("`threadpool` 500 ns instead of 10.0 µs (20.0x less)"))
        #expect(text.contains("cheaper only on `threadpool` in this run"))
        #expect(text.contains("`dispatch` 1500 ns instead of 1600 ns (within noise)"))  // a noisy row claims nothing
        #expect(text.contains("Even the cheapest, `threadpool`, is 10.0x a default actor's call"))
        #expect(text.contains("two default actors (25.0 ns) are 40.0x cheaper"))
        #expect(text.contains("the cheapest, `dispatch`, is within noise of the global executor"))  // intervals overlap
        #expect(text.contains("When the awaiting task itself runs on the backend (caller=backend): `threadpool` 1700 ns (11.2x less)"))
        #expect(text.contains("per call from the global executor (W11): `default-executor` 0.00, `threadpool` 6.00"))
        #expect(text.contains("conformance rules E1–E4"))
    }

    @Test func aCallerOnTheBackendThatIsCheaperEverywhereMakesTheSchedulerTheBetterChoice() {
        let rows = Self.rows.filter { !($0.backend == "dispatch" && $0.parameters.contains("caller=backend")) }
        #expect(Report.actorFindings(rows).joined().contains("**A scheduler's executor** pays off when the caller already runs on the backend"))
    }

    @Test func aRunWithoutActorRowsHasNoSection() {
        #expect(Report.actorFindings([Self.row("dispatch", "W1", "ns_per_task", 400)]).isEmpty)
        let text = Report.markdown(rows: Self.rows, metadata: Fixtures.metadata, folder: "run-1", charts: ["run-1/charts/actors.png"])
        #expect(text.contains("## Actors or schedulers?"))
        #expect(text.contains("![actors](run-1/charts/actors.png)\n\nActors and tasks (W11–W13)"))
    }
}
