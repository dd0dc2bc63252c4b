import Foundation
import TestSupport
import Testing

@testable import SchedulerKit

/// A pool made Swift's default executor by the runtime's executor factory (`ThreadPool.unsafeInstallAsDefaultExecutor()`).
/// The factory cannot be undone, so each check runs in a child process of its own, and reports as
/// ``PoolGlobalExecutorTests`` does.
@Suite struct PoolDefaultExecutorTests {
    static func onPool() -> Bool { Schedulers.current?.name == "default-default-executor" }

    @Test func tasksAndTheirSleepsRunOnThePool() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            await PoolDefaultExecutorTests.checkTasksAndSleeps()
        }
        PoolGlobalExecutorTests.recordFailures(printedBy: result)
    }

    static func checkTasksAndSleeps() async {
        let check = PoolGlobalExecutorTests.check
        let pool = ThreadPool(threadCount: 2, name: "default")
        check(pool.unsafeInstallAsDefaultExecutor(), "the factory did not make the pool the default executor")
        check(pool.isDefaultExecutor, "isDefaultExecutor is false after install")
        check(!ThreadPool(threadCount: 1).unsafeInstallAsDefaultExecutor(), "a second pool took over too")
        check(!ThreadPool(threadCount: 1).unsafeInstallAsGlobalExecutor(), "a pool took the hook over beside it")

        let onPool: @Sendable () -> Bool = { PoolDefaultExecutorTests.onPool() }
        check(await Task { onPool() }.value, "Task { } ran off the pool")
        check(await Task.detached { onPool() }.value, "Task.detached ran off the pool")
        check(await Task { await DefaultProbe().onPool() }.value, "a default actor's method ran off the pool")

        // Sleeps on each clock of the standard library: held by the pool's timers, never early, woken on the pool.
        // One of a second and more too: a delay's whole seconds and its fraction are two fields.
        for (clock, nap) in [
            ("Task.sleep", Duration.milliseconds(300)), ("ContinuousClock", .milliseconds(300)),
            ("SuspendingClock", .milliseconds(300)), ("Task.sleep", .milliseconds(1_200)),
        ] {
            let sleeper = Task { () -> (Duration, Bool) in
                let start = ContinuousClock.now
                switch clock {
                case "Task.sleep": try? await Task.sleep(for: nap)
                case "ContinuousClock": try? await ContinuousClock().sleep(for: nap)
                default: try? await SuspendingClock().sleep(for: nap)
                }
                return (ContinuousClock.now - start, onPool())
            }
            let held = eventually(timeout: .milliseconds(250)) { pool.core.timerCount > 0 }
            let (slept, wokeOnPool) = await sleeper.value
            check(held, "a \(clock) sleep of \(nap) was not held by the pool's timers")
            check(slept >= nap, "\(clock) woke after \(slept), before its \(nap)")
            check(wokeOnPool, "\(clock) woke off the pool")
        }

        // A cancelled long sleep ends at its cancel, not at its deadline.
        let sleeper = Task { () -> Bool in
            do {
                try await Task.sleep(for: .seconds(600))
                return false
            } catch { return true }
        }
        try? await Task.sleep(for: .milliseconds(20))
        let cancelledAt = ContinuousClock.now
        sleeper.cancel()
        let threw = await sleeper.value
        check(threw, "a cancelled sleep did not throw")
        check(ContinuousClock.now - cancelledAt < .seconds(60), "a cancelled sleep waited for its deadline")
    }

    @Test func shuttingDownThePoolThatIsTheDefaultExecutorTraps() async {
        await #expect(processExitsWith: .failure) {
            let pool = ThreadPool(threadCount: 1, name: "default")
            precondition(pool.unsafeInstallAsDefaultExecutor())
            pool.shutdown()
        }
    }
}

private actor DefaultProbe {
    func onPool() -> Bool { PoolDefaultExecutorTests.onPool() }
}
