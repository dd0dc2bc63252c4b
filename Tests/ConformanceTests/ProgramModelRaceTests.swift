import SchedulerKit
import Testing

@testable import SchedulerConformance

/// The model's reading of two cancels that overlap, made deterministic: a handle whose `cancel()` records the
/// task's own cancel while it is being cancelled from outside. Seen in a ThreadSanitizer run on NIO's event loop:
/// "cancel() of t4 from inside its own tick returned false (C6's promise)" while the check's cancel of t4 had
/// already taken the handle.
@Suite struct ProgramModelRaceTests {
    static let traits: SchedulerTraits = [.serial, .asynchronous, .timed, .repeating, .setsCurrent]

    /// Cancels `task` from outside; while that cancel is under way (`raced`), the task cancels itself and is told
    /// false, as the handle's first taker already said true.
    final class RacingHandle: Cancellable {
        let raced: @Sendable () -> Void
        init(raced: @escaping @Sendable () -> Void) { self.raced = raced }
        func cancel() -> Bool {
            raced()
            return true
        }
        var isCancelled: Bool { true }
    }

    final class TakenHandle: Cancellable {
        func cancel() -> Bool { false }
        var isCancelled: Bool { true }
    }

    func run(ownCancelDuringOutsideCancel: Bool) throws -> [ProgramViolation] {
        let program = try #require(SchedulerProgram(code: "r1@2/1x1,p2,c1"))
        let model = ProgramModel(traits: Self.traits, width: nil, declared: [RuleID.n2])
        let run = ProgramRun(program, on: TestScheduler(), model: model)
        let record = run.record
        let task = ProgramTask(number: 1)
        record.scheduled(task, deadline: nil, callNow: nil, by: nil, interval: .milliseconds(1))
        record.began(task, tick: 1, now: nil, currentIsScheduler: true, onScheduleStack: false)
        let ownCancel: @Sendable () -> Void = { record.cancel(task, by: task, TakenHandle()) }
        if ownCancelDuringOutsideCancel {
            record.cancel(task, by: nil, RacingHandle(raced: ownCancel))
        } else {
            ownCancel()
            record.cancel(task, by: nil, RacingHandle(raced: {}))
        }
        record.ended(task)
        return model.violations(of: run).filter { $0.rule == .c6 }
    }

    @Test("A task's own cancel may say false when a cancel from outside began first and took the handle")
    func ownCancelLosesARace() throws {
        #expect(try run(ownCancelDuringOutsideCancel: true).isEmpty)
    }

    @Test("A task's own cancel that says false with no cancel under way breaks C6")
    func ownCancelFalseAlone() throws {
        let found = try run(ownCancelDuringOutsideCancel: false)
        #expect(found.map(\.rule) == [.c6], "\(found)")
    }
}
