import Foundation
import SchedulerConformance
import TestSupport
import Testing
import ToolSupport

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// Nine rounds of exactly `value`.
func steady(_ value: Double) -> [Double] { [Double](repeating: value, count: 9) }
/// Rounds that move by ±30 % around `value`: a ratio against them cannot tell small differences.
func wobbly(_ value: Double) -> [Double] { [0.7, 1.3, 1.0, 0.8, 1.2, 0.9, 1.1, 1.0, 0.95].map { $0 * value } }

@Suite struct ReportTests {
    static let run = Fixtures.run([
        Fixtures.Cell(rounds: [.dispatch: steady(460), .rawDispatch: steady(400)], order: [.dispatch, .rawDispatch])
    ])

    @Test func theReportNamesItsSourceAndListsEveryCell() {
        let text = Report.figuresMarkdown(run: Self.run, folder: "run-1")
        let page = Report.page(run: Self.run, folder: "run-1", charts: ["run-1/charts/throughput.png"])
        #expect(text.contains("run-1/summary.csv"))
        #expect(page.contains("run-1/summary.csv"))
        #expect(text.contains("`bench --quick`"))
        #expect(page.contains("![throughput](run-1/charts/throughput.png)"))
        #expect(text.contains("| dispatch | 460 |"))
        #expect(text.contains("1.15x raw-dispatch"))
        #expect(
            page.contains(
                "| DispatchQueueScheduler ≤ 1.10x raw DispatchQueue.async (W1) | 1.15x | the run's interval | not met |"
            ))
        #expect(text.contains("No calibration of this machine"))
    }

    @Test func roundsInTwoClustersAreShownAsTwoModes() {
        let run = Fixtures.run([
            Fixtures.Cell(rounds: [.rawDispatch: [240, 245, 238, 250, 242, 550, 560, 548, 240, 555]])
        ])
        #expect(Report.figuresMarkdown(run: run, folder: "r").contains("two modes: 241 (60 %), 552 (40 %)"))
        #expect(SummaryTable.render(run.summary).contains("two modes"))
    }

    /// `bench report` reports on the newest complete full run, passing over newer quick or narrowed runs, and says so.
    @Test func theReportChoosesTheNewestCompleteFullRun() throws {
        let root = try temporaryDirectory()
        func store(_ id: String, scale: String, selection: String) throws {
            var metadata = Fixtures.metadata
            metadata.scale = scale
            metadata.selection = selection
            let run = Fixtures.run([Fixtures.Cell(rounds: [.rawDispatch: steady(1)])], metadata: metadata)
            try RunStore(root: root.path).write(runID: id, files: RunResults(summary: run.summary, samples: []).files)
        }
        #expect { try Report.choose(runFolder: nil, resultsDirectory: root.path) } throws: {
            "\($0)".contains("no complete full run")
        }
        try store("20260101T000000Z-a", scale: "full", selection: "all")
        try store("20260102T000000Z-b", scale: "quick", selection: "all")
        try store("20260103T000000Z-c", scale: "full", selection: "backends=dispatch")
        let choice = try Report.choose(runFolder: nil, resultsDirectory: root.path)
        #expect(choice.folder.hasSuffix("20260101T000000Z-a"))
        #expect(choice.reason.contains("2 newer partial or quick runs passed over"))
        #expect(
            try Report.choose(
                runFolder: root.appendingPathComponent("20260102T000000Z-b").path, resultsDirectory: root.path
            )
            .reason == "the run named with --run")
    }
}

/// What `scripts/plot_results.py` is handed: every value with its chart, panel and style, so the script needs no names.
@Suite struct ChartsTests {
    @Test func everyFigureLandsInItsChartAndPanel() {
        let run = Fixtures.run([
            Fixtures.Cell(rounds: [.threadPool: steady(150), .rawDispatch: steady(300)]),
            Fixtures.Cell(
                workload: .startLatency, parameters: Parameters([.load: 0, .probes: 10]), metric: .p50,
                rounds: [.threadPool: steady(2_000)]),
            Fixtures.Cell(workload: .allocations, metric: .allocsPerTask, rounds: [.threadPool: [1]]),
        ])
        let points = Charts.points(RunView(run: run, allocator: .jemalloc))
        let throughput = points.filter { $0.chart == .throughput }
        #expect(throughput.map(\.series) == ["raw-dispatch", "threadpool"])
        #expect(throughput.allSatisfy { $0.style == .logBars && $0.low == 150 || $0.low == 300 })
        #expect(points.contains { $0.chart == .latency && $0.x == "p50" && $0.value == 2 && $0.style == .logLines })
        #expect(points.contains { $0.chart == .allocations && $0.value == 1 && $0.style == .bars && $0.low == nil })
        let csv = Charts.csv(points, allocator: .jemalloc)
        #expect(csv.hasPrefix("chart,chart_title,row,column,panel_title,y_label,style,x,series,value,low,high\r\n"))
        #expect(csv.contains("throughput,"))
    }
}

