import Dispatch
@_spi(Bench) import SchedulerKit
import TestSupport
import Testing

/// A serial scheduler that counts what it is asked to schedule, over a dispatch queue scheduler; it takes an
/// executor's job in its node, as the pool and Dispatch-backed schedulers do.
private final class CountingScheduler: NodeScheduler {
    let inner = DispatchQueueScheduler(name: "counted")
    let scheduled = Counter()
    var name: String { inner.name }
    var traits: SchedulerTraits { inner.traits }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        scheduled.increment()
        return inner.schedule(work)
    }

    func enqueue(node: ScheduledWork) {
        scheduled.increment()
        inner.enqueue(node: node)
    }
}

@Suite struct SchedulerTaskExecutorTests {
    @Test func aTaskPreferringTheExecutorRunsOnTheScheduler() async {
        let scheduler = DispatchQueueScheduler(name: "task-executor")
        let executor = SchedulerTaskExecutor(scheduler)
        let ranOnScheduler = await Task(executorPreference: executor) {
            Schedulers.current === scheduler
        }.value
        #expect(ranOnScheduler)
    }

    @Test func aTaskCostsOneTripThroughTheScheduler() async {
        let counting = CountingScheduler()
        _ = await Task(executorPreference: SchedulerTaskExecutor(counting)) { 1 }.value
        #expect(counting.scheduled.value == 1, "a nonisolated task's job ran at once, without being enqueued again")

        // One type in both roles runs it isolated to itself, and the same task's job must leave that isolation: a
        // second trip (the shape SchedulerKit does not ship; bench `pool-both-roles` times it).
        let isolating = CountingScheduler()
        _ = await Task(executorPreference: SchedulerBothRolesExecutor(isolating)) { 1 }.value
        #expect(isolating.scheduled.value == 2)
    }

    @Test func oneTypeInBothRolesStillIsolatesItsActorAndRunsItsTasksOnTheScheduler() async {
        let scheduler = DispatchQueueScheduler(name: "both-roles")
        let executor = SchedulerBothRolesExecutor(scheduler)
        let inTask = await Task(executorPreference: executor) { Schedulers.current === scheduler }.value
        let probe = BothRolesProbe(executor)
        #expect(inTask)
        #expect(await probe.isIsolated())
    }

    @Test func anActorCalledFromTheTaskStillRunsOnItsOwnExecutor() async {
        let taskScheduler = DispatchQueueScheduler(name: "task")
        let actorScheduler = DispatchQueueScheduler(name: "actor")
        let probe = CurrentProbe(on: actorScheduler)
        let (inTask, inActor) = await Task(executorPreference: SchedulerTaskExecutor(taskScheduler)) {
            let inTask = Schedulers.current === taskScheduler
            let inActor = await probe.isCurrent()
            return (inTask, inActor)
        }.value
        #expect(inTask)
        #expect(inActor)
    }

    @Test func immediateWorkCannotBeATaskExecutor() async {
        await #expect(processExitsWith: .failure) {
            _ = SchedulerTaskExecutor(Schedulers.immediate)
        }
    }
}

/// An actor on a scheduler that tells whether its job runs with that scheduler current.
private actor CurrentProbe {
    nonisolated let executor: SchedulerExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    init(on scheduler: any Scheduler) { executor = SchedulerExecutor(scheduler) }
    func isCurrent() -> Bool { Schedulers.current === executor.scheduler }
}

/// An actor on one executor in both roles: its methods run on the executor's scheduler.
private actor BothRolesProbe {
    nonisolated let executor: SchedulerBothRolesExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    init(_ executor: SchedulerBothRolesExecutor) { self.executor = executor }
    func isIsolated() -> Bool {
        Schedulers.current === executor.scheduler
    }
}
