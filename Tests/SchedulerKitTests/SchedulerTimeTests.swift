import Dispatch
import SchedulerKit
import TestSupport
import Testing

@Suite struct SchedulerTimeTests {
    @Test func arithmeticWithDurations() {
        let t = SchedulerTime(nanoseconds: 1_000)
        #expect((t + .microseconds(2)).nanoseconds == 3_000)
        #expect((t - .nanoseconds(400)).nanoseconds == 600)
        #expect((t - .seconds(1)) == .zero, "times before zero clamp to zero")
        #expect(SchedulerTime(nanoseconds: 5_000) - t == .nanoseconds(4_000))
        #expect(t.duration(to: .zero) == .nanoseconds(-1_000))
        #expect(SchedulerTime.zero < t && t < .distantFuture)
    }

    @Test func monotonicClockIsDispatchUptimeClock() {
        let before = DispatchTime.now().uptimeNanoseconds
        let now = SchedulerTime.monotonicNow()
        let after = DispatchTime.now().uptimeNanoseconds
        #expect(UInt64(now.nanoseconds) >= before && UInt64(now.nanoseconds) <= after)
        #expect(SchedulerTime.monotonicNow() >= now, "never goes backwards")
    }

    @Test func subNanosecondDurationsRoundTowardZero() {
        #expect(Duration.nanoseconds(3).nanosecondsChecked() == 3)
        #expect((Duration.nanoseconds(3) / 2).nanosecondsChecked() == 1)
    }

    @Test func overflowingDeadlineIsAPreconditionFailure() async {
        await #expect(processExitsWith: .failure) {
            _ = SchedulerTime(nanoseconds: .max - 10) + .seconds(1)
        }
    }

    @Test func negativeInstantIsAPreconditionFailure() async {
        await #expect(processExitsWith: .failure) {
            _ = SchedulerTime(nanoseconds: -1)
        }
    }
}