@Suite struct ActorFindingsTests {
    static func cell(_ workload: Workload, _ metric: Metric, _ caller: ActorHopCaller?, _ rounds: [BackendID: [Double]])
        -> Fixtures.Cell
    {
        let count: ParameterName =
            workload.id == .taskLifecycle ? .tasks : (workload.id == .actorHop ? .calls : .roundTrips)
        let parameters =
            caller.map { Parameters([count: 1], choices: [.caller: $0.rawValue]) } ?? Parameters([count: 1])
        return Fixtures.Cell(workload: workload, parameters: parameters, metric: metric, rounds: rounds)
    }

    static let run = Fixtures.run([
        cell(
            .actorHop, .nsPerCall, .global,
            [.defaultExecutor: steady(50), .dispatch: steady(1600), .threadPool: steady(10_000)]),
        cell(
            .actorHop, .nsPerCall, .backend,
            [.defaultExecutor: steady(50), .dispatch: wobbly(1500), .threadPool: steady(500)]),
        cell(.actorPingPong, .nsPerRoundTrip, nil, [.defaultExecutor: steady(25), .threadPool: steady(1000)]),
        cell(
            .taskLifecycle, .nsPerTask, .global,
            [.defaultExecutor: steady(900), .dispatch: wobbly(920), .threadPool: steady(19_000)]),
        cell(.taskLifecycle, .nsPerTask, .backend, [.threadPool: steady(1_700)]),
        cell(.actorHop, .allocsPerCall, .global, [.defaultExecutor: [0], .threadPool: [6.0004]]),
    ])

    @Test func sentencesFollowFromThePairedRatiosAndTheirIntervals() {
        let text = Report.actorFindings(RunView(run: Self.run, allocator: .jemalloc)).joined(separator: "\n")
        #expect(text.contains("**An actor on the default executor** is the better choice"))
        #expect(text.contains("costs 50.0 ns, 32.0x less than into an actor on the cheapest scheduler executor"))
        #expect(text.contains("When the caller already runs on the backend"))  // not on every backend, so no headline
        #expect(text.contains("`threadpool` 500 ns instead of 10.0 µs (20.0x less)"))
        #expect(text.contains("cheaper only on `threadpool` in this run"))
        #expect(text.contains("`dispatch` 1500 ns instead of 1600 ns (within noise)"))  // ±30 % rounds claim nothing
        #expect(text.contains("Even the cheapest, `threadpool`, is 10.0x a default actor's call"))
        #expect(text.contains("two default actors (25.0 ns) are 40.0x cheaper"))
        #expect(text.contains("the cheapest, `dispatch`, is within noise of the global executor"))
        #expect(
            text.contains(
                "When the awaiting task itself runs on the backend (caller=backend): `threadpool` 1700 ns (11.2x less)")
        )
        #expect(text.contains("per call from the global executor (W11): `default-executor` 0.00, `threadpool` 6.00"))
        #expect(text.contains("conformance rules E1–E5"))
    }

    @Test func aRunWithoutActorRowsHasNoSection() {
        #expect(Report.actorFindings(RunView(run: ReportTests.run, allocator: .jemalloc)).isEmpty)
        #expect(Report.figuresMarkdown(run: Self.run, folder: "run-1").contains("## Actors or schedulers?"))
        let page = Report.page(run: Self.run, folder: "run-1", charts: ["run-1/charts/actors.png"])
        #expect(page.contains("![actors](run-1/charts/actors.png) Actors and tasks (W11–W13)"))
        #expect(page.contains("## Actors and tasks"))
        #expect(!Report.page(run: ReportTests.run, folder: "run-1", charts: []).contains("## Actors and tasks"))
    }
}
