import Foundation

extension Workload {
    /// W15: what concurrency buys. `tasks` CPU-bound tasks (each busy for `work_us` µs of wall time) go onto the
    /// backend: all onto one scheduler when it is concurrent, else round-robin over one serial scheduler per core of
    /// one instance (M serial schedulers on one pool, the alternative to a concurrent scheduler). The producer waits
    /// for the last. Speed-up is the work's own time over the wall time: 1 is serial, the core count is the ceiling.
    static let parallelFanOut = Workload(
        id: .parallelFanOut, name: "parallel-fan-out",
        summary: "CPU-bound tasks onto a concurrent scheduler, or over one serial scheduler per core",
        requires: [.asynchronous], metrics: [.nsPerTask, .speedup],
        configurations: { scale in
            [Parameters([.tasks: scale.size(full: 4_000, quick: 800, smoke: 40), .workMicroseconds: 5])]
        }
    ) { lanes, backend, parameters in
        let (tasks, work) = (parameters[.tasks], UInt64(parameters[.workMicroseconds]) * 1_000)
        let targets =
            backend.has(.concurrent) ? [lanes.lane("w15")] : lanes.lanes(Clock.cores, prefix: "w15")
        let done = Countdown(tasks)
        let start = Clock.now()
        for index in 0..<tasks {
            targets[index % targets.count].submit {
                let until = Clock.now() + work
                while Clock.now() < until {}
                done.tick()
            }
        }
        done.wait()
        let wall = Double(Clock.now() - start)
        return RoundResult(values: [
            .nsPerTask: wall / Double(tasks),
            .speedup: Double(UInt64(tasks) * work) / wall,
        ])
    }
}
