import Foundation
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

@Suite struct PeerFindingsTests {
    static let run = Fixtures.run([
        Fixtures.Cell(rounds: [
            .nioEventLoop: steady(300), .rawNIOExecute: steady(250), .nioThreadPool: steady(900),
            .threadPool: steady(100), .dispatch: steady(450),
        ]),
        Fixtures.Cell(
            workload: .pingPong, metric: .nsPerRoundTrip,
            rounds: [.nioEventLoop: steady(27_000), .threadPool: steady(1_500), .dispatch: steady(3_500)]),
        Fixtures.Cell(
            workload: .startLatency, parameters: Parameters([.load: 0, .probes: 10]), metric: .p99,
            rounds: [.nioEventLoop: steady(40_000), .threadPool: wobbly(41_000)]),
        Fixtures.Cell(
            workload: .timerLateness, metric: .p99,
            rounds: [.nioEventLoop: steady(60_000), .threadPool: steady(90_000), .dispatch: steady(120_000)]),
        Fixtures.Cell(
            workload: .allocations, metric: .allocsPerTask,
            rounds: [.nioEventLoop: [1], .rawNIOExecute: [0], .threadPool: [1]]),
    ])
    static let view = RunView(run: run, allocator: .jemalloc)

    static let matrix = [
        ConformanceRow(
            rule: "C1", backend: "EventLoopScheduler", outcome: .declared, detail: "execute has no cancellation"),
        ConformanceRow(
            rule: "C2", backend: "EventLoopScheduler", outcome: .failed,
            detail: "cancel() returned true but the delayed task ran in 53 of 100 000 races"),
        ConformanceRow(rule: "S1", backend: "EventLoopScheduler", outcome: .passed, detail: ""),
        ConformanceRow(rule: "V1", backend: "EventLoopScheduler", outcome: .notApplicable, detail: ""),
        ConformanceRow(rule: "C2", backend: "ThreadPoolScheduler", outcome: .passed, detail: ""),
        ConformanceRow(rule: "C1", backend: "ThreadPoolScheduler", outcome: .passed, detail: ""),
    ]

    static func findings(_ peer: Peer, _ view: RunView = view, conformance: [ConformanceRow] = []) -> String {
        Report.peerFindings(view, conformance: conformance).first { $0.peer.name == peer.name }?.findings
            .joined(separator: "\n") ?? ""
    }

