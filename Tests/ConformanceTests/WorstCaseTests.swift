import Foundation
import SchedulerConformance
import SchedulerKit
import Testing

extension Conformance {
    /// How long a whole matrix takes on the worst subjects (`scripts/worst-cases.sh`): one that deadlocks in every
    /// rule, with the deadlines a user's suite gets, and one that crashes in every rule, isolated as
    /// `bench conformance` isolates. Minutes of waiting by design, so they run only when asked
    /// (`SCHEDULERKIT_WORST_CASES=1`); the suite's deadline and crash tests check the same paths in seconds.
    @Suite(.enabled(if: ProcessInfo.processInfo.environment["SCHEDULERKIT_WORST_CASES"] == "1"))
    struct WorstCases {
        static var rules: [ConformanceRule] {
            ConformanceRules.all.filter { $0.applies(to: DispatchQueueScheduler.traits) }
        }
        /// T7 compares the traits with the protocols the type conforms to and calls nothing: it passes on both.
        static let callsNothing: Set<RuleID> = [.t7]

        /// In a child process, so the threads left blocked inside the subject die with it.
        @Test("A subject that deadlocks in every rule gets a matrix of 'did not finish'")
        func deadlockEverywhere() async throws {
            let started = ContinuousClock.now
            let child = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let backend = WorstCaseScheduler.backend(.blocksForever)
                var wrong = 0
                for rule in WorstCases.rules {
                    let result = backend.evaluate(rule)
                    let finished = !result.outcome.detail.contains("did not finish in")
                    let expected =
                        WorstCases.callsNothing.contains(rule.id)
                        ? result.outcome.label == "passed" : result.outcome.isFailure && !finished
                    if !expected { wrong += 1 }
                    print("\(rule.id)\t\(result.outcome.label)\t\(result.outcome.detail.prefix(100))")
                }
                exit(wrong == 0 ? 0 : 1)
            }
            let output = child.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
            print(output)
            print("worst case, deadlock everywhere: \(Self.rules.count) rules in \(ContinuousClock.now - started)")
        }

        @Test("A subject that crashes in every rule gets a matrix of crashes")
        func crashEverywhere() async throws {
            let started = ContinuousClock.now
            var run = IsolatedRun(backend: WorstCaseScheduler.backend(.traps), rules: Self.rules)
            var children = 0
            while let ids = run.nextRules {
                children += 1
                let child = await #expect(processExitsWith: .failure, observing: [\.standardOutputContent]) {
                    [ids = ids as [RuleID]] in
                    IsolatedRun.runInChild(subject: WorstCaseScheduler.backend(.traps), ruleIDs: ids)
                    exit(1)
                }
                guard let child else { return }
                run.absorb(
                    output: String(decoding: child.standardOutputContent, as: UTF8.self), crash: .of(child.exitStatus))
                try #require(children <= Self.rules.count, "more child processes than rules")
            }
            #expect(run.results.count == Self.rules.count)
            for result in run.results {
                let expected =
                    Self.callsNothing.contains(result.ruleID)
                    ? result.outcome.label == "passed" : result.outcome.detail.contains("crashed with signal")
                #expect(expected, "\(result.ruleID): \(result.outcome.detail)")
            }
            print(
                "worst case, crash everywhere: \(Self.rules.count) rules, \(children) children, in \(ContinuousClock.now - started)"
            )
        }

        /// As `bench conformance` isolates: children that die at once by a signal, each leaving behind a process that
        /// holds its pipes open (as a crash handler that writes a long backtrace does), so the parent must not wait
        /// for the pipes to close.
        @Test("Children that crash and leave their pipes open get a matrix of crashes")
        func crashEverywhereWithPipesHeldOpen() throws {
            let started = ContinuousClock.now
            let results = try IsolatedRun.runAll(
                rules: Self.rules, subjects: [WorstCaseScheduler.backend(.traps)], executable: "/bin/sh",
                arguments: { _, _ in ["-c", "sleep 20 & kill -SEGV $$"] })
            #expect(results.count == Self.rules.count)
            for result in results where !Self.callsNothing.contains(result.ruleID) {
                #expect(
                    result.outcome.detail.contains("crashed with signal 11"),
                    "\(result.ruleID): \(result.outcome.detail)")
            }
            print(
                "worst case, crash everywhere, pipes held open: \(results.count) rules in \(ContinuousClock.now - started)"
            )
        }
    }
}
