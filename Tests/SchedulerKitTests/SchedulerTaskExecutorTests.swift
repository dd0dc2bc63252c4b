import Dispatch
import SchedulerKit
import TestSupport
import Testing

/// A serial scheduler that counts what it is asked to schedule, over a dispatch queue scheduler.
private final class CountingScheduler: Scheduler {
    let inner = DispatchQueueScheduler(name: "counted")
    let scheduled = Counter()
    var name: String { inner.name }
    var traits: SchedulerTraits { inner.traits }

    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        scheduled.increment()
        return inner.schedule(work)
    }
}

/// The executor as it was before ``SchedulerTaskExecutor``: one type for both roles, running every job isolated to
/// itself. The test below keeps it to show that counting trips does see the difference.
// @unchecked Sendable: `scheduler` is immutable and itself Sendable.
private final class IsolatingTaskExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    let scheduler: any Scheduler
    init(_ scheduler: any Scheduler) { self.scheduler = scheduler }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        scheduler.schedule { [self] in
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
    }
    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
    func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }
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

        // Run isolated to the executor, the same task's job must leave that isolation: a second trip.
        let isolating = CountingScheduler()
        _ = await Task(executorPreference: IsolatingTaskExecutor(isolating)) { 1 }.value
        #expect(isolating.scheduled.value == 2)
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
