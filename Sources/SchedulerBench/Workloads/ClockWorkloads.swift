import AsyncAlgorithms
import Dispatch
import SchedulerConformance
import SchedulerKit
import Synchronization

/// Repeating work at a fixed rate, as W20 arms it: `tick` runs at `first`, `first + interval`, … until it returns
/// false.
package struct Ticker: Sendable {
    let start: @Sendable (_ first: SchedulerTime, _ interval: Duration, _ tick: @escaping @Sendable () -> Bool) -> Void

    /// A timed scheduler's repeating work (`schedule(at:every:)`), cancelled by the tick that returns false.
    init(repeatingOn scheduler: any TimedScheduler) {
        start = { first, interval, tick in
            let handle = Locked<(any Cancellable)?>(nil)
            let stopped = Locked(false)
            let armed = scheduler.schedule(at: first, every: interval) {
                if !tick() {
                    stopped.withLock { $0 = true }
                    _ = handle.withLock { $0 }?.cancel()
                }
            }
            handle.withLock { $0 = armed }
            // A tick that ended the work before the handle was stored could not cancel it.
            if stopped.withLock({ $0 }) { armed.cancel() }
        }
    }

    private init(start: @escaping @Sendable (SchedulerTime, Duration, @escaping @Sendable () -> Bool) -> Void) {
        self.start = start
    }

    /// swift-async-algorithms' `AsyncTimerSequence` on the standard library's `ContinuousClock`, iterated by a
    /// detached task: each tick is due one interval after the previous one was due (fixed rate), the first one
    /// interval after the sequence is first asked, so the task starts iterating one interval before `first`.
    static let asyncTimerSequence = Ticker { first, interval, tick in
        Task.detached {
            let lead = SchedulerTime.monotonicNow().duration(to: first) - interval
            if lead > .zero { try? await Task.sleep(for: lead) }
            for await _ in AsyncTimerSequence(interval: interval, clock: ContinuousClock()) {
                if !tick() { break }
            }
        }
    }
}

extension Workload {
    /// W20: a repeating timer every `interval_us`, `ticks` ticks; each tick's lateness is its start minus its place in
    /// the plan (first + k · interval). A fixed-rate timer's lateness stays level, one that counts each interval
    /// from the last tick's start drifts by what a tick costs, tick after tick.
    static let timerDrift = Workload(
        id: .timerDrift, name: "timer-drift", summary: "how a repeating timer keeps to its plan, tick after tick",
        requires: [.clock], metrics: [.driftPerTick, .lastTickLateness],
        configurations: {
            [Parameters([.ticks: $0.size(full: 200, quick: 50, smoke: 5), .intervalMicroseconds: 1_000])]
        }
    ) { lanes, backend, parameters in
        guard let ticker = lanes.lane("timer").ticker else {
            preconditionFailure("\(backend.id) has no repeating timer")
        }
        let (ticks, interval) = (parameters[.ticks], Int64(parameters[.intervalMicroseconds]) * 1_000)
        let slots = SampleSlots(count: ticks)
        let count = Atomic(0)
        let done = DispatchSemaphore(value: 0)
        let first = SchedulerTime.monotonicNow().advanced(by: .milliseconds(2))
        ticker.start(first, .nanoseconds(interval)) {
            let now = SchedulerTime.monotonicNow().nanoseconds
            let index = count.add(1, ordering: .relaxed).oldValue
            guard index < ticks else { return false }
            slots.set(index, UInt64(bitPattern: now - (first.nanoseconds + Int64(index) * interval)))
            if index == ticks - 1 { done.signal() }
            return index < ticks - 1
        }
        done.wait()
        let lateness = slots.values.map { Double(Int64(bitPattern: $0)) }
        return RoundResult(values: [
            .driftPerTick: TickDrift.slope(lateness), .lastTickLateness: lateness.last ?? 0,
        ])
    }

    /// W21: `sleepers` tasks sleep on a virtual clock until deadlines spread over 100 ms (100 distinct instants),
    /// then one advance by 100 ms wakes them all; the figure is the advance's wall-clock time, from its start until
    /// the last sleeper ran, per sleeper: what a test that drives many timers pays for its clock.
    static let virtualSleepers = Workload(
        id: .virtualSleepers, name: "virtual-sleepers", summary: "sleepers one advance of a virtual clock wakes",
        requires: [.virtualClock], metrics: [.nsPerSleeper],
        configurations: { [Parameters([.sleepers: $0.size(full: 2_000, quick: 500, smoke: 20)])] }
    ) { lanes, backend, parameters in
        guard let clock = lanes.lane("clock").virtualClock, let driver = clock.driver else {
            preconditionFailure("\(backend.id) has no virtual clock")
        }
        let sleepers = parameters[.sleepers]
        let woke = Countdown(sleepers)
        let goingToSleep = Countdown(sleepers)
        let started = Locked<UInt64>(0)
        let advanced = DispatchSemaphore(value: 0)
        Task.detached {
            for index in 0..<sleepers {
                Task(executorPreference: driver.executor) {
                    goingToSleep.tick()
                    try? await clock.sleep(.milliseconds(1 + index % 100))
                    woke.tick()
                }
            }
            // Every sleeper asleep before the clock moves: one that went to sleep after the advance would sleep for
            // ever. A clock with no executor of its own (swift-clocks' TestClock) has its sleepers start on the
            // global executor in their own time, which a busy machine delays past any fixed settle.
            repeat { await driver.settle() } while goingToSleep.remainingCount > 0
            await driver.settle()
            started.withLock { $0 = Clock.now() }
            await driver.advance(.milliseconds(100))
            advanced.signal()
        }
        advanced.wait()
        // A sleeper that was counted but had not reached the clock when it moved sleeps on; move it again, so that a
        // run never waits for ever (that round's figure then includes the wait).
        while !woke.wait(timeout: .now() + .seconds(5)) {
            let again = DispatchSemaphore(value: 0)
            Task.detached {
                await driver.advance(.milliseconds(100))
                again.signal()
            }
            again.wait()
        }
        let elapsed = Clock.now() &- started.withLock { $0 }
        return RoundResult(values: [.nsPerSleeper: Double(elapsed) / Double(sleepers)])
    }
}

/// The least-squares slope of a tick's lateness against its index: how much later each tick runs than the last.
enum TickDrift {
    static func slope(_ lateness: [Double]) -> Double {
        let count = Double(lateness.count)
        guard count > 1 else { return 0 }
        let meanIndex = (count - 1) / 2
        let meanLate = lateness.reduce(0, +) / count
        var covariance = 0.0
        var variance = 0.0
        for (index, late) in lateness.enumerated() {
            let offset = Double(index) - meanIndex
            covariance += offset * (late - meanLate)
            variance += offset * offset
        }
        return covariance / variance
    }
}
