import SchedulerKit

/// A thread of the kit's own that runs the checks' tasks (their nonisolated parts, a clock check's sleepers), one
/// at a time and in order, so that no check waits for the global cooperative pool.
final class KitThreads: Sendable {
    private let pool = ThreadPool(threadCount: 1, name: "kit-checks")
    let executor: SchedulerTaskExecutor

    init() { executor = SchedulerTaskExecutor(pool.makeScheduler(name: "checks")) }

    func task<R: Sendable>(_ body: @escaping @Sendable () async -> R) -> Task<R, Never> {
        Task(executorPreference: executor, operation: body)
    }

    func close() { pool.shutdown() }
}
