import SchedulerConformance
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

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
        let workload = Workload.actorHop
        let backend = try #require(Catalog.backend(.defaultExecutor))
        let parameters = try #require(workload.parameters(at: .smoke).first)
        #expect(workload.allocationProbe?.count(on: backend, parameters, rounds: 1) == nil)
        if !Jemalloc.isLive {
            var notes: [String] = []
            let runner = Runner(backends: [backend], workloads: [workload], scale: .smoke)
            let unreachable: AllocationPass.Counter = { _, _, _, _ in
                throw BenchError.failed("no counting process here")
            }
            #expect(AllocationPass.run(for: runner, counter: unreachable) { notes.append($0) }.isEmpty)
            #expect(notes.count == 1 && notes[0].contains("need jemalloc"))
        }
    }

    @Test func theChildsLinesLandInTheirCells() throws {
        let backends = [BackendID.dispatch, .defaultExecutor].compactMap(Catalog.backend)
        let runner = Runner(backends: backends, workloads: [.actorHop, .taskLifecycle], scale: .quick)
        #expect(
            runner.plan.map(\.parameters.description) == [
                "calls=10000 caller=global", "calls=10000 caller=backend",
                "tasks=2000 caller=global", "tasks=2000 caller=backend",
            ])
        let text = """
            workload,parameters,backend,metric,value
            W11,calls=10000 caller=backend,dispatch,allocs_per_call,4.0001
            W11,calls=10000 caller=backend,dispatch,allocs_per_call,3.9999
            W11,calls=10000 caller=backend,dispatch,size_class_bytes_per_call,144.5
            W12,tasks=2000 caller=global,default-executor,allocs_per_task,4

            """
        let counted = try AllocationPass.parse(text, cells: runner.plan)
        #expect(
            counted.map {
                "\($0.workload) \($0.backend) \($0.values[.allocsPerCall] ?? $0.values[.allocsPerTask] ?? [])"
            } == [
                "W11 dispatch [4.0001, 3.9999]", "W12 default-executor [4.0]",
            ])
        let empty = runner.plan.map { cell in
            CellMeasurement(
                workload: cell.workload, parameters: cell.parameters,
                backends: cell.backends.map { BackendRounds(backend: $0) })
        }
        let merged = AllocationPass.merge(counted, into: empty)
        #expect(merged[1].backends.first { $0.backend.id == .dispatch }?.values(of: .sizeClassBytesPerCall) == [144.5])
        #expect(merged[0].backends.allSatisfy { $0.counted.isEmpty })
        #expect(throws: BenchError.self) {
            try AllocationPass.parse(
                "workload,parameters,backend,metric,value\nW11,calls=1,dispatch,allocs_per_call,1\n", cells: runner.plan
            )
        }
    }

    @Test func choiceParametersPrintTheirOptionAfterTheNumbersAndParseBack() {
        let parameters = Parameters([.calls: 10], choices: [.caller: "backend"])
        #expect(parameters.description == "calls=10 caller=backend")
        #expect(parameters[.calls] == 10 && parameters.choice(.caller) == "backend")
        #expect(Parameters(parsing: parameters.description) == parameters)
        #expect(Parameters(parsing: "calls") == nil)
        #expect(parameters.contains(Parameters([:], choices: [.caller: "backend"])))
        #expect(!parameters.contains(Parameters([.calls: 11])))
    }
}
