import Dispatch
import Foundation
import SchedulerKit
import TestSupport
import Testing

/// The pool's wake-ups and timers in the states a conformance rule cannot set up from outside: a single sleeping
/// worker, every worker busy, two lanes made ready in one step. Each test builds its state by construction (a blocked
/// worker, a pool of one thread), so a pass is not timing luck; none asserts a duration.
@Suite struct ThreadPoolWakeUpTests {
    /// A pool's only worker sleeps without a time-out when no timer is pending; a new timer must wake it to re-compute
    /// its time-out, or the delayed work waits for the next unrelated wake-up (for ever, here).
    @Test func aNewTimerWakesTheOnlySleepingWorker() {
        let pool = ThreadPool(threadCount: 1, name: "one-sleeper")
        defer { pool.shutdown() }
        let scheduler = pool.makeScheduler(name: "timed")
        #expect(drain(scheduler))
        pause(milliseconds: 50)  // past its spin: the worker now sleeps with no time-out
        let ran = DispatchSemaphore(value: 0)
        scheduler.schedule(after: .milliseconds(5)) { ran.signal() }
        #expect(waited(ran), "delayed work never ran: the sleeping worker was not woken for the new timer")
    }

    /// Work due now goes behind the timers that came due before it, also when no worker is free to move them: with
    /// the pool's one worker blocked, a due-now task scheduled after a timer's deadline passed must still run second.
    @Test func dueNowWorkWaitsBehindATimerThatCameDueWhileEveryWorkerWasBusy() {
        let pool = ThreadPool(threadCount: 1, name: "all-busy")
        defer { pool.shutdown() }
        let scheduler = pool.makeScheduler(name: "ordered")
        let gate = Gate.blocking(pool.makeScheduler(name: "blocker"))
        let order = Shared<[String]>([])
        let timerDue = scheduler.now + .milliseconds(5)
        scheduler.schedule(at: timerDue) { order.append("timer") }
        while SchedulerTime.monotonicNow() <= timerDue { pause(milliseconds: 1) }
        scheduler.schedule(at: scheduler.now) { order.append("due now") }
        gate.open()
        #expect(drain(scheduler))
        #expect(order.value == ["timer", "due now"])
    }

    /// Two lanes made ready in one step (their timers share a deadline, so the worker that wakes for it moves both):
    /// that worker takes the first and must wake the other worker for the second, or a first task that waits for
    /// the second one strands it behind a sleeper. The second worker sleeps with no time-out (the shared deadline
    /// woke only one), so nothing else wakes it.
    @Test func aWorkerThatFindsTwoReadyLanesWakesTheOtherWorker() {
        let pool = ThreadPool(threadCount: 2, name: "pass-on")
        defer { pool.shutdown() }
        let (a, b) = (pool.makeScheduler(name: "a"), pool.makeScheduler(name: "b"))
        #expect(drain(a))
        pause(milliseconds: 50)  // both workers past their spin, asleep with no time-out
        let (bRan, aEnded, bRanFirst) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), Flag())
        let deadline = a.now + .milliseconds(100)
        a.schedule(at: deadline) {
            bRanFirst.set(waited(bRan, timeout: .seconds(5)))
            aEnded.signal()
        }
        b.schedule(at: deadline) { bRan.signal() }
        #expect(waited(aEnded, timeout: .seconds(30)))
        #expect(bRanFirst.value, "b's task never ran while a's task waited for it: the second worker was not woken")
    }

    /// A worker waiting for a timer sleeps until it (on CLOCK_MONOTONIC): a wait on another clock returns at once
    /// and the worker spins. Measured as the worker thread's own CPU time (kernel's schedstat), which other
    /// processes and tests cannot raise: a sleeping worker uses almost none of the window.
    @Test func aWorkerWaitingForADistantTimerDoesNotSpin() throws {
        let pool = ThreadPool(threadCount: 1, name: "idle")
        defer { pool.shutdown() }
        let scheduler = pool.makeScheduler(name: "idle")
        let worker = Shared<String>("")
        scheduler.schedule { worker.set(KernelThread.currentID()) }
        #expect(drain(scheduler))
        let pending = scheduler.schedule(after: .seconds(60)) {}
        defer { pending.cancel() }
        pause(milliseconds: 50)  // past its spin, now waiting for the timer
        let before = try KernelThread.cpuNanoseconds(worker.value)
        pause(milliseconds: 400)
        let used = try KernelThread.cpuNanoseconds(worker.value) - before
        #expect(used < 100_000_000, "the idle worker used \(used / 1_000_000) ms of CPU in 400 ms: it spins")
    }
}
