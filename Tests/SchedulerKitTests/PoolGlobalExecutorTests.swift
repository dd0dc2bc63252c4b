import Foundation
import SchedulerKit
import Synchronization
import Testing

/// A pool made Swift's global executor (`ThreadPool.unsafeInstallAsGlobalExecutor()`). The hook is process-wide, so
/// each check runs in a child process of its own (an exit test). The child exits normally and prints each failed check
/// on standard output, where the parent records it: `#expect(processExitsWith:)` returns nothing of a child whose exit
/// it did not expect, so a failure that ended the child would lose its message.
@Suite struct PoolGlobalExecutorTests {
    /// The name of the scheduler global jobs run on, in a pool named `name`.
    static func onPool(_ name: String) -> Bool { Schedulers.current?.name == "\(name)-global-executor" }

    /// What starts a line of the child's output that is a failed check.
    static let failed = "failed: "

    /// Records each failure a child printed (a child that did not exit normally already failed its expectation).
    static func recordFailures(printedBy result: ExitTest.Result?) {
        let output = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
        for line in output.split(separator: "\n") where line.hasPrefix(failed) {
            Issue.record("the child: \(line.dropFirst(failed.count))")
        }
    }

    /// In the child: prints `message` as a failure unless `condition` holds.
    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { print(failed + message()) }
    }

    @Test func everyKindOfGlobalJobRunsOnThePoolAndNothingIsLost() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            await PoolGlobalExecutorTests.checkEveryKindOfGlobalJob()
        }
        Self.recordFailures(printedBy: result)
    }

    /// Each look at the thread is made inside a task started after the install, never in the exit test's body: that
    /// body began on Swift's default executor, and an `await` of work that has already finished does not suspend, so
    /// it can still be on a thread of Dispatch's after any number of awaits (it was, under load: a default actor
    /// called from there switched in place on that thread).
    static func checkEveryKindOfGlobalJob() async {
        let pool = ThreadPool(threadCount: 2, name: "global")
        check(!onPool("global"), "on the pool before it was installed")
        check(pool.unsafeInstallAsGlobalExecutor(), "the hook was not installed")
        check(pool.isGlobalExecutor, "isGlobalExecutor is false after install")
        check(!ThreadPool(threadCount: 1).unsafeInstallAsGlobalExecutor(), "a second pool took over too")

        let onPool: @Sendable () -> Bool = { PoolGlobalExecutorTests.onPool("global") }
        check(await Task { onPool() }.value, "Task { } ran off the pool")
        check(await Task.detached { onPool() }.value, "Task.detached ran off the pool")
        let asyncLet = await Task {
            async let child = onPool()
            return await child
        }.value
        check(asyncLet, "async let ran off the pool")
        let inGroup = await Task {
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 { group.addTask { onPool() } }
                return await group.reduce(true) { $0 && $1 }
            }
        }.value
        check(inGroup, "a task-group child ran off the pool")
        check(await Task { await PoolProbe().onPool() }.value, "a default actor's method ran off the pool")
        let afterSleep = await Task {
            try? await Task.sleep(for: .milliseconds(5))
            return onPool()
        }.value
        check(afterSleep, "the wake-up of a sleep ran off the pool")
        let afterResume = await Task {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread { continuation.resume() }
            }
            return onPool()
        }.value
        check(afterResume, "a continuation resumed from another thread came back off the pool")

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
        check(ran == 2_000, "\(ran) of 2000 tasks from 4 threads ran")

        pool.unsafeUninstallAsGlobalExecutor()
        check(!pool.isGlobalExecutor, "isGlobalExecutor is true after uninstall")
        check(!(await Task.detached { onPool() }.value), "a task after uninstall still ran on the pool")
    }

    /// Default actors keep mutual exclusion when their callers run on the pool's threads in parallel.
    @Test func defaultActorsKeepMutualExclusionOnThePool() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            await PoolGlobalExecutorTests.checkMutualExclusion()
        }
        Self.recordFailures(printedBy: result)
    }

    static func checkMutualExclusion() async {
        let pool = ThreadPool(threadCount: 2, name: "global")
        check(pool.unsafeInstallAsGlobalExecutor(), "the hook was not installed")
        let counter = ExclusionProbe()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<500 { await counter.enter() } } }
        }
        let (count, overlaps) = await counter.result()
        check(count == 4_000 && overlaps == 0, "\(count) entries, \(overlaps) overlapping")
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
