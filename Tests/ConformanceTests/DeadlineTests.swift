import Dispatch
import Foundation
import SchedulerConformance
import SchedulerKit
import Testing

extension Conformance {
    /// A scheduler that never answers gets a verdict, not a hang.
    @Suite struct Deadlines {
        /// The rules a lock kept by `advance(to:)` made wait forever when tried on a shipping test scheduler, M1,
        /// whose random programs drive the clock too, and K3, E6 and T8, which drive it while they wait.
        static let ruleIDs: [RuleID] = [.s1, .s2, .s3, .s4, .c2, .c3, .k2, .k3, .v8, .e3, .e6, .t8, .m1]

        /// In a child process: the threads the control leaves blocked (some of them Swift concurrency's, in E3) die
        /// with it instead of starving the rest of the suite.
        @Test("A check that never finishes fails as not finished, saying what the kit waited on")
        func aHangIsAFailure() async throws {
            // The child exits 0 whatever it found and prints what was wrong: a failed exit expectation returns no
            // result, so an exit code of 1 would lose the lines that say why (it did once, on a fresh machine).
            let child = await #expect(
                processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
            ) {
                for failure in Deadlines.verdictsOnALockKeepingClock() where !failure.isEmpty {
                    print("wrong: \(failure)")
                }
                exit(0)
            }
            if let child {
                let output = String(decoding: child.standardOutputContent + child.standardErrorContent, as: UTF8.self)
                #expect(!output.contains("wrong: "), Comment(rawValue: output))
            }
        }

        /// Each rule's verdict on the control, all at once (as a test runner would run them), each on a thread of its
        /// own; one line per verdict that is not what it should be.
        static func verdictsOnALockKeepingClock() -> [String] {
            let backend = ConformanceBackend(name: "Control: advance keeps its lock", pendingWorkOnRelease: .dropped) {
                LockKeepingVirtualClock()
            }
            let rules = ruleIDs.compactMap(ConformanceRules.rule)
            let results = Locked<[RuleResult]>([])
            let group = DispatchGroup()
            for rule in rules {
                group.enter()
                Thread {
                    let result = backend.evaluate(rule, deadline: .seconds(2))
                    results.withLock { $0.append(result) }
                    group.leave()
                }.start()
            }
            // A verdict must come; a generous bound, only so that a regression fails instead of hanging the suite.
            guard group.wait(timeout: .now() + 120) == .success else { return ["some rule gave no verdict in 120 s"] }
            let all = results.withLock { $0 }
            return [all.count == ruleIDs.count ? "" : "\(all.count) verdicts for \(ruleIDs.count) rules"]
                + all.map { result in
                    let detail = result.outcome.detail
                    guard result.outcome.isFailure, detail.contains("did not finish in") else {
                        return "\(result): not a failure as not finished"
                    }
                    return detail.contains("inside") || detail.contains("waiting until")
                        ? "" : "\(result): says nothing of what the kit waited on"
                }
        }

        @Test("A correct scheduler finishes well within its deadline")
        func aCorrectSchedulerIsNotCutShort() throws {
            let rule = try #require(ConformanceRules.rule(.s2))
            let result = ConformanceBackend.testScheduler.evaluate(rule, deadline: .seconds(60))
            #expect(result.outcome.label == "passed", "\(result)")
        }
    }
}
