import SchedulerKit

extension GlobalExecutorSubject {
    /// The global executors the kit judges in `bench conformance` and in its own tests (each in a process of its
    /// own): Swift's own, then a `ThreadPool` made the global executor by the hook and by the executor factory.
    /// SwiftNIO's takeover is in `SchedulerConformanceNIO`.
    public static var builtIn: [GlobalExecutorSubject] {
        guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
            return [runtimeDefault, threadPool]
        }
        return [runtimeDefault, threadPool, threadPoolByFactory]
    }

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

    /// The name of the pool ``threadPoolByFactory`` installs.
    static let factoryPoolName = "default-pool"

    /// A pool as wide as the machine, made Swift's default executor by the runtime's executor factory
    /// (`ThreadPool.unsafeInstallAsDefaultExecutor()`): its own timers wake sleeps.
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    public static let threadPoolByFactory = GlobalExecutorSubject(
        name: "ThreadPool as the default executor",
        summary:
            "a ThreadPool as wide as the machine, made the default executor with unsafeInstallAsDefaultExecutor() (the executor factory; sleeps on the pool's timers)",
        isOwnThread: { Schedulers.current?.name == "\(factoryPoolName)-default-executor" }
    ) {
        ThreadPool(name: factoryPoolName).unsafeInstallAsDefaultExecutor()
    }
}
