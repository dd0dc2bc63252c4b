import Foundation
import SchedulerBench
import SchedulerConformance
import SchedulerKit
import Testing

// In this package, QueueScheduler comes from its own module; SchedulerKit's PublicAPITests compiles it into the test
// target itself.
#if canImport(YourScheduler)
    import YourScheduler
#endif

/// The kit and the bench on a scheduler of a third party, through public API only.
@Suite(.serialized) struct YourSchedulerTests {
    /// Rules that are quick to check; `your-bench` runs all of them.
    static let rules = ["S2", "S3", "S5", "C1", "C2", "C3", "C4", "K1", "K2", "K3", "T7"].compactMap(
        ConformanceRules.rule)

    @Test(arguments: rules)
    func keepsTheRule(_ rule: ConformanceRule) {
        let result = ConformanceBackend.queueScheduler.evaluate(rule)
        #expect(!result.outcome.isFailure, Comment(rawValue: result.failureMessage))
        #expect(result.outcome != .notApplicable, "\(rule.id) applies to a serial asynchronous scheduler")
    }

    @Test(arguments: ClockRules.all)
    func clockKeepsTheRule(_ rule: ClockRule) async {
        let result = await ClockSubject.uptimeClock.evaluate(rule)
        #expect(!result.outcome.isFailure, "\(result)")
        #expect(
            (result.outcome == .notApplicable) == (rule.kinds == [.virtual]), "a real clock gets every real-time rule")
    }

    @Test(arguments: ExecutorSubjectRules.all)
    func executorKeepsTheRule(_ rule: ExecutorRule) async {
        let result = await ExecutorSubject.serialQueueExecutor.evaluate(rule)
        #expect(!result.outcome.isFailure, "\(result)")
        #expect(
            (result.outcome == .notApplicable) == !rule.applies(to: [.serial]),
            "every rule for serial executors applies; those for task executors (X5) do not")
    }

    @Test func rulesItsTraitsDoNotSelectAreNotApplicableNeverPassed() throws {
        let timeRule = try #require(ConformanceRules.rule("T1"))
        #expect(ConformanceBackend.queueScheduler.evaluate(timeRule).outcome == .notApplicable)
    }

    @Test func benchesBesideTheBuiltInBackendsAndWritesTheSameCSV() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-your-own-\(UUID())")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try BenchYourOwn.run(
            [.queueScheduler], beside: [.rawDispatch], workloads: [.throughput, .observeOnDrain], scale: .smoke,
            output: output.path)
        let rows = run.results.summary.filter { $0.backend == .queueScheduler }
        #expect(Set(rows.map(\.workload)) == [.throughput, .observeOnDrain])
        #expect(rows.allSatisfy { $0.reference == .rawDispatch }, "its rows are compared with the reference it names")
        let header = try String(contentsOf: run.folder.appendingPathComponent("summary.csv"), encoding: .utf8)
            .prefix { $0 != "\n" }
        #expect(header.hasPrefix("run_id,"), "the same columns as bench run: \(header)")
        #expect(run.table.contains("queue-scheduler"))
    }

    @Test func aBuiltInBackendsIdIsRefused() {
        let clash = Backend.subject(
            ConformanceBackend(
                id: BackendID.threadPool.rawValue, name: "not the pool", summary: "not the pool",
                traits: QueueScheduler.traits
            ) { _ in ConformanceSession(makeNamedScheduler: { QueueScheduler(name: $0) }) })
        #expect(throws: BenchError.self) { try Backend.register([clash]) }
    }
}
