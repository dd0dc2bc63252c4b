import Foundation
import SchedulerExplorer
import SchedulerKit
import Testing

/// What the runtime lets an exploring executor control on this toolchain, measured: which ways of starting work keep
/// it inside the exploration (on its scheduler, one job at a time, in the strategy's order) and which leave it.
/// `Docs/Exploring.md` quotes these; a toolchain that changes one fails here first.
@Suite struct BoundaryTests {
    /// Where a piece of the body's work ran: on the exploring scheduler or not.
    static func runsInside(_ body: @escaping @Sendable (Exploration) async -> Bool) async -> (
        inside: Bool?, report: ExplorationReport
    ) {
        let seen = Locked<Bool?>(nil)
        let report = await explore(
            schedules: 1, settings: ExplorationSettings(allowedOutside: ["thread"], outsideWait: .seconds(30))
        ) {
            exploration in
            let inside = await body(exploration)
            seen.withLock { $0 = inside }
        }
        return (seen.withLock { $0 }, report)
    }

    @Test func childTasksAndDefaultActorsStayInside() async {
        let (asyncLet, _) = await Self.runsInside { exploration in
            async let child = Schedulers.current === exploration.scheduler
            return await child
        }
        #expect(asyncLet == true)
        let (group, _) = await Self.runsInside { exploration in
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { Schedulers.current === exploration.scheduler }
                return await group.next()!
            }
        }
        #expect(group == true)
        let (actor, _) = await Self.runsInside { exploration in
            await Where().scheduler() === exploration.scheduler
        }
        #expect(actor == true)
    }

    /// On Swift 6.3 an unstructured `Task { }` does not inherit the task executor preference: its first job goes to
    /// the global executor, and so does `Task.detached`'s. The exploration captures them there (the global-enqueue
    /// hook, `GlobalEnqueueHook`): each arrives in the exploring scheduler's queue as it is created, as the control,
    /// a task created with the preference, does. Read from the queue as each task is created, so the answer does not
    /// wait for the global executor (which a loaded test run may starve).
    @Test func unstructuredAndDetachedTasksAreCapturedIntoTheExploration() async {
        let arrived = Locked<[String: Int]>([:])
        let report = await explore(schedules: 1) { exploration in
            let queued = { exploration.scheduler.pendingCount }
            var counts: [String: Int] = [:]
            var before = queued()
            _ = Task { _ = 1 }
            counts["Task { }"] = queued() - before
            before = queued()
            _ = Task.detached { _ = 1 }
            counts["Task.detached { }"] = queued() - before
            before = queued()
            _ = Task(executorPreference: exploration.taskExecutor) { _ = 1 }
            counts["Task(executorPreference:) { }"] = queued() - before
            arrived.withLock { $0 = counts }
        }
        #expect(report.failure == nil, "\(report)")
        #expect(
            arrived.withLock { $0 } == ["Task { }": 1, "Task.detached { }": 1, "Task(executorPreference:) { }": 1])
    }

    /// A captured unstructured task runs on the exploring scheduler, on the exploration's thread, and its awaits
    /// are choice points like the body's: a second `Task { }` that yields interleaves with it.
    @Test func anUnstructuredTaskRunsInsideAndItsAwaitsAreChoices() async {
        let (inside, report) = await Self.runsInside { exploration in
            await Task { Schedulers.current === exploration.scheduler }.value
        }
        #expect(inside == true, "\(report)")
        #expect(report.failure == nil, "\(report)")
        #expect(report.allowedOutside.isEmpty, "\(report.allowedOutside)")
    }

    /// Global jobs that are not the test's pass through: a task started from another thread while a schedule runs
    /// runs on the global executor, never on the exploring scheduler.
    @Test func otherThreadsGlobalJobsPassThrough() async {
        let elsewhere = Locked<Bool?>(nil)
        let report = await explore(schedules: 1) { exploration in
            let started = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                Task.detached {
                    elsewhere.withLock { $0 = Schedulers.current === exploration.scheduler }
                    started.signal()
                }
            }
            // Wait on the real clock, off the exploration (the schedule's thread is blocked meanwhile on purpose).
            _ = started.wait(timeout: .now() + 30)
        }
        #expect(report.failure == nil, "\(report)")
        #expect(elsewhere.withLock { $0 } == false)
    }
}

private actor Where {
    func scheduler() -> (any Scheduler)? { Schedulers.current }
}
