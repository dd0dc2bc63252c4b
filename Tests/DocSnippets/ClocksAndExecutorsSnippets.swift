// swift-format-ignore-file
// The snippets are Docs/JudgingClocksAndExecutors.md's, as written there.
import SchedulerConformance
import SchedulerKit
import Testing

@Suite(.disabled("compiled, not run: Docs/JudgingClocksAndExecutors.md")) struct ExecutorSnippet {
let mine = ExecutorSubject(name: "MyExecutor", declarations: [.x2: "jobs run by priority, not in order"]) {
    let executor = MyExecutor()
    return ExecutorUnderTest(serial: executor, tearDown: { executor.shutdown() })   // or task: for a TaskExecutor
}

@Test(arguments: ExecutorSubjectRules.all)
func executorKeepsTheRule(_ rule: ExecutorSubjectRule) async {
    let result = await mine.evaluate(rule)
    #expect(!result.outcome.isFailure, "\(result)")
}
}

@Suite(.disabled("compiled, not run: Docs/JudgingClocksAndExecutors.md")) struct ClockSnippets {
let uptime = ClockSubject(name: "UptimeClock", summary: "CLOCK_MONOTONIC, read directly") {
    ClockUnderTest(UptimeClock())
}

@Test(arguments: ClockRules.all)
func clockKeepsTheRule(_ rule: ClockRule) async {
    let result = await uptime.evaluate(rule)          // passed, failed(detail), declared(reason) or not applicable
    #expect(!result.outcome.isFailure, "\(result)")
}

    @Test func aVirtualClock() {
let subject = ClockSubject(name: "SchedulerClock(TestScheduler)") {
    let scheduler = TestScheduler()
    return ClockUnderTest(SchedulerClock(scheduler), driver: .virtualTime(scheduler))
}
        _ = subject
    }
}

/// `Docs/Schedulers.md`, "The pool as Swift's global executor": compiled, never called (installing it would move this
/// test process's every task; `PoolGlobalExecutorTests` runs it in child processes).
func poolAsGlobalExecutorSnippet() {
    // First thing in main.swift, before any task starts:
    let pool = ThreadPool(name: "tasks")
    pool.unsafeInstallAsGlobalExecutor()
}
