import SchedulerConformance
import SchedulerExplorer
import SchedulerKit
import Testing

/// The random exploring scheduler declares two order rules (X2, CL4); without the declarations, the kit fails it on
/// both: the declarations say what it does, not what it might.
@Suite struct DeclarationTests {
    @Test func randomOrderFailsX2WithoutItsDeclaration() async throws {
        let subject = ExecutorSubject(name: "SchedulerExecutor(ExploringScheduler, random), undeclared") {
            let explorer = FreeRunningExplorer(strategy: .random, seed: 5)
            return ExecutorUnderTest(serial: SchedulerExecutor(explorer.scheduler), tearDown: explorer.stop)
        }
        let rule = try #require(ExecutorSubjectRules.all.first { $0.id == .x2 })
        #expect(await subject.evaluate(rule).outcome.isFailure)
    }

    @Test func randomOrderFailsCL4WithoutItsDeclaration() async throws {
        let subject = ClockSubject(name: "SchedulerClock(ExploringScheduler, random), undeclared") {
            let scheduler = ExploringScheduler(name: "clock", strategy: .random, seed: 3)
            return ClockUnderTest(SchedulerClock(scheduler), driver: .virtualTime(scheduler))
        }
        let rule = try #require(ClockRules.all.first { $0.id == .cl4 })
        #expect(await subject.evaluate(rule).outcome.isFailure)
    }
}
