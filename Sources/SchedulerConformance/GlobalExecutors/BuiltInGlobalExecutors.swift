import SchedulerKit

extension GlobalExecutorSubject {
    /// The global executors the kit judges in `bench conformance` and in its own tests (each in a process of its
    /// own): Swift's own, then a `ThreadPool` made the global executor. SwiftNIO's takeover is in
    /// `SchedulerConformanceNIO`.
    public static var builtIn: [GlobalExecutorSubject] { [runtimeDefault, threadPool] }

    /// The runtime's global concurrent executor, untouched: Dispatch's threads on Linux.
    public static let runtimeDefault = GlobalExecutorSubject(
        name: "Swift's global executor",
        summary: "the runtime's own global concurrent executor (Dispatch's root queues on Linux)"
    ) { true }

    /// The name of the pool ``threadPool`` installs.
    static let poolName = "global-pool"

    /// A pool as wide as the machine, made the global executor through the hook
    /// (`ThreadPool.unsafeInstallAsGlobalExecutor()`).
    public static let threadPool = GlobalExecutorSubject(
        name: "ThreadPool as the global executor",
        summary: "a ThreadPool as wide as the machine, installed with unsafeInstallAsGlobalExecutor()",
        isOwnThread: { Schedulers.current?.name == "\(poolName)-global-executor" }
    ) {
        ThreadPool(name: poolName).unsafeInstallAsGlobalExecutor()
    }
}
