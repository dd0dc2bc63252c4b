// swift-format-ignore-file
// The snippets are Docs/Conformance.md's and Docs/WritingAScheduler.md's, as written there.
import Foundation
import SchedulerBench
import SchedulerConformance
import SchedulerKit
import Testing

@Suite(.disabled("compiled, not run: Docs/Conformance.md")) struct ConformanceDocSnippet {
let mine = ConformanceBackend(
    name: "MyScheduler",
    declarations: [.t6: "repeating work is fixed-delay, not fixed-rate"]   // rules you do not promise, and why
) { MyScheduler() }                 // a fresh scheduler per call; traits are read from its `traits`

@Test(arguments: ConformanceRules.rules(for: .scheduler))
func conformance(_ rule: ConformanceRule) {
    let result = mine.evaluate(rule)   // passed / failed(detail) / declared(reason) / notApplicable
    #expect(!result.outcome.isFailure, "\(result)")
}
}

/// Uses the global `mine` (StandIns.swift): an exit test's body may not capture a value of its test.
@Suite(.disabled("compiled, not run: Docs/Conformance.md")) struct IsolatedRunSnippet {
    @Test func eachRuleInAChildProcess() async {
var run = IsolatedRun(subject: mine, rules: ConformanceRules.all)
while let ids = run.nextRules {
    guard let child = await #expect(processExitsWith: .failure, observing: [\.standardOutputContent], performing: {
        [ids = ids as [RuleID]] in
        IsolatedRun.runInChild(subject: mine, ruleIDs: ids)
        exit(1)   // every result printed; a plain failure status keeps the expectation true
    }) else { return }
    let crash: IsolatedRun.Crash? = if case .signal(let number) = child.exitStatus { .signal(number) } else { nil }
    run.absorb(output: String(decoding: child.standardOutputContent, as: UTF8.self), crash: crash)
}
for result in run.results { #expect(!result.outcome.isFailure, "\(result)") }
    }
}

@Suite(.disabled("compiled, not run: Docs/WritingAScheduler.md")) struct GuideSnippets {
    @Test func declareAPromiseYouDoNotKeep() {
let mine = ConformanceBackend(
    name: "MyScheduler",
    declarations: [.c4: "a cancelled task's closure is released when the queue reaches it, not at cancel"]
) { MyScheduler() }
        _ = mine
    }

@Test(arguments: ConformanceRules.rules(for: .scheduler))
func conformance(_ rule: ConformanceRule) {
    let result = mine.evaluate(rule)          // passed / failed / declared / notApplicable
    #expect(!result.outcome.isFailure, Comment(rawValue: result.failureMessage))
}

    @Test func benchIt() throws {
let run = try BenchYourOwn.run([.subject(mine), .subject(.threadPool)], beside: [.rawDispatch],
                               workloads: [.throughput, .pingPong, .observeOnDrain])
print(run.table)            // run.folder holds summary.csv and samples.csv, the files `bench run` writes
    }
}

/// A global executor of one's own (Docs/Conformance.md, "Global executors").
enum MyGlobalExecutor {
    static func install() -> Bool { false }
    static var isOwnThread: Bool { false }
}

@Suite(.disabled("compiled, not run: Docs/Conformance.md")) struct GlobalExecutorSnippet {
    @Test func aGlobalExecutorOfYourOwn() {
let mine = GlobalExecutorSubject(name: "MyGlobalExecutor", isOwnThread: { MyGlobalExecutor.isOwnThread }) {
    MyGlobalExecutor.install()  // true if it took the global executor over
}
        _ = mine
    }
}
