import Foundation
import SchedulerConformance
import SchedulerKit
import Testing

@testable import SchedulerBench
@testable import SchedulerBenchTool

/// W11's `caller=backend`: the calling task really runs on the backend, before and after each actor call.
@Suite struct ActorLoopTests {
    @Test(arguments: [BackendID.dispatch, .threadPool, .operationQueue])
    func aCallerOnTheBackendRunsOnItsSchedulerAroundEveryCall(_ id: BackendID) async throws {
        let lanes = try #require(Catalog.backend(id)).instance()
        defer { lanes.shutdown() }
        let (caller, actor) = (lanes.lane("caller"), lanes.lane("actor").makeActor())
        let seen = Locked<[Bool]>([])
        let loop = ActorLoop(caller: caller.taskExecutor) { calls in
            for _ in 0..<calls {
                seen.withLock { $0.append(Schedulers.current === caller.scheduler) }
                await actor.touch()
            }
            seen.withLock { $0.append(Schedulers.current === caller.scheduler) }
        }
        _ = await offCooperativePool { loop.run(3) }
        #expect(seen.withLock { $0 } == [true, true, true, true])
    }

    @Test func aCallerOnTheGlobalExecutorRunsOnNoScheduler() async throws {
        let lanes = try #require(Catalog.backend(.threadPool)).instance()
        defer { lanes.shutdown() }
        let actor = lanes.lane("actor").makeActor()
        let seen = Locked<[Bool]>([])
        let loop = ActorLoop(caller: nil) { calls in
            for _ in 0..<calls { await actor.touch() }
            seen.withLock { $0.append(Schedulers.current == nil) }
        }
        _ = await offCooperativePool { loop.run(2) }
        #expect(seen.withLock { $0 } == [true])
    }
}

/// Runs blocking bench code (which waits on a task of the global executor) on a thread of its own, so that the test
/// runner's cooperative threads, as many as there are cores, are never all blocked waiting for that task.
func offCooperativePool<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
