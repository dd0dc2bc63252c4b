import Foundation
import SchedulerKit
import Testing

/// A pool that is Swift's global executor keeps the first job a global job makes for the thread running it (the
/// "next job" of `PoolKeptJobs`). Each check runs in a child process: the hook is
/// process-wide. The child prints its failed checks (see ``PoolGlobalExecutorTests``).
@Suite struct PoolKeptJobTests {
    /// The thread a job runs on, as a number.
    static func thisThread() -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: pthread_self()))) }

    @Test func aTaskStartedAndAwaitedRunsOnTheThreadThatStartedIt() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            await PoolKeptJobTests.countTasksOnTheirStartersThread()
        }
        PoolGlobalExecutorTests.recordFailures(printedBy: result)
    }

    /// 200 times, a task on the pool starts a task, works on for 400 µs, then awaits it. Kept, the child runs where
    /// its parent suspended: on the same thread, every time the parent suspended within the 1 ms grace (one preempted
    /// for longer, on a busy machine, may see its child taken by the other worker; 150 of 200 is the bound). Without
    /// the keeping, the other worker, woken for the child, takes it during those 400 µs.
    static func countTasksOnTheirStartersThread() async {
        let pool = ThreadPool(threadCount: 2, name: "kept")
        PoolGlobalExecutorTests.check(pool.unsafeInstallAsGlobalExecutor(), "the hook was not installed")
        let same = await Task {
            var same = 0
            for _ in 0..<200 {
                let parent = PoolKeptJobTests.thisThread()
                let child = Task { PoolKeptJobTests.thisThread() }
                let until = ContinuousClock.now + .microseconds(400)
                while ContinuousClock.now < until {}
                let childThread = await child.value
                if childThread == parent { same += 1 }
            }
            return same
        }.value
        print("same thread: \(same) of 200")
        PoolGlobalExecutorTests.check(same >= 150, "\(same) of 200 awaited tasks ran on their starter's thread")
        pool.unsafeUninstallAsGlobalExecutor()
    }
}