    @Test func sentencesFollowFromTheMediansAndTheNoise() {
        let text = Self.findings(.nio)
        #expect(
            text.contains(
                "Throughput (W1): `nio-eventloop` 300 ns, raw `EventLoop.execute` 250 ns, `nio-threadpool` 900 ns, `threadpool` 100 ns, `dispatch` 450 ns."
            ))
        #expect(text.contains("SchedulerKit is ahead, `threadpool` 3.00x below NIO."))
        #expect(text.contains("A hop (W4 round trip): `nio-eventloop` 27.0 µs"))
        #expect(text.contains("Why each figure falls where it does: [`Docs/Schedulers.md`]"))
        #expect(
            text.contains(
                "Start latency, idle (W5 p99): `nio-eventloop` 40.0 µs, `threadpool` 41.0 µs. NIO is within noise of `threadpool`."
            ))
        #expect(
            text.contains(
                "Timer lateness (W6 p99): `nio-eventloop` 60.0 µs, `threadpool` 90.0 µs, `dispatch` 120 µs. NIO is ahead, 1.50x below `threadpool`."
            ))
        #expect(
            text.contains(
                "Allocations per task (W9): `nio-eventloop` 1.00, raw `EventLoop.execute` 0.00, `threadpool` 1.00. NIO is level with `threadpool`."
            ))
        #expect(
            text.contains(
                "In this run `nio-eventloop` is ahead on timer lateness (W6 p99); SchedulerKit on throughput (W1), a hop (W4 round trip); level or within noise: start latency, idle (W5 p99), allocations per task (W9)."
            ))
        #expect(
            text.contains(
                "On W1, `nio-eventloop` (the adapter itself: the current scheduler and the handle) costs 1.20x more than raw `EventLoop.execute` (300 ns against 250 ns)."
            ))
        #expect(!text.contains("Semantics"))  // no conformance matrix given
    }

    @Test func theConformanceMatrixSaysWhatNIOKeeps() {
        let text = Self.findings(.nio, conformance: Self.matrix)
        #expect(
            text.contains(
                "`EventLoopScheduler` (`nio-eventloop`) passes 1 of the 3 rules that apply; fails C2 (cancel() returned true but the delayed task ran in 53 of 100 000 races); declares C1"
            ))
        #expect(text.contains("declares C1 (execute has no cancellation)"))
        #expect(text.contains("`ThreadPoolScheduler` passes C1, C2."))
    }

    @Test func aRunWithoutPeerRowsHasNoSection() {
        let peerLanes = Peer.all.flatMap(\.lanes)
        let others = RunData(
            summary: Self.run.summary.filter { !peerLanes.contains($0.backend) }, rounds: Self.run.rounds)
        #expect(Report.peerFindings(RunView(run: others, allocator: .jemalloc), conformance: Self.matrix).isEmpty)
        #expect(!Report.figuresMarkdown(run: others, folder: "run-1").contains("Peers beside SchedulerKit"))
        #expect(!Report.page(run: others, folder: "run-1", charts: []).contains("## Peers"))
        let report = Report.figuresMarkdown(run: Self.run, folder: "run-1")
        #expect(report.contains("## Peers beside SchedulerKit"))
        #expect(report.contains("### SwiftNIO"))
        #expect(!report.contains("### Combine"))  // the fixture has no Combine rows
    }

    static let combineRun = Fixtures.run([
        Fixtures.Cell(rounds: [
            .combineDispatch: steady(600), .rawDispatchGlobal: steady(400), .combineOperationQueue: steady(2_000),
            .combineImmediate: steady(20), .threadPool: steady(100), .dispatch: steady(450),
        ]),
        Fixtures.Cell(
            workload: .receiveOn, metric: .nsPerEvent,
            rounds: [.combineDispatch: steady(1_700), .combineRunLoop: steady(9_000), .threadPool: steady(1_000)]),
    ])

    @Test func combineIsComparedWithItsOwnLanesBesideIt() {
        let text = Self.findings(.combine, RunView(run: Self.combineRun, allocator: .jemalloc))
        #expect(
            text.contains(
                "Throughput (W1): `combine-dispatch` 600 ns, raw `DispatchQueue.async` 400 ns, `combine-operationqueue` 2000 ns, `combine-immediate` 20.0 ns, `threadpool` 100 ns, `dispatch` 450 ns. SchedulerKit is ahead, `threadpool` 6.00x below Combine."
            ), "\(text)")
        #expect(
            text.contains(
                "Combine's receive(on:) (W18): `combine-dispatch` 1700 ns, `combine-runloop` 9000 ns, `threadpool` 1000 ns. SchedulerKit is ahead, `threadpool` 1.70x below Combine."
            ))
        #expect(
            text.contains(
                "On W1, `combine-dispatch` (Combine's `DispatchQueue` scheduler and the adapter together) costs 1.50x more than raw `DispatchQueue.async` (600 ns against 400 ns)."
            ))
        #expect(
            text.contains("[`Docs/Combine.md`](../Docs/Combine.md#combine-beside-schedulerkit-why-the-figures-differ)"))
        #expect(Self.findings(.nio, RunView(run: Self.combineRun, allocator: .jemalloc)).isEmpty)
    }

    @Test func conformanceRowsAreReadFromTheCSVBenchConformanceWrites() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).csv")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "rule,backend,outcome,detail,seconds\r\nC2,EventLoopScheduler,failed,\"ran, although cancelled\",1.0\r\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            try ConformanceRow.read(path) == [
                ConformanceRow(
                    rule: "C2", backend: "EventLoopScheduler", outcome: .failed, detail: "ran, although cancelled")
            ])
    }
}
