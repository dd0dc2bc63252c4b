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
    static let rules = [.s2, .s3, .s5, .c1, .c2, .c3, .c4, .k1, .k2, .k3, .t7].compactMap(
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
            (result.outcome == .notApplicable) == !rule.applies(to: ClockSubject.uptimeClock),
            "a real clock gets every real-time rule")
    }

    @Test(arguments: ExecutorSubjectRules.all)
    func executorKeepsTheRule(_ rule: ExecutorSubjectRule) async {
        let result = await ExecutorSubject.serialQueueExecutor.evaluate(rule)
        #expect(!result.outcome.isFailure, "\(result)")
        #expect(
            (result.outcome == .notApplicable) == !rule.applies(to: ExecutorSubject.serialQueueExecutor),
            "every rule for serial executors applies; those for task executors (X5) do not")
    }

    @Test func rulesItsTraitsDoNotSelectAreNotApplicableNeverPassed() throws {
        let timeRule = try #require(ConformanceRules.rule(.t1))
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

    /// Its own serial and virtual-time schedulers in one run: the bench drives the virtual-time one through its
    /// `VirtualTimeDriver`, as it drives `TestScheduler`, so every workload that runs on `TestScheduler` runs on it to
    /// the end (W1 among them; nothing else would run its work, and the run would wait), and the serial one runs W1
    /// and W4. The workloads whose body blocks its thread until tasks of Swift's cooperative pool finish (actors,
    /// sleepers: W11–W13, W19–W21) are left out: in a test they would block one of the test runner's own threads
    /// while other suites block the rest (`your-bench` runs them).
    @Test func benchesItsSerialAndVirtualTimeSchedulers() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-your-own-\(UUID())")
        defer { try? FileManager.default.removeItem(at: output) }
        let waitsOnTheCooperativePool: Capabilities = [.executor, .taskExecutor, .clock, .virtualClock]
        let chosen = Workload.all.filter { $0.requires.isDisjoint(with: waitsOnTheCooperativePool) }
            .filter { !$0.countsInAChildProcess }.map(\.id)
        #expect(chosen.contains(.throughput) && chosen.contains(.pingPong))
        // SchedulerKit's TestScheduler beside them: the kit's entry, measured as one of ours.
        let testScheduler = ConformanceBackend.testScheduler.id
        let run = try BenchYourOwn.run(
            [.queueScheduler, .stepScheduler, .subject(.testScheduler)], workloads: chosen, scale: .smoke,
            output: output.path)
        func workloads(_ backend: BackendID) -> Set<WorkloadID> {
            Set(run.results.summary.filter { $0.backend == backend }.map(\.workload))
        }
        #expect(workloads(.queueScheduler).isSuperset(of: [.throughput, .pingPong]))
        #expect(workloads(.stepScheduler).contains(.throughput))
        #expect(workloads(.stepScheduler) == workloads(testScheduler), "every workload TestScheduler runs")
        let steps = run.results.summary.filter { $0.backend == .stepScheduler }
        #expect(steps.allSatisfy { $0.summary.median.value.isFinite })
    }

    /// The kit judges it by the same description: the virtual-time rules drive it through `VirtualTimeDriver`.
    @Test(
        arguments: [.v1, .v2, .v3, .v4, .v5, .s2, .s3, .c1, .c2, .k1, .t1, .t2].compactMap(
            ConformanceRules.rule))
    func stepSchedulerKeepsTheRule(_ rule: ConformanceRule) {
        let result = ConformanceBackend.stepScheduler.evaluate(rule)
        #expect(!result.outcome.isFailure, Comment(rawValue: result.failureMessage))
    }

    /// A scheduler that claims virtual time but gives the bench no way to drive it is refused before anything runs
    /// (a run would otherwise wait for ever on work nobody runs).
    @Test func aVirtualTimeSchedulerTheBenchCannotDriveIsRefused() {
        let undriven = Backend.subject(
            ConformanceBackend(
                id: "undriven", name: "undriven", summary: "claims virtual time, is a queue",
                traits: [.serial, .timed, .virtualTime]
            ) { _ in ConformanceSession(makeNamedScheduler: { QueueScheduler(name: $0) }) })
        #expect(throws: BenchError.self) { try Backend.register([undriven]) }
        #expect(Backend.withID(undriven.id) == nil)
    }

    @Test func aReferenceLanesIdIsRefused() {
        let clash = Backend.subject(
            ConformanceBackend(
                id: .rawDispatch, name: "not raw Dispatch", summary: "not raw Dispatch",
                traits: QueueScheduler.traits
            ) { _ in ConformanceSession(makeNamedScheduler: { QueueScheduler(name: $0) }) })
        #expect(throws: BenchError.self) { try Backend.register([clash]) }
    }
}
