import Testing
@testable import SchedulerBench

/// The allocation pass of W11–W13. `swift test` runs without jemalloc, so the counting itself is proven in the
/// counting child at every bench run (``AllThreadCounting/proveExact(mallocs:)``), and here only when a test run
/// happens to have jemalloc preloaded with `MALLOC_CONF=tcache:false`.
@Suite(.serialized) struct AllocationPassTests {
    @Test(.enabled(if: AllThreadCounting.isExact, "needs jemalloc preloaded with MALLOC_CONF=tcache:false"))
    func countsOfEveryThreadAreExact() throws {
        let proof = try AllThreadCounting.proveExact(mallocs: 1_000)
        #expect(proof.contains("exactly 1000 allocations, 64000 B"))
    }

    @Test(.enabled(if: !AllThreadCounting.isExact))
    func withoutExactCountsTheProbeReportsNothingAndTheRunOnlyANote() throws {
        let workload = try #require(Workload.named("W11"))
        let backend = try #require(Backend.named(Backend.defaultExecutorName))
        let parameters = try #require(workload.parameters(at: .smoke).first)
        #expect(workload.allocationProbe?.count(on: backend, parameters, rounds: 1) == nil)
        if !Jemalloc.isLive {
            var notes: [String] = []
            let runner = Runner(backends: [backend], workloads: [workload], scale: .smoke)
            #expect(AllocationPass.run(for: runner) { notes.append($0) }.isEmpty)
            #expect(notes.count == 1 && notes[0].contains("need jemalloc"))
        }
    }

    @Test func theChildsLinesBecomeObservationsPlacedAfterTheirTimedCell() throws {
        let (w11, w12) = (try #require(Workload.named("W11")), try #require(Workload.named("W12")))
        let backends = ["dispatch", Backend.defaultExecutorName].compactMap(Backend.named)
        let runner = Runner(backends: backends, workloads: [w11, w12], scale: .quick)
        let cells = runner.plan
        #expect(cells.map(\.parameters.description) == ["calls=10000 caller=global", "calls=10000 caller=backend",
                                                           "tasks=5000 caller=global", "tasks=5000 caller=backend"])
        let text = """
        workload,parameters,backend,metric,value
        W11,calls=10000 caller=backend,dispatch,allocs_per_call,4.0001
        W11,calls=10000 caller=backend,dispatch,allocs_per_call,3.9999
        W11,calls=10000 caller=backend,dispatch,size_class_bytes_per_call,144.5
        W12,tasks=5000 caller=global,default-executor,allocs_per_task,4

        """
        let counted = try AllocationPass.parse(text, cells: cells)
        #expect(counted.map { "\($0.workload.id) \($0.backend.name) \($0.metric.name) \($0.values)" } == [
            "W11 dispatch allocs_per_call [4.0001, 3.9999]", "W11 dispatch size_class_bytes_per_call [144.5]",
            "W12 default-executor allocs_per_task [4.0]",
        ])
        #expect(counted[1].metric.unit == "B (size classes)")
        let timed = cells.flatMap { cell in
            cell.backends.map { Observation(backend: $0, workload: cell.workload, parameters: cell.parameters,
                                            metric: cell.workload.metrics[0], values: [1]) }
        }
        let merged = AllocationPass.merge(counted, into: timed)
        #expect(merged.map { "\($0.parameters) \($0.metric.name)" } == [
            "calls=10000 caller=global ns_per_call", "calls=10000 caller=global ns_per_call",
            "calls=10000 caller=backend ns_per_call", "calls=10000 caller=backend ns_per_call",
            "calls=10000 caller=backend allocs_per_call", "calls=10000 caller=backend size_class_bytes_per_call",
            "tasks=5000 caller=global ns_per_task", "tasks=5000 caller=global ns_per_task", "tasks=5000 caller=global allocs_per_task",
            "tasks=5000 caller=backend ns_per_task", "tasks=5000 caller=backend ns_per_task",
        ])
        #expect(throws: BenchError.self) { try AllocationPass.parse("workload,parameters,backend,metric,value\nW11,calls=1,dispatch,allocs_per_call,1\n", cells: cells) }
    }

    @Test func choiceParametersPrintTheirOptionAfterTheNumbers() {
        let parameters = Parameters(["calls": 10], choices: ["caller": "backend"])
        #expect(parameters.description == "calls=10 caller=backend")
        #expect(parameters["calls"] == 10 && parameters.choice("caller") == "backend")
    }
}
