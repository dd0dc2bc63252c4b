import Dispatch
import Foundation
import SchedulerKit

extension Workload {
    static let latencyMetrics = Metric.latencyPercentiles.map(\.metric)

    /// W5: schedule-to-start latency of one probe at a time, on an idle backend (`load=0`) or while one busy lane per
    /// core runs back-to-back 20 µs tasks on the same backend instance (`load=1`, saturated).
    static let startLatency = Workload(
        id: .startLatency, name: "start-latency", summary: "schedule-to-start latency, light and saturated",
        requires: [.serial, .asynchronous, .promptWakeUp], metrics: latencyMetrics,
        configurations: { scale in
            [0, 1].map { Parameters([.load: $0, .probes: scale.size(full: 4_000, quick: 1_000, smoke: 20)]) }
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
        let (timers, window) = (parameters[.timers], UInt64(parameters[.windowMilliseconds]) * 1_000_000)
        let overhead = UInt64(BenchClock.overhead)
        let lane = lanes.lane("timers")
        let slots = SampleSlots(count: timers)
        let done = Countdown(timers)
        var random = SplitMix64(seed: 6)
        let base = Clock.now()
        for index in 0..<timers {
            let deadline = base + random.next() % window
            lane.submit(at: SchedulerTime(nanoseconds: Int64(deadline))) {
                let started = Clock.now()
                // Early starts (a broken T1) would show as 0 here; the conformance kit is where they are judged.
                let late = started > deadline ? started - deadline : 0
                slots.set(index, late &- min(overhead, late))
                done.tick()
            }
        }
        done.wait()
        return .latencies(slots.values)
    }
}

extension Workload {
    /// W19: Swift tasks sleep until now + U(0, 20 ms) (seeded) on the lane's clock, all asleep together; lateness =
    /// wake - deadline, read where the task resumes (on the global concurrent executor, as after any sleep). A
    /// scheduler's clock is ``SchedulerClock`` over it; the `continuous-clock` reference is `Task.sleep`'s own clock.
    static let clockSleep = Workload(
        id: .clockSleep, name: "clock-sleep", summary: "how late a task's sleep on the scheduler's clock wakes",
        requires: [.clock], metrics: latencyMetrics,
        configurations: {
            [Parameters([.timers: $0.size(full: 2_000, quick: 500, smoke: 10), .windowMilliseconds: 20])]
        }
    ) { lanes, backend, parameters in
        let (sleepers, window) = (parameters[.timers], UInt64(parameters[.windowMilliseconds]) * 1_000_000)
        guard let clock = lanes.lane("clock").clock else {
            preconditionFailure("\(backend.id) has no clock to sleep on")
        }
        let overhead = UInt64(BenchClock.overhead)
        let slots = SampleSlots(count: sleepers)
        let done = Countdown(sleepers)
        var random = SplitMix64(seed: 19)
        let base = Clock.now()
        for index in 0..<sleepers {
            let deadline = base + random.next() % window
            Task.detached {
                try? await clock.sleep(SchedulerTime(nanoseconds: Int64(deadline)))
                let woke = Clock.now()
                // Early wakes (a broken CL1) would show as 0 here; the conformance kit is where they are judged.
                let late = woke > deadline ? woke - deadline : 0
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
public enum BenchClock {
    public static let overhead: Double = Clock.readOverhead()
}
