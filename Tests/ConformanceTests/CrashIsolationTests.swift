import Foundation
import SchedulerConformance
import Testing

extension Conformance {
    /// A scheduler that crashes fails the rule it crashed in, and every other rule still runs: each backend's
    /// checks run in child processes (here Swift Testing's exit tests; `bench conformance` starts itself).
    @Suite struct CrashIsolation {
        /// C6, K1 and T6 use repeating work, on which the control traps; S2, S3 and T4 do not.
        static let ruleIDs = ["S2", "S3", "C6", "K1", "T4", "T6"]

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
                        [ids = ids as [String], name = name as String] in
                        let backend = [TrappingScheduler.backend, ConformanceBackend.dispatchQueue].first {
                            $0.name == name
                        }!
                        IsolatedRun.runInChild(backend: backend, ruleIDs: ids)
                        exit(1)  // every result printed: a plain failure status, so the expectation always holds
                    }
                    guard let child else { return }
                    let crash: IsolatedRun.Crash? =
                        switch child.exitStatus {
                        case .signal(let number): .signal(number)
                        case .exitCode(let code): code == 0 ? nil : .exitStatus(code)
                        @unknown default: .exitStatus(-1)
                        }
                    run.absorb(output: String(decoding: child.standardOutputContent, as: UTF8.self), crash: crash)
                    try #require(children <= rules.count, "more child processes than rules")
                }
                results += run.results
            }
            let outcome = { (id: String, backend: String) in
                results.first { $0.ruleID == id && $0.backendName == backend }?.outcome
            }
            let trapping = TrappingScheduler.backend.name
            for id in ["C6", "K1", "T6"] {
                let detail = outcome(id, trapping)?.detail ?? ""
                #expect(outcome(id, trapping)?.isFailure == true, "\(id): \(detail)")
                #expect(detail.contains("crashed with signal"), "\(id): \(detail)")
            }
            for id in ["S2", "S3", "T4"] {
                #expect(
                    outcome(id, trapping)?.label == "passed",
                    "\(id) · \(trapping): \(outcome(id, trapping)?.detail ?? "none")")
                #expect(outcome(id, "DispatchQueueScheduler")?.label == "passed", "\(id) · DispatchQueueScheduler")
            }
            #expect(results.count == 2 * rules.count)
            let page = ConformanceReport.markdown(
                results, rules: rules, backends: [TrappingScheduler.backend, .dispatchQueue],
                provenance: ReportProvenance(command: "test", commit: "test", machine: "test"))
            #expect(page.contains("crashed with signal"))
        }
    }
}
