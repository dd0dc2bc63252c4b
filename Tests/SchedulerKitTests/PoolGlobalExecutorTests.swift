import Foundation
import SchedulerKit
import Synchronization
import Testing

/// A pool made Swift's global executor (`ThreadPool.unsafeInstallAsGlobalExecutor()`). The hook is process-wide, so
/// each check runs in a child process of its own (an exit test) and fails it with a message on standard error.
@Suite struct PoolGlobalExecutorTests {
    /// The name of the scheduler global jobs run on, in a pool named `name`.
    static func onPool(_ name: String) -> Bool { Schedulers.current?.name == "\(name)-global-executor" }

    @Test func everyKindOfGlobalJobRunsOnThePoolAndNothingIsLost() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            await PoolGlobalExecutorTests.checkEveryKindOfGlobalJob()
        }
        if let result, result.exitStatus != .exitCode(0) {
            Issue.record("the child said: \(String(decoding: result.standardErrorContent, as: UTF8.self))")
        }
    }

    static func checkEveryKindOfGlobalJob() async {
        let pool = ThreadPool(threadCount: 2, name: "global")
        precondition(!onPool("global"), "on the pool before it was installed")
        precondition(pool.unsafeInstallAsGlobalExecutor(), "the hook was not installed")
        precondition(pool.isGlobalExecutor, "isGlobalExecutor is false after install")
        precondition(!ThreadPool(threadCount: 1).unsafeInstallAsGlobalExecutor(), "a second pool took over too")

        let onPool: @Sendable () -> Bool = { PoolGlobalExecutorTests.onPool("global") }
        let task = await Task { onPool() }.value
        precondition(task, "Task { } ran off the pool")
        let detached = await Task.detached { onPool() }.value
        precondition(detached, "Task.detached ran off the pool")
        async let child = onPool()
        let asyncLet = await child
        precondition(asyncLet, "async let ran off the pool")
        let inGroup = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 { group.addTask { onPool() } }
            return await group.reduce(true) { $0 && $1 }
        }
        precondition(inGroup, "a task-group child ran off the pool")
        let onActor = await PoolProbe().onPool()
        precondition(onActor, "a default actor's method ran off the pool")
        let afterSleep = await Task {
            try? await Task.sleep(for: .milliseconds(5))
            return onPool()
        }.value
        precondition(afterSleep, "the wake-up of a sleep ran off the pool")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { continuation.resume() }
        }
        precondition(onPool(), "a continuation resumed from another thread came back off the pool")

        // Jobs from many threads at once: every task runs exactly once.
        let runs = RunCount()
        let done = DispatchGroup()
        for _ in 0..<4 {
            done.enter()
            Thread.detachNewThread {
                for _ in 0..<500 { Task.detached { runs.count.add(1, ordering: .relaxed) } }
                done.leave()
            }
        }
        done.wait()
        let deadline = ContinuousClock.now + .seconds(30)
        while runs.count.load(ordering: .relaxed) < 2_000, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        try? await Task.sleep(for: .milliseconds(20))
        let ran = runs.count.load(ordering: .relaxed)
        precondition(ran == 2_000, "\(ran) of 2000 tasks from 4 threads ran")

        pool.unsafeUninstallAsGlobalExecutor()
        precondition(!pool.isGlobalExecutor, "isGlobalExecutor is true after uninstall")
        let afterUninstall = await Task.detached { onPool() }.value
        precondition(!afterUninstall, "a task after uninstall still ran on the pool")
    }

    /// Default actors keep mutual exclusion when their callers run on the pool's threads in parallel.
    @Test func defaultActorsKeepMutualExclusionOnThePool() async {
        await #expect(processExitsWith: .success) { await PoolGlobalExecutorTests.checkMutualExclusion() }
    }

    static func checkMutualExclusion() async {
        let pool = ThreadPool(threadCount: 2, name: "global")
        precondition(pool.unsafeInstallAsGlobalExecutor())
        let counter = ExclusionProbe()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<500 { await counter.enter() } } }
        }
        let (count, overlaps) = await counter.result()
        precondition(count == 4_000 && overlaps == 0, "\(count) entries, \(overlaps) overlapping")
    }

    @Test func shuttingDownThePoolThatIsTheGlobalExecutorTraps() async {
        await #expect(processExitsWith: .failure) {
            let pool = ThreadPool(threadCount: 1, name: "global")
            precondition(pool.unsafeInstallAsGlobalExecutor())
            pool.shutdown()
        }
    }
}

private actor PoolProbe {
    func onPool() -> Bool { PoolGlobalExecutorTests.onPool("global") }
}

private actor ExclusionProbe {
    private var inside = false
    private var count = 0
    private var overlaps = 0
    func enter() {
        if inside { overlaps += 1 }
        inside = true
        count += 1
        for _ in 0..<50 { _ = count &* 31 }
        inside = false
    }
    func result() -> (Int, Int) { (count, overlaps) }
}

private final class RunCount: Sendable {
    let count = Atomic<Int>(0)
}
