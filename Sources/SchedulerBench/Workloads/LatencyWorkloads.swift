import Dispatch
import Foundation
import SchedulerKit
import ToolSupport

extension Workload {
    static let latencyMetrics = Metric.latencyPercentiles.map(\.metric)

    /// W5: schedule-to-start latency of one probe at a time, on an idle backend (`load=0`) or while one busy lane per
    /// core runs back-to-back 20 µs tasks on the same backend instance (`load=1`, saturated).
    static let startLatency = Workload(
        id: .startLatency, name: "start-latency", summary: "schedule-to-start latency, light and saturated",
        requires: [.serial, .asynchronous, .promptWakeUp], metrics: latencyMetrics,
        configurations: { scale in
            [0, 1].map { Parameters([.load: $0, .probes: scale.size(full: 2_000, quick: 1_000, smoke: 20)]) }
        }
    ) { lanes, _, parameters in
        let probes = parameters[.probes]
        let overhead = UInt64(BenchClock.overhead)
        let load = parameters[.load] == 1 ? Load(lanes.lanes(Clock.cores, prefix: "load")) : nil
        let lane = lanes.lane("probe")
        let slots = SampleSlots(count: probes)
        let arrived = DispatchSemaphore(value: 0)
        for index in 0..<probes {
            let submitted = Clock.now()
            lane.submit {
                let started = Clock.now()
                slots.set(index, started &- submitted &- min(overhead, started &- submitted))
                arrived.signal()
            }
            arrived.wait()
        }
        load?.stop()
        return .latencies(slots.values)
    }

    /// W6: timers due at now + U(0, 20 ms) (seeded), all pending together; lateness = start - deadline.
    static let timerLateness = Workload(
        id: .timerLateness, name: "timer-lateness", summary: "how late timers fire (one-sided)",
        requires: [.realTimers], metrics: latencyMetrics,
        configurations: {
            [Parameters([.timers: $0.size(full: 2_000, quick: 500, smoke: 10), .windowMilliseconds: 20])]
        }
    ) { lanes, _, parameters in
        let lane = lanes.lane("timers")
        // Early starts (a broken T1) would read as 0; the conformance kit is where they are judged.
        return DeadlineLateness.measure(parameters, seed: 6) { deadline, woke in
            lane.submit(at: SchedulerTime(nanoseconds: Int64(deadline))) { woke() }
        }
    }
}

extension Workload {
    /// W19: Swift tasks sleep until now + U(0, 20 ms) (seeded) on the lane's clock, all asleep together; lateness =
    /// wake - deadline, read where the task resumes (on the global concurrent executor, as after any sleep). A
    /// scheduler's clock is `SchedulerClock` over it; the `continuous-clock` reference is `Task.sleep`'s own clock.
    static let clockSleep = Workload(
        id: .clockSleep, name: "clock-sleep", summary: "how late a task's sleep on the scheduler's clock wakes",
        requires: [.clock], metrics: latencyMetrics,
        configurations: {
            [Parameters([.timers: $0.size(full: 2_000, quick: 500, smoke: 10), .windowMilliseconds: 20])]
        }
    ) { lanes, backend, parameters in
        guard let clock = lanes.lane("clock").clock else {
            preconditionFailure("\(backend.id) has no clock to sleep on")
        }
        // Early wakes (a broken CL1) would read as 0; the conformance kit is where they are judged.
        return DeadlineLateness.measure(parameters, seed: 19) { deadline, woke in
            Task.detached {
                try? await clock.sleep(SchedulerTime(nanoseconds: Int64(deadline)))
                woke()
            }
        }
    }
}

/// W6's and W19's round: `timers` waiters due at now + U(0, `window_ms`) (seeded), all pending together, each
/// recording how late it woke (the clock read's cost subtracted; an early wake reads as 0).
enum DeadlineLateness {
    /// `arm` sets up one waiter for `deadline` (monotonic nanoseconds) that calls `woke` as the first thing it does
    /// when it runs; the round returns once every waiter has.
    static func measure(
        _ parameters: Parameters, seed: UInt64,
        arm: (_ deadline: UInt64, _ woke: @escaping @Sendable () -> Void) -> Void
    ) -> RoundResult {
        let (waiters, window) = (parameters[.timers], UInt64(parameters[.windowMilliseconds]) * 1_000_000)
        let overhead = UInt64(BenchClock.overhead)
        let slots = SampleSlots(count: waiters)
        let done = Countdown(waiters)
        var random = SplitMix64(seed: seed)
        let base = Clock.now()
        for index in 0..<waiters {
            let deadline = base + random.next() % window
            arm(deadline) {
                let now = Clock.now()
                let late = now > deadline ? now - deadline : 0
                slots.set(index, late &- min(overhead, late))
                done.tick()
            }
        }
        done.wait()
        return .latencies(slots.values)
    }
}

/// Busy lanes for W5's saturated case: one per core, each fed by its own thread that keeps one 20 µs task in flight
/// (submit, wait for it to finish, submit again). A lane that re-enqueued itself from inside its own task would
/// never be empty, and Dispatch's serial queues then starve every other queue on a 2-core machine; feeding from
/// outside leaves the lane empty for a moment between tasks, as real load does.
private final class Load: Sendable {
    /// Each load task's length: long beside a hand-off (a few µs), short beside a time slice (milliseconds), so that
    /// probes queue behind real work without the load hogging a core for a slice.
    static let taskNanoseconds: UInt64 = 20_000
    private let flag = StopFlag()
    private let stopped: Countdown

    init(_ lanes: [any Lane]) {
        stopped = Countdown(lanes.count)
        for lane in lanes {
            Thread { [self] in feed(lane) }.start()
        }
    }

    private func feed(_ lane: any Lane) {
        let finished = DispatchSemaphore(value: 0)
        while !flag.isStopped {
            lane.submit {
                Clock.spin(nanoseconds: Load.taskNanoseconds)
                finished.signal()
            }
            finished.wait()
        }
        stopped.tick()
    }

    func stop() {
        flag.stop()
        stopped.wait()
    }
}

/// The clock's own cost, measured once per process and subtracted from every latency sample.
enum BenchClock {
    static let overhead: Double = Clock.readOverhead()
}
