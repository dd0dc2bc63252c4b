import Foundation
import SchedulerKit
import Synchronization
import ToolSupport

extension Workload {
    /// W1: one producer schedules empty tasks (a counter decrement) onto one serial lane and waits for the last.
    /// Also reports the CPU time (user + system, every thread) per task, so speed bought with spinning shows.
    static let singleProducer = Workload(
        id: .throughput, name: "throughput", summary: "one producer, empty tasks onto one scheduler",
        requires: [], metrics: [.nsPerTask, .cpuNsPerTask],
        configurations: { [Parameters([.tasks: $0.size(full: 50_000, quick: 20_000, smoke: 200)])] }
    ) { lanes, _, parameters in
        let tasks = parameters[.tasks]
        let lane = lanes.lane("w1")
        let done = Countdown(tasks)
        let cpuStart = ProcessCPU.nanoseconds()
        let start = Clock.now()
        for _ in 0..<tasks { lane.submit { done.tick() } }
        lane.drain()
        done.wait()
        let end = Clock.now()
        return RoundResult(values: [
            .nsPerTask: nanosecondsPer(tasks, from: start, to: end),
            .cpuNsPerTask: nanosecondsPer(tasks, from: cpuStart, to: ProcessCPU.nanoseconds()),
        ])
    }

    /// W14: CPU an idle backend burns: one task, then `seconds` of nothing (spinning before sleep must be bounded).
    static let idleCPU = Workload(
        id: .idleCPU, name: "idle-cpu", summary: "CPU used (user + system) while a backend sits idle after one task",
        requires: [.asynchronous], metrics: [.cpuMsIdle], measuredOnce: true,
        configurations: { [Parameters([.idleMilliseconds: $0.size(full: 2_000, quick: 500, smoke: 20)])] }
    ) { lanes, _, parameters in
        let lane = lanes.lane("idle")
        let done = Countdown(1)
        lane.submit { done.tick() }
        done.wait()
        let cpuStart = ProcessCPU.nanoseconds()
        Thread.sleep(forTimeInterval: Double(parameters[.idleMilliseconds]) / 1_000)
        return RoundResult(values: [.cpuMsIdle: Double(ProcessCPU.nanoseconds() - cpuStart) / 1e6])
    }

    /// W2: P producer threads, released together, share `tasks` empty tasks onto one serial scheduler; P is 1, the
    /// cores, and twice and four times the cores (``CoreRelative/producers``: 1, 2, 4, 8 on 2 cores).
    static let producers = Workload(
        id: .producers, name: "producers", summary: "P producer threads onto one serial scheduler",
        requires: [.serial, .asynchronous], metrics: [.nsPerTask, .cpuNsPerTask],
        configurations: { scale in
            CoreRelative.producers.counts().map {
                Parameters([.producers: $0, .tasks: scale.size(full: 40_000, quick: 4_000, smoke: 160)])
            }
        }
    ) { lanes, _, parameters in
        let (producers, tasks) = (parameters[.producers], parameters[.tasks])
        let lane = lanes.lane("w2")
        let done = Countdown(tasks)
        let start = Atomic<UInt64>(0)
        let cpuStart = ProcessCPU.nanoseconds()  // includes starting the producer threads, the same for every lane
        Producers.run(producers, released: { start.store(Clock.now(), ordering: .relaxed) }) { index in
            let share = tasks / producers + (index < tasks % producers ? 1 : 0)
            for _ in 0..<share { lane.submit { done.tick() } }
        }
        done.wait()
        return RoundResult(values: [
            .nsPerTask: nanosecondsPer(tasks, from: start.load(ordering: .relaxed), to: Clock.now()),
            .cpuNsPerTask: nanosecondsPer(tasks, from: cpuStart, to: ProcessCPU.nanoseconds()),
        ])
    }

    /// W3: one producer spreads tasks round-robin over M serial schedulers of one instance (one pool); M is 1, eight
    /// per core and 1 000 (``CoreRelative/fanOutSchedulers``: 1, 16, 1 000 on 2 cores).
    static let fanOut = Workload(
        id: .fanOut, name: "fan-out", summary: "one producer, tasks round-robin over M serial schedulers on one pool",
        requires: [.serial, .asynchronous], metrics: [.nsPerTask, .cpuNsPerTask],
        configurations: { scale in
            CoreRelative.fanOutSchedulers.counts().map {
                Parameters([.schedulers: $0, .tasks: scale.size(full: 50_000, quick: 5_000, smoke: 200)])
            }
        }
    ) { lanes, _, parameters in
        let (count, tasks) = (parameters[.schedulers], parameters[.tasks])
        let targets = lanes.lanes(count, prefix: "w3")
        let done = Countdown(tasks)
        let cpuStart = ProcessCPU.nanoseconds()
        let start = Clock.now()
        for index in 0..<tasks { targets[index % count].submit { done.tick() } }
        done.wait()
        let end = Clock.now()
        return RoundResult(values: [
            .nsPerTask: nanosecondsPer(tasks, from: start, to: end),
            .cpuNsPerTask: nanosecondsPer(tasks, from: cpuStart, to: ProcessCPU.nanoseconds()),
        ])
    }

    /// W8: `scheduleRecursive` steps, each rescheduling the next from inside the running step.
    static let recursion = Workload(
        id: .recursion, name: "recursion", summary: "scheduleRecursive steps per second",
        requires: [.scheduler, .flatRecursion, .promptWakeUp], metrics: [.nsPerStep],
        configurations: { [Parameters([.steps: $0.size(full: 50_000, quick: 10_000, smoke: 200)])] }
    ) { lanes, _, parameters in
        let steps = parameters[.steps]
        let lane = lanes.lane("w8")
        let remaining = SharedCounter(steps)
        let done = Countdown(1)
        let start = Clock.now()
        let handle = lane.scheduler!.scheduleRecursive { reschedule in
            if remaining.decrement() > 0 { reschedule() } else { done.tick() }
        }
        lane.drain()
        done.wait()
        let end = Clock.now()
        _ = handle
        return RoundResult(values: [.nsPerStep: nanosecondsPer(steps, from: start, to: end)])
    }
}
