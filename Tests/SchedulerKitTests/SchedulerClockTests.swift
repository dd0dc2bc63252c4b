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

    /// A sleep on a pool that shut down, begun before the shutdown or after it, ends with CancellationError instead of
    /// waiting for a wake-up the pool will never run.
    @Test func aSleepOnAShutDownPoolEnds() async throws {
        let pool = ThreadPool(threadCount: 2, name: "clock-shutdown")
        let clock = SchedulerClock(pool.makeScheduler(name: "clock"))
        let before = Task { try await clock.sleep(for: .seconds(3_600)) }
        try await Task.sleep(for: .milliseconds(50))  // asleep by now (the result is the same if not)
        pool.shutdown()
        let after = Task { try await clock.sleep(for: .milliseconds(10)) }
        for task in [before, after] {
            let ended = Task {
                do {
                    try await task.value
                    return "returned"
                } catch {
                    return error is CancellationError ? "cancelled" : "\(error)"
                }
            }
            let watchdogFired = Shared(false)
            let watchdog = Task {
                try await Task.sleep(for: .seconds(5))
                watchdogFired.update { $0 = true }
                task.cancel()  // a hang becomes a failure below, not a stuck test
            }
            let outcome = await ended.value
            watchdog.cancel()
            #expect(!watchdogFired.value, "a sleep on a shut-down pool had not ended after 5 s")
            #expect(outcome == "cancelled", "a sleep on a shut-down pool \(outcome)")
        }
    }
}
