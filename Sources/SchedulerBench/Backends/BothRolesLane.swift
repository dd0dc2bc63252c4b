import SchedulerConformance
@_spi(Bench) import SchedulerKit

/// The `pool-both-roles` reference: the thread pool's schedulers behind one executor type in both roles
/// (`SchedulerBothRolesExecutor`), against the two types SchedulerKit ships (the `threadpool` row). Same pool, same
/// node per job; the one difference is that every job runs isolated to the executor, so a task's job that needs no
/// isolation is sent round again (W11 with `caller=backend`, W12). It hosts actors and tasks only (W11–W13).
final class BothRolesLane: Lane {
    let scheduler: (any Scheduler)?
    /// One object for both roles, as a user with one such type would have.
    private let executor: SchedulerBothRolesExecutor

    init(_ scheduler: ThreadPoolScheduler) {
        self.scheduler = scheduler
        self.executor = SchedulerBothRolesExecutor(scheduler)
    }

    var taskExecutor: (any TaskExecutor)? { executor }
    var serialExecutor: (any SerialExecutor)? { executor }

    func submit(_ work: @escaping @Sendable () -> Void) {
        preconditionFailure("pool-both-roles hosts actors and tasks")
    }
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        preconditionFailure("pool-both-roles hosts actors and tasks")
    }
    func drain() {}

    /// A round's lanes come from the `threadpool` row's own session (one fresh pool, a thread per core), so the two
    /// rows differ in the executor type only.
    static func group() -> LaneGroup {
        let session = ConformanceBackend.threadPool.session(.benchmark)
        return LaneGroup(
            make: { name in
                guard let scheduler = session.makeScheduler(named: name) as? ThreadPoolScheduler else {
                    preconditionFailure("the threadpool session made a scheduler of another kind")
                }
                return BothRolesLane(scheduler)
            }, close: session.close)
    }
}
