import Dispatch
import Foundation
import SchedulerKit

/// Negative control for G1: a serial scheduler whose drainer looks for more work before it gives up ownership of the
/// queue, with the gap between the two widened to 2 ms (a preemption at the wrong instruction, made likely). A push
/// that lands in the gap sees the queue owned and starts nothing; the owner then leaves, and the task waits for the
/// next push to rescue it. Floods never notice: the next push always comes.
final class StrandingHandOffScheduler: Scheduler {
    let name = "stranding-hand-off"
    private let state = Locked((queue: [ScheduledWork](), owned: false))
    var traits: SchedulerTraits { [.serial, .asynchronous, .sharedThreads] }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        let start = state.withLock { state -> Bool in
            state.queue.append(task)
            defer { state.owned = true }
            return !state.owned
        }
        if start { DispatchQueue.global().async { self.drain() } }
        return task
    }

    private func drain() {
        while true {
            let next = state.withLock { state in state.queue.isEmpty ? nil : state.queue.removeFirst() }
            guard let next else {
                usleep(2_000)  // the defect's window: found nothing, still the owner
                state.withLock { $0.owned = false }
                return
            }
            _ = next.run()
        }
    }
}

/// Negative control for G2 (and CL7 through a clock over it): a timed scheduler whose timer thread sleeps until the
/// earliest deadline it knew when it went to sleep, and is woken only when a timer arrives at an empty queue. A
/// nearer deadline armed while a farther one is pending waits for the farther one.
final class UnrearmedTimerScheduler: TimedScheduler, @unchecked Sendable {
    // @unchecked Sendable: `timers` and `started` are touched only with `condition` locked; `work` is a serial
    // Dispatch queue and `repeating` a Sendable scheduler.
    let name = "unrearmed-timer"
    private let work = DispatchQueue(label: "unrearmed-timer")
    private let repeating = DispatchQueueScheduler(name: "unrearmed-timer-repeating")
    private let condition = NSCondition()
    private var timers: [(deadline: SchedulerTime, task: ScheduledWork)] = []
    private var started = false
    var traits: SchedulerTraits { [.serial, .asynchronous, .timed, .sharedThreads] }
    var now: SchedulerTime { .monotonicNow() }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        self.work.async { _ = task.run() }
        return task
    }

    func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        condition.lock()
        let wasEmpty = timers.isEmpty
        timers.append((deadline, task))
        if !started {
            started = true
            Thread { [self] in timerLoop() }.start()
        }
        if wasEmpty { condition.signal() }  // the defect: no signal when a nearer deadline joins a non-empty queue
        condition.unlock()
        return task
    }

    func schedule(
        at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        // Repeating work is not what this control is about (it claims no `repeating` trait): Dispatch's.
        repeating.schedule(at: start, every: interval, leeway: leeway, work)
    }

    private func timerLoop() {
        condition.lock()
        while true {
            guard let next = timers.indices.min(by: { timers[$0].deadline < timers[$1].deadline }) else {
                condition.wait()
                continue
            }
            let deadline = timers[next].deadline
            if SchedulerTime.monotonicNow() >= deadline {
                let task = timers.remove(at: next).task
                work.async { _ = task.run() }
                continue
            }
            let seconds = Double(SchedulerTime.monotonicNow().duration(to: deadline).nanosecondsChecked()) / 1e9
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        }
    }
}

/// Negative control for G1's concurrent shape: a concurrent scheduler of width 2 that wakes a worker only when none is
/// awake, trusting the awake one to come to the rest. When that worker's task waits for a task scheduled beside it,
/// the other task waits for ever: the wake-up was not passed on.
final class LazyWakeConcurrentScheduler: ConcurrentScheduler, @unchecked Sendable {
    // @unchecked Sendable: `queue` and `awake` are touched only with `condition` locked.
    let name = "lazy-wake"
    let width = 2
    private let condition = NSCondition()
    private var queue: [ScheduledWork] = []
    private var awake = 0
    var traits: SchedulerTraits { [.concurrent, .asynchronous] }

    init() {
        for _ in 0..<width { Thread { [self] in work() }.start() }
    }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let task = ScheduledWork(work)
        condition.lock()
        queue.append(task)
        if awake == 0 {  // the defect: a worker already awake is trusted to take this one too
            awake += 1
            condition.signal()
        }
        condition.unlock()
        return task
    }

    private func work() {
        condition.lock()
        while true {
            if queue.isEmpty {
                condition.wait()
                continue
            }
            let task = queue.removeFirst()
            condition.unlock()
            _ = task.run()
            condition.lock()
            if queue.isEmpty { awake = max(0, awake - 1) }
        }
    }
}
