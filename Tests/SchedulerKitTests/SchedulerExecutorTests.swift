import Dispatch
import SchedulerKit
import TestSupport
import Testing

/// An actor whose jobs run as tasks of a scheduler.
private actor Account {
    nonisolated let executor: SchedulerExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var balance = 0
    private var inside = 0
    private(set) var overlaps = 0

    init(on scheduler: any Scheduler) { executor = SchedulerExecutor(scheduler) }

    func deposit(_ amount: Int) -> Bool {
        inside += 1
        if inside != 1 { overlaps += 1 }
        balance += amount
        inside -= 1
        return Schedulers.current === executor.scheduler
    }

    var total: Int { balance }
}

@Suite struct SchedulerExecutorTests {
    @Test(arguments: ["dispatch", "pool", "operation-queue"])
    func anActorOnABackendRunsOneJobAtATimeWithTheSchedulerCurrent(backend: String) async {
        let pool = ThreadPool(threadCount: 2, name: "actor-pool")
        defer { pool.shutdown() }
        let scheduler: any Scheduler =
            switch backend {
            case "dispatch": DispatchQueueScheduler(name: "actor")
            case "pool": pool.makeScheduler(name: "actor")
            default: OperationQueueScheduler(name: "actor")
            }
        let account = Account(on: scheduler)
        let allCurrent = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var current = true
                    for _ in 0..<250 { current = await account.deposit(1) && current }
                    return current
                }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(allCurrent)
        #expect(await account.total == 1_000)
        #expect(await account.overlaps == 0)
    }

    @Test func isolationHoldsInsideTheSchedulersTasksOnly() {
        let scheduler = DispatchQueueScheduler(name: "isolation")
        let account = Account(on: scheduler)
        let insideTask = Shared<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule {
            insideTask.update { $0 = account.executor.isIsolatingCurrentContext() }
            account.assumeIsolated { _ in }  // traps if the executor disagrees
            done.signal()
        }
        done.wait()
        #expect(insideTask.value == true)
        #expect(account.executor.isIsolatingCurrentContext() == false)
    }

    /// Executors over one scheduler are one execution context; over two schedulers they are not (a yes there would
    /// let `assumeIsolated` pass on a thread that runs another scheduler's task).
    @Test func executorsShareAnExecutionContextExactlyWhenTheyShareAScheduler() {
        let (first, second) = (DispatchQueueScheduler(name: "first"), DispatchQueueScheduler(name: "second"))
        let executor = SchedulerExecutor(first)
        #expect(executor.isSameExclusiveExecutionContext(other: SchedulerExecutor(first)))
        #expect(!executor.isSameExclusiveExecutionContext(other: SchedulerExecutor(second)))
    }

    @Test func assumeIsolatedOutsideTraps() async {
        await #expect(processExitsWith: .failure) {
            let executor = SchedulerExecutor(DispatchQueueScheduler(name: "outside"))
            executor.checkIsolated()
        }
    }

    @Test func theExecutorIsReleasedWithTheLastActor() async {
        weak var weakExecutor: SchedulerExecutor?
        do {
            let account = Account(on: DispatchQueueScheduler(name: "released"))
            weakExecutor = account.executor
            _ = await account.deposit(1)
        }
        #expect(await eventuallyAsync { weakExecutor == nil })
    }

    @Test func virtualTimeDrivesActorJobs() async throws {
        let scheduler = TestScheduler()
        let account = Account(on: scheduler)
        let finished = Flag()
        let call = Task {
            let wasCurrent = await account.deposit(5)
            finished.set()
            return wasCurrent
        }
        #expect(await eventuallyAsync { scheduler.pendingCount == 1 })
        try await Task.sleep(for: .milliseconds(20))
        #expect(!finished.value, "an actor on a TestScheduler runs nothing until the test advances it")
        for _ in 0..<5_000 where !finished.value {
            scheduler.advance()
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(await call.value)
    }

    @Test func immediateWorkCannotBeAnExecutor() async {
        await #expect(processExitsWith: .failure) {
            _ = SchedulerExecutor(Schedulers.immediate)
        }
    }

    /// The runtime enqueues an actor's jobs from threads of its own, which a thread-confined scheduler forbids
    /// (RxSwift's virtual-time schedulers stop the program): refused whatever else it offers.
    @Test func aThreadConfinedSchedulerCannotBeAnExecutor() {
        #expect(SchedulerExecutor.accepts(TestScheduler.traits))
        #expect(!SchedulerExecutor.accepts(TestScheduler.traits.union(.threadConfined)))
        #expect(!SchedulerExecutor.accepts(DispatchQueueScheduler.traits.union(.threadConfined)))
    }
}
