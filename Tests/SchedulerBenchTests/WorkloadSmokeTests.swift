import Testing
@testable import SchedulerBench

/// Every workload on every backend that has what it needs, at a tiny size. No timing assertions: only that each
/// round finishes and reports its metrics as finite, non-negative numbers.
@Suite struct WorkloadSmokeTests {
    static let cases: [String] = Workload.all.filter { !$0.requires.contains(.executor) }.flatMap { workload in
        Backend.all.filter(workload.supports).map { "\(workload.id)/\($0.name)" }
    }

    /// Actor workloads block their thread on a task of the cooperative pool: one at a time, so that the test runner's
    /// own (cooperative) threads are never all waiting on it.
    static let actorCases: [String] = Workload.all.filter { $0.requires.contains(.executor) }.flatMap { workload in
        Backend.all.filter(workload.supports).map { "\(workload.id)/\($0.name)" }
    }

    @Test(.serialized, arguments: actorCases)
    func actorWorkloadRunsOnBackend(_ identifier: String) throws {
        try workloadRunsOnBackend(identifier)
    }

    @Test(arguments: cases)
    func workloadRunsOnBackend(_ identifier: String) throws {
        let parts = identifier.split(separator: "/").map(String.init)
        let workload = try #require(Workload.named(parts[0]))
        let backend = try #require(Backend.named(parts[1]))
        for parameters in workload.parameters(at: .smoke) {
            let result = workload.runRound(on: backend, parameters)
            let expected = workload.metrics.map(\.name).filter { name in
                // Allocation counts need jemalloc, which `swift test` never loads; RSS is reported for queues only.
                switch name {
                case "allocs_per_task", "bytes_per_task": Jemalloc.isLive
                case "peak_rss_growth", "rss_per_queued_task": backend.has(.asynchronous) || backend.has(.virtualTime)
                default: true
                }
            }
            for name in expected {
                let value = try #require(result.values[name], "\(identifier) \(parameters): no \(name)")
                #expect(value.isFinite && value >= 0, "\(identifier) \(parameters): \(name) = \(value)")
            }
        }
    }

    @Test func everyWorkloadRunsSomewhereAndReferencesWrapTheirPrimitives() {
        for workload in Workload.all {
            #expect(Backend.all.contains(where: workload.supports), "\(workload.id) has no backend")
        }
        for backend in Backend.all where !backend.isReference {
            if let wrapped = backend.wraps { #expect(Backend.named(wrapped)?.isReference == true) }
        }
        #expect(Workload.all.map(\.id) == (1...14).map { "W\($0)" })
        #expect(Backend.named(Backend.defaultExecutorName).map { b in Workload.all.filter { $0.supports(b) }.map(\.id) } == ["W11", "W12", "W13"])
    }

    @Test func runnerInterleavesBackendsRoundByRound() {
        let backends = ["immediate", "direct-call", "test"].compactMap(Backend.named)
        let runner = Runner(backends: backends, workloads: [Workload.named("W1")!], scale: .smoke, rounds: 2)
        var order: [String] = []
        let observations = runner.run { _, _, what in
            if let backend = what.components(separatedBy: " · ").dropFirst().first { order.append(backend) }
        }
        let once = ["immediate", "direct-call", "test"]
        #expect(order == once + once + once)  // warm-up, then two rounds A B C A B C
        #expect(observations.count == 3 * Workload.singleProducer.metrics.count && observations.allSatisfy { $0.values.count == 2 })
    }

    @Test func allocatorChildrenGetTheParentsArgumentsWithTheirOwnAllocator() {
        let child = BenchRun.replacing(["--quick", "--allocator", "both", "--output=x", "--workload", "W1"],
                                       allocator: .system, output: "/tmp/o", runID: "r1")
        #expect(child == ["run", "--quick", "--workload", "W1", "--allocator", "system", "--output", "/tmp/o", "--run-id", "r1"])
        #expect(BenchRun.replacing(["run", "--allocator=both"], allocator: .jemalloc, output: "o", runID: "r").prefix(2) == ["run", "--allocator"])
    }

    @Test func unknownNamesAreRejectedWithTheChoices() {
        #expect { try BenchRun.backends(["nope"]) } throws: { "\($0)".contains("unknown backend 'nope'") }
        #expect { try BenchRun.workloads(["W15"]) } throws: { "\($0)".contains("unknown workload 'W15'") }
        #expect((try? BenchRun.workloads(["w4,fan-out"]).map(\.id)) == ["W4", "W3"])
    }
}
