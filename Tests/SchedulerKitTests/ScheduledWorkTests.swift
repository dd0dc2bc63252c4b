import Dispatch
import SchedulerKit
import TestSupport
import Testing

@Suite struct ScheduledWorkTests {
    @Test func cancelBeforeRunWinsOnceAndTheWorkNeverRuns() {
        let ran = Flag()
        let task = ScheduledWork { ran.set(true) }
        #expect(task.cancel())
        #expect(!task.cancel(), "idempotent: only the first cancel returns true")
        #expect(task.isCancelled)
        #expect(!task.run())
        #expect(!ran.value)
    }

    @Test func cancellingRunningOrFinishedWorkReturnsFalse() {
        let cancelledWhileRunning = Shared<Bool?>(nil)
        let holder = Shared<ScheduledWork?>(nil)
        let task = ScheduledWork { cancelledWhileRunning.update { $0 = holder.value!.cancel() } }
        holder.update { $0 = task }
        #expect(task.run())
        #expect(cancelledWhileRunning.value == false)
        #expect(!task.cancel())
        #expect(!task.isCancelled && task.hasStarted)
        holder.update { $0 = nil }
    }

    @Test func cancelReleasesTheClosureAtOnce() {
        final class Capture: Sendable {}
        weak var weakCapture: Capture?
        let task: ScheduledWork = {
            let capture = Capture()
            weakCapture = capture
            return ScheduledWork { _ = capture }
        }()
        #expect(weakCapture != nil)
        task.cancel()
        #expect(weakCapture == nil, "captures are released by cancel(), not when a queue reaches the task")
    }

    @Test func ofEightRacingCancelsExactlyOneWins() {
        for _ in 0..<2_000 {
            let task = ScheduledWork {}
            let wins = Counter()
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                if task.cancel() { wins.increment() }
            }
            #expect(wins.value == 1)
        }
    }

    @Test func cancelIsTruthfulWhenRacingTheStart() {
        var mismatches = 0
        for _ in 0..<20_000 {
            let ran = Flag()
            let task = ScheduledWork { ran.set(true) }
            let cancelled = Flag()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { task.run() } else { cancelled.set(task.cancel()) }
            }
            if ran.value == cancelled.value { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func settledHandlesCannotBeCancelled() {
        #expect(SettledWork.refused.isCancelled && !SettledWork.refused.cancel())
        #expect(!SettledWork.ran.isCancelled && !SettledWork.ran.cancel())
    }
}
