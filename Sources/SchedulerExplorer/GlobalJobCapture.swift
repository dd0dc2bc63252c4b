@_spi(Explorer) import SchedulerKit

/// Brings the test's global jobs into a schedule: while one schedule runs, a job bound for Swift's global executor
/// (`Task { }`, `Task.detached`, and resumptions of tasks that prefer no executor) is the test's when it is enqueued
/// on the schedule's driving thread (the body and everything it runs run there), or when it belongs to a task one
/// of those jobs was (a resumption from another thread: then it arrives from outside, named by its thread, as work
/// that other threads schedule does). Such jobs run as jobs of the schedule, under its strategy; every other global
/// job (other tests running in parallel, the runtime's own) passes through untouched.
final class GlobalJobCapture: GlobalJobInterceptor {
    private let scheduler: ExploringScheduler
    private let executor: SchedulerTaskExecutor
    /// The tasks whose jobs this schedule took.
    private let tasks = Locked<Set<UInt64>>([])

    init(_ exploration: Exploration) {
        self.scheduler = exploration.scheduler
        self.executor = exploration.taskExecutor
    }

    /// How many distinct tasks' global jobs the schedule took.
    var taskCount: Int { tasks.withLock { $0.count } }

    func take(_ job: UnownedJob) -> Bool {
        let task = taskID(of: job)
        let ours =
            scheduler.isDriving
            ? tasks.withLock { tasks in
                if task != 0 { tasks.insert(task) }
                return true
            }
            : task != 0 && tasks.withLock { $0.contains(task) }
        guard ours else { return false }
        // Run as a job of a task that prefers the schedule's executor: with no isolation, as the global executor
        // would have run it, and with the exploring scheduler current.
        executor.enqueue(ExecutorJob(job))
        return true
    }

    /// Runs `body` with the test's global jobs captured into the schedule; removed after, also when `body` fails.
    static func capturing<R>(_ exploration: Exploration, _ body: () -> R) -> R {
        let capture = GlobalJobCapture(exploration)
        GlobalEnqueueHook.add(capture)
        defer { GlobalEnqueueHook.remove(capture) }
        return body()
    }
}
