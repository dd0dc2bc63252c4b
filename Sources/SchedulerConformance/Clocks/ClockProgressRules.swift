import Foundation
import SchedulerKit

/// CL7: the clocks' part of progress (family G for schedulers): a nearer deadline is not left waiting for a farther
/// one. Real clocks only; a virtual clock wakes what is due when it is advanced (CL5).
enum ClockProgressRules {
    static let nearerSleep = ConformanceRule.clock(
        id: .cl7,
        statement:
            "A sleep with a nearer deadline, begun while a farther one sleeps, ends on time: with a sleeper due in 10 s asleep (5 ms given for it to reach its sleep), a sleeper due in 30 ms wakes no earlier than its deadline and at most 500 ms after it, 6 times.",
        why:
            "Timeouts and debounces sleep for short spans while long sleeps are pending: a clock whose timer is not re-armed for a nearer deadline makes a 30 ms timeout end with the 10 s one.",
        catches:
            "A clock over a timer queue that sleeps until the earliest deadline it knew when it went to sleep (negative control: SchedulerClock over such a scheduler).",
        kinds: [.real]
    ) { clock in
        let room = SleeperRoom(clock)
        defer { room.close() }
        var lateness: [Duration] = []
        for _ in 0..<6 {
            let before = room.asleep.value
            let far = room.sleeper(until: clock.now() + .seconds(10), woke: { _ in })
            defer { far.cancel() }
            try await room.settle(before + 1)
            try? await Task.sleep(for: .milliseconds(5))  // the far sleeper reaches its sleep
            let deadline = clock.now() + .milliseconds(30)
            let woke = Shared<Duration?>(nil)
            room.sleeper(until: deadline, woke: { now in woke.update { $0 = now } })
            let bound = ProgressRules.lateBound
            try await poll("the sleeper due in 30 ms, begun while one due in 10 s slept", timeout: .seconds(3) + bound)
            {
                woke.value != nil
            }
            let now = woke.value!
            try require(now >= deadline, "the sleeper due in 30 ms woke \(readable(deadline - now)) early")
            try require(
                now - deadline <= bound,
                "the sleeper due in 30 ms, begun while one due in 10 s slept, woke \(readable(now - deadline)) late (bound \(readable(bound)))"
            )
            lateness.append(now - deadline)
        }
        return "latest \(readable(lateness.max() ?? .zero)) after its deadline"
    }
}
