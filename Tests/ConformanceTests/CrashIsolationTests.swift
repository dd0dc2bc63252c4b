import Foundation
import SchedulerConformance
import Testing

extension Conformance {
    /// A scheduler that crashes fails the rule it crashed in, and every other rule still runs: each backend's
    /// checks run in child processes (here Swift Testing's exit tests; `bench conformance` starts itself).
    @Suite struct CrashIsolation {
        /// C6, K1 and T6 use repeating work, on which the control traps; S2, S3 and T4 do not.
        static let ruleIDs: [RuleID] = [.s2, .s3, .c6, .k1, .t4, .t6]

        @Test("A child's lines are text a person can read, and any detail survives them")
        func childLinesAreReadableText() {
            let detail = "two\tcolumns, a back\\slash,\nand a second line"
            let result = RuleResult(
                ruleID: .c2, backendName: "My Scheduler", outcome: .failed(detail: detail), seconds: 0.25,
                trials: 30_000)
            let line = IsolatedRun.line(for: result)
            #expect(
                line
                    == "conformance-result\tC2\tMy Scheduler\tfailed\t0.25\t30000\ttwo\\tcolumns, a back\\\\slash,\\nand a second line"
            )
            var run = IsolatedRun(backend: TrappingScheduler.backend, rules: [ConformanceRules.rule(.c2)!])
            let own = RuleResult(
                ruleID: .c2, backendName: TrappingScheduler.backend.name, outcome: .failed(detail: detail),
                seconds: 0.25, trials: 30_000)
            run.absorb(output: IsolatedRun.line(for: own) + "\n", crash: nil)
            #expect(run.results.first?.outcome == .failed(detail: detail))
            #expect(run.results.first?.trials == 30_000, "the trials a child ran reach the parent")
        }

        /// As `bench conformance` runs its children (``IsolatedRun/runAll(rules:backends:executable:arguments:progress:)``):
        /// a child that dies and leaves a process holding its pipes (as the runtime's backtracer does while it writes
        /// a report) still gets its verdict at once. The leftover process is still alive when `runAll` returns, so
        /// nothing waited for it; it is given ten minutes, far beyond any wait `runAll` allows itself.
        @Test("A child that crashes and leaves its pipes open gets its verdict without waiting for them")
        func aCrashWithPipesHeldOpenIsNotWaitedFor() throws {
            let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("held-open-\(UUID()).pid")
            defer { try? FileManager.default.removeItem(at: pidFile) }
            let rules = [.s2, .s3].compactMap(ConformanceRules.rule)
            let results = try IsolatedRun.runAll(
                rules: rules, subjects: [ConformanceBackend.dispatchQueue], executable: "/bin/sh",
                arguments: { _, _ in ["-c", "sleep 600 & echo $! >> '\(pidFile.path)'; kill -SEGV $$"] })
            let leftovers = try String(contentsOf: pidFile, encoding: .utf8).split(separator: "\n").compactMap {
                pid_t($0)
            }
            let stillHolding = leftovers.filter { kill($0, 0) == 0 }
            for pid in leftovers { kill(pid, SIGKILL) }
            #expect(leftovers.count == rules.count, "one child per rule: each died before its first result")
            #expect(stillHolding.count == leftovers.count, "runAll waited for a process that held a child's pipes")
            #expect(results.map(\.outcome.detail).allSatisfy { $0.contains("crashed with signal 11") })
        }

