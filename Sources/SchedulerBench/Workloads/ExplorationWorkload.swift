import SchedulerExplorer

extension Workload {
    /// W22: `explore(schedules:strategy:)` over a body of about 100 jobs (10 child tasks in a task group, each
    /// yielding 4 times), `schedules` schedules per repetition: what a schedule costs and allocates, by strategy,
    /// beside first-in-first-out, today's one order.
    static let exploredSchedules = Workload(
        id: .exploredSchedules, name: "explored-schedules",
        summary: "explore(schedules:) over a body of 100 jobs, by strategy", requires: [.exploration],
        metrics: [.nsPerSchedule],
        allocationProbe: AllocationProbe(
            allocations: .allocsPerSchedule, sizeClassBytes: .sizeClassBytesPerSchedule, units: { $0[.schedules] },
            prepare: { lanes, _ in ExplorationBody.loop(lanes) }),
        configurations: {
            [Parameters([.schedules: $0.size(full: 200, quick: 50, smoke: 3), .jobs: ExplorationBody.jobs])]
        }
    ) { lanes, _, parameters in
        let schedules = parameters[.schedules]
        let elapsed = ExplorationBody.loop(lanes).run(schedules)
        return RoundResult(values: [.nsPerSchedule: Double(elapsed) / Double(schedules)])
    }
}

/// W22's body and the loop that explores it.
enum ExplorationBody {
    /// About the jobs a schedule runs: each yield of a task that prefers an executor is two (the yield's and the
    /// resumption's), so 10 children of 4 yields, their starts and the body's own come to about 100 (between 90 and
    /// 120 steps, by the order: the bench's tests check it).
    static let jobs = 100

    static func loop(_ lanes: LaneGroup) -> ActorLoop {
        guard let strategy = lanes.lane("explorer").exploration else {
            preconditionFailure("W22 runs only on a lane with an exploration strategy")
        }
        return ActorLoop(caller: nil) { schedules in
            guard schedules > 0 else { return }  // the allocation pass's baseline: an empty run
            let report = await explore(schedules: schedules, strategy: strategy, seed: 22) { _ in await body() }
            precondition(report.failure == nil, "W22's body failed: \(report)")
        }
    }

    static func body() async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    for _ in 0..<4 { await Task.yield() }
                }
            }
        }
    }
}
