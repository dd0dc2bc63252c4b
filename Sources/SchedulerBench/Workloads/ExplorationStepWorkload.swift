import SchedulerExplorer
import SchedulerKit

extension Workload {
    /// W23: one step of an exploring scheduler with `ready` jobs ready at every step (each job, when it runs,
    /// schedules the next, so the count stays): what choosing, taking and running one job costs, by strategy and by
    /// how many it chooses among. The sweep shows how a step grows with the ready count (no worse than
    /// logarithmically, `Docs/Exploring.md`).
    static let explorationStep = Workload(
        id: .explorationStep, name: "exploration-step",
        summary: "one step of an exploring scheduler among 1 to 1 000 ready jobs, by strategy",
        requires: [.exploration],
        metrics: [.nsPerStep],
        configurations: { scale in
            [1, 10, 100, 1_000].map { ready in
                Parameters([.ready: ready, .steps: scale.size(full: 200_000, quick: 20_000, smoke: 200)])
            }
        }
    ) { lanes, _, parameters in
        guard let strategy = lanes.lane("explorer").exploration else {
            preconditionFailure("W23 runs only on a lane with an exploration strategy")
        }
        let scheduler = ExploringScheduler(name: "W23", strategy: strategy, seed: 23)
        let steps = parameters[.steps]
        for _ in 0..<parameters[.ready] { SelfRescheduling(scheduler).start() }
        let started = Clock.now()
        scheduler.run(maxSteps: steps)
        let elapsed = Clock.now() &- started
        return RoundResult(values: [.nsPerStep: Double(elapsed) / Double(steps)])
    }
}

/// A job that, when it runs, queues itself again: the ready count of W23 stays what it started at.
private final class SelfRescheduling: Sendable {
    let scheduler: ExploringScheduler
    init(_ scheduler: ExploringScheduler) { self.scheduler = scheduler }
    func start() { scheduler.schedule { self.start() } }
}