        @Test("A crash's detail carries the runtime's message and the crashed thread's first frames")
        func crashDetailHasTheFrames() {
            let diagnostics = """
                Fatal error: advance(to:) went backwards
                *** Program crashed: Illegal instruction at 0x0000 ***
                Thread 3 "conformance-check-V5" crashed:

                0      0x0001 MyClock.advance(to:) + 12 in Tests at /x/MyClock.swift:40:9
                1 [ra] 0x0002 closure #1 in V5 + 80 in Tests at /x/VirtualTimeRules.swift:160:19
                2 [ra] 0x0003 RuleDeadline.run + 10 in Tests
                3 [ra] 0x0004 Thread.main + 1 in Foundation
                4 [ra] 0x0005 start_thread + 2 in libc.so.6
                """
            var run = IsolatedRun(backend: TrappingScheduler.backend, rules: [ConformanceRules.rule(.c6)!])
            run.absorb(output: "", crash: .signal(4), diagnostics: diagnostics)
            let detail = run.results.first?.outcome.detail ?? ""
            #expect(detail.hasPrefix("crashed with signal 4 (SIGILL"), "\(detail)")
            #expect(detail.contains("Fatal error: advance(to:) went backwards"), "\(detail)")
            #expect(detail.contains("MyClock.advance(to:)") && detail.contains("Thread.main"), "\(detail)")
            #expect(!detail.contains("start_thread"), "only the first \(IsolatedRun.framesShown) frames: \(detail)")
        }

        @Test("A trap fails the rule it happened in, with the signal; the other rules and backends still report")
        func trapIsARuleFailure() async throws {
            let rules = Self.ruleIDs.compactMap(ConformanceRules.rule)
            var results: [RuleResult] = []
            for backend in [TrappingScheduler.backend, ConformanceBackend.dispatchQueue] {
                var run = IsolatedRun(backend: backend, rules: rules)
                var children = 0
                while let ids = run.nextRules {
                    children += 1
                    let name = backend.name
                    let child = await #expect(processExitsWith: .failure, observing: [\.standardOutputContent]) {
                        [ids = ids as [RuleID], name = name as String] in
                        let backend = [TrappingScheduler.backend, ConformanceBackend.dispatchQueue].first {
                            $0.name == name
                        }!
                        IsolatedRun.runInChild(subject: backend, ruleIDs: ids)
                        exit(1)  // every result printed: a plain failure status, so the expectation always holds
                    }
                    guard let child else { return }
                    run.absorb(
                        output: String(decoding: child.standardOutputContent, as: UTF8.self),
                        crash: .of(child.exitStatus))
                    try #require(children <= rules.count, "more child processes than rules")
                }
                results += run.results
            }
            let outcome = { (id: RuleID, backend: String) in
                results.first { $0.ruleID == id && $0.backendName == backend }?.outcome
            }
            let trapping = TrappingScheduler.backend.name
            for id: RuleID in [.c6, .k1, .t6] {
                let detail = outcome(id, trapping)?.detail ?? ""
                #expect(outcome(id, trapping)?.isFailure == true, "\(id): \(detail)")
                #expect(detail.contains("crashed with signal"), "\(id): \(detail)")
            }
            for id: RuleID in [.s2, .s3, .t4] {
                #expect(
                    outcome(id, trapping)?.label == "passed",
                    "\(id) · \(trapping): \(outcome(id, trapping)?.detail ?? "none")")
                #expect(outcome(id, "DispatchQueueScheduler")?.label == "passed", "\(id) · DispatchQueueScheduler")
            }
            #expect(results.count == 2 * rules.count)
            let page = ConformanceReport.markdown(
                results, rules: rules, subjects: [TrappingScheduler.backend, ConformanceBackend.dispatchQueue],
                provenance: ReportProvenance(command: "test", commit: "test", machine: "test"))
            #expect(page.contains("crashed with signal"))
        }
    }
}

extension IsolatedRun.Crash {
    /// How an exit test's child ended, as ``IsolatedRun/absorb(output:crash:diagnostics:)`` takes it: nil for a
    /// clean exit.
    static func of(_ status: ExitStatus) -> IsolatedRun.Crash? {
        switch status {
        case .signal(let number): .signal(number)
        case .exitCode(let code): code == 0 ? nil : .exitStatus(code)
        @unknown default: .exitStatus(-1)
        }
    }
}
