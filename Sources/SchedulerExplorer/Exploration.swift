import SchedulerKit

/// What the body of an exploration gets: the schedule's scheduler, and the executors and clock over it. Code under
/// test runs on them: tasks that prefer ``taskExecutor`` (the body itself does, and child tasks inherit it), actors
/// on ``actorExecutor()`` or default actors called from those tasks, sleeps on ``clock``.
public struct Exploration: Sendable {
    /// The schedule's scheduler (fresh for each schedule).
    public let scheduler: ExploringScheduler
    /// The executor the body's task prefers, and its children. `Task { }` and `Task.detached { }` started inside the
    /// schedule do not inherit it on Swift 6.3, but the explorer captures them from the global executor while the
    /// schedule runs, so they run inside too (see `Docs/Exploring.md`).
    public let taskExecutor: SchedulerTaskExecutor
    /// Virtual time: a sleep ends when the runner, finding no job ready, moves time to its deadline.
    public let clock: SchedulerClock
    /// Which schedule this is, counted from 0, and its seed (what ``replay(seed:strategy:settings:_:)`` takes).
    public let index: Int
    public let seed: UInt64

    init(scheduler: ExploringScheduler, index: Int, seed: UInt64) {
        self.scheduler = scheduler
        self.taskExecutor = SchedulerTaskExecutor(scheduler)
        self.clock = SchedulerClock(scheduler)
        self.index = index
        self.seed = seed
    }

    /// An actor's executor on the exploring scheduler (`nonisolated var unownedExecutor`), for an actor that must run
    /// there whoever calls it.
    public func actorExecutor() -> SchedulerExecutor { SchedulerExecutor(scheduler) }
}

/// A check inside a body: throws ``ExplorationCheckFailed`` when `condition` is false, which fails the schedule with
/// the message (an `#expect` inside the body would record a failure but not stop the schedule or give its seed).
public func check(
    _ condition: Bool, _ message: @autoclosure () -> String, fileID: String = #fileID, line: Int = #line
) throws {
    guard condition else { throw ExplorationCheckFailed(message: message(), location: "\(fileID):\(line)") }
}

/// What ``check(_:_:fileID:line:)`` throws.
public struct ExplorationCheckFailed: Error, CustomStringConvertible {
    public let message: String
    public let location: String
    public var description: String { "check failed at \(location): \(message)" }
}
