import SchedulerKit
import TestSupport
import Testing

@Suite struct SchedulerClockTests {
    @Test func aSleeperOnTheTestSchedulersExecutorWakesInsideTheAdvanceAtItsDeadline() async throws {
        let scheduler = TestScheduler()
        let clock = SchedulerClock(scheduler)
        let woke = Shared<[Int64]>([])
        for milliseconds in [30, 10, 20] {
            Task(executorPreference: SchedulerTaskExecutor(scheduler)) {
                try await clock.sleep(for: .milliseconds(milliseconds))
                woke.update { $0.append(scheduler.now.nanoseconds / 1_000_000) }
            }
        }
        scheduler.advance()  // each sleeper reaches its sleep
        #expect(scheduler.pendingCount == 3)
        scheduler.advance(by: .milliseconds(25))
        #expect(woke.value == [10, 20])
        scheduler.advance(by: .milliseconds(10))
        #expect(woke.value == [10, 20, 30])
    }

    @Test func aDeadlineAlreadyDueReturnsWithoutTheScheduler() async throws {
        let scheduler = TestScheduler(now: SchedulerTime(nanoseconds: 1_000))
        let clock = SchedulerClock(scheduler)
        try await clock.sleep(until: clock.now)
        try await clock.sleep(until: SchedulerClock.Instant(.zero))
        #expect(scheduler.pendingCount == 0)
        #expect(clock.now.time == SchedulerTime(nanoseconds: 1_000))
    }

    @Test func cancellingASleeperThrowsAndCancelsItsWakeUp() async throws {
        let scheduler = TestScheduler()
        let clock = SchedulerClock(scheduler)
        let sleeper = Task(executorPreference: SchedulerTaskExecutor(scheduler)) {
            try await clock.sleep(for: .seconds(60))
        }
        scheduler.advance()
        #expect(scheduler.pendingCount == 1)
        sleeper.cancel()
        scheduler.advance()  // the sleeper's resumption is a job of the scheduler
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        // Its wake-up was cancelled with it: running everything left runs nothing and leaves the clock where it is (a
        // wake-up left queued would run at 60 s and move `now` there).
        #expect(scheduler.run() == .drained(steps: 0))
        #expect(scheduler.now == .zero)
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsWithoutScheduling() async {
        let scheduler = TestScheduler()
        let clock = SchedulerClock(scheduler)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scheduler.pendingCount == 0)
    }

    @Test func nowIsTheSchedulersClock() {
        let scheduler = TestScheduler(now: SchedulerTime(nanoseconds: 5))
        #expect(SchedulerClock(scheduler).now.time == scheduler.now)
        #expect(SchedulerClock(scheduler).minimumResolution == .nanoseconds(1))
    }
}
