import SchedulerConformance
import SchedulerExplorer
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// Every workload on every backend that has what it needs, at a tiny size. No timing assertions: only that each
/// round finishes and reports its metrics as finite, non-negative numbers.
@Suite struct WorkloadSmokeTests {
    /// Workloads whose body blocks its thread until tasks of the cooperative pool finish: actors and tasks (W11–W13),
    /// sleepers and `AsyncTimerSequence` (W19, W20), a virtual clock's sleepers (W21) and explorations (W22; W23,
    /// which drives an exploring scheduler by hand, runs on the same lanes).
    static let waitsOnTheCooperativePool: Capabilities = [.taskExecutor, .clock, .virtualClock, .exploration]

    static let cases: [String] = Workload.all.filter { $0.requires.isDisjoint(with: waitsOnTheCooperativePool) }
        .flatMap { workload in Catalog.allBackends.filter(workload.supports).map { "\(workload.id)/\($0.id)" } }

    /// Those run one at a time, so that the test runner's own (cooperative) threads are never all blocked waiting on
    /// tasks that need one of them.
    static let actorCases: [String] = Workload.all.filter { !$0.requires.isDisjoint(with: waitsOnTheCooperativePool) }
        .flatMap { workload in Catalog.allBackends.filter(workload.supports).map { "\(workload.id)/\($0.id)" } }

    @Test(.serialized, arguments: actorCases)
    func actorWorkloadRunsOnBackend(_ identifier: String) throws {
        try workloadRunsOnBackend(identifier)
    }

    @Test(arguments: cases)
    func workloadRunsOnBackend(_ identifier: String) throws {
        let parts = identifier.split(separator: "/").map(String.init)
        let workload = try #require(Workload.named(parts[0]))
        let backend = try #require(Catalog.backend(BackendID(rawValue: parts[1])))
        for parameters in workload.parameters(at: .smoke) {
            let result = workload.runRound(on: backend, parameters)
            let expected = workload.metrics.filter { metric in
                // Allocation counts need jemalloc, which `swift test` never loads; RSS is reported for queues only.
                switch metric {
                case .allocsPerTask, .bytesPerTask: Jemalloc.isLive
                case .peakRSSGrowth, .rssPerQueuedTask: backend.has(.asynchronous) || backend.has(.virtualTime)
                default: true
                }
            }
            for metric in expected {
                let value = try #require(result.values[metric], "\(identifier) \(parameters): no \(metric)")
                // A drift is a slope: a timer that keeps its rate reads as a little either side of 0.
                let least = metric == .driftPerTick ? -Double.infinity : 0
                #expect(value.isFinite && value >= least, "\(identifier) \(parameters): \(metric) = \(value)")
            }
        }
    }

    @Test func everyWorkloadRunsSomewhereAndReferencesWrapTheirPrimitives() {
        for workload in Workload.all {
            #expect(Catalog.allBackends.contains(where: workload.supports), "\(workload.id) has no backend")
        }
        for backend in Catalog.allBackends where !backend.isReference {
            if let wrapped = backend.wraps { #expect(Catalog.backend(wrapped)?.isReference == true) }
        }
        #expect(Workload.all.map(\.id.rawValue) == (1...25).map { "W\($0)" })
        #expect(Set(Catalog.allBackends.map(\.id)).count == Catalog.allBackends.count)
        #expect(
            Catalog.backend(.defaultExecutor).map { b in Workload.all.filter { $0.supports(b) }.map(\.id) }
                == [.actorHop, .taskLifecycle, .actorPingPong, .taskFanIn, .actorPipeline])
        #expect(
            Catalog.backend(.continuousClock).map { b in Workload.all.filter { $0.supports(b) }.map(\.id) }
                == [.clockSleep, .timerDrift])
    }

    @Test func runnerInterleavesBackendsRoundByRound() {
        let backends = [BackendID.immediate, .directCall, .testScheduler].compactMap(Catalog.backend)
        let policy = RoundPolicy(
            rounds: 2, minimumRoundSeconds: 0, maximumRounds: 2, targetSpread: 0.1, extraSeconds: 0)
        let runner = Runner(backends: backends, workloads: [.singleProducer], scale: .smoke, policy: policy)
        var order: [String] = []
        let cells = runner.run { _, _, what in
            if let backend = what.components(separatedBy: " · ").dropFirst().first { order.append(backend) }
        }
        let once = ["immediate", "direct-call", "test"]
        #expect(order == once + once + once)  // warm-up, then two rounds A B C A B C
        #expect(cells.count == 1 && cells[0].backends.allSatisfy { $0.rounds.count == 2 })
    }

    /// A round repeats the workload on fresh instances until it has lasted the policy's minimum.
    @Test func aRoundLastsAtLeastThePolicysMinimum() throws {
        let policy = RoundPolicy(
            rounds: 1, minimumRoundSeconds: 0.05, maximumRounds: 1, targetSpread: 0.1, extraSeconds: 0)
        let runner = Runner(
            backends: [try #require(Catalog.backend(.directCall))], workloads: [.singleProducer], scale: .smoke,
            policy: policy)
        let record = runner.measureRound(
            .singleProducer, on: runner.backends[0], runner.plan[0].parameters, extend: true)
        #expect(record.seconds >= 0.05 && record.repetitions > 1)
        #expect(record.result.values[.nsPerTask] != nil)
    }

    /// Wide intervals ask for more rounds; tight ones do not.
    @Test func theRoundPolicyAsksForMoreRoundsOnlyWhileAnIntervalIsWide() throws {
        let backend = try #require(Catalog.backend(.threadPool))
        func cell(_ values: [Double]) -> CellMeasurement {
            CellMeasurement(
                workload: .singleProducer, parameters: Parameters([.tasks: 1]),
                backends: [
                    BackendRounds(
                        backend: backend,
                        rounds: values.map { RoundRecord(result: RoundResult(values: [.nsPerTask: $0])) })
                ])
        }
        #expect(RoundPolicyCheck.needsMoreRounds(cell([100, 160, 90, 140, 110, 70, 150, 95, 130]), targetSpread: 0.1))
        #expect(!RoundPolicyCheck.needsMoreRounds(cell([100, 101, 99, 100, 102, 98, 100, 101, 99]), targetSpread: 0.1))
    }
}

@Suite struct ExplorationWorkloadTests {
    /// W22's body is as big as it says: its jobs, counted as the explorer's steps, in every strategy.
    @Test(arguments: [ExplorationStrategy.firstInFirstOut, .random, .pct(depth: 3, steps: 100)])
    func theBodyIsTheJobsItSays(_ strategy: ExplorationStrategy) async {
        let report = await explore(schedules: 4, strategy: strategy) { _ in await ExplorationBody.body() }
        #expect(report.failure == nil)
        print("W22 body, \(strategy): \(report.steps) steps in 4 schedules")
        #expect((4 * 90...4 * 120).contains(report.steps), "\(report)")
    }
}
