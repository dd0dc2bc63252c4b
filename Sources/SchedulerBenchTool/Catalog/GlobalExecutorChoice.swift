import SchedulerBench
import SchedulerConformance

#if NIO
    import SchedulerConformanceNIO
#endif

/// A global executor a `bench` process can run on: one of the subjects the kit judges (``Catalog/globalExecutors``),
/// with the short id a command line and the `BENCH_GLOBAL_EXECUTOR` variable name it by.
package struct GlobalExecutorChoice: Sendable, CustomStringConvertible {
    package let id: String
    package let subject: GlobalExecutorSubject

    package var description: String { id }

    /// The variable that makes a `bench` process (and the children it starts) install a global executor first thing.
    package static let variable = "BENCH_GLOBAL_EXECUTOR"

    /// Swift's own, the one every process has unless told otherwise.
    package static let dispatch = GlobalExecutorChoice(id: "dispatch", subject: .runtimeDefault)
    /// A `ThreadPool` as wide as the machine, by the hook.
    package static let pool = GlobalExecutorChoice(id: "pool", subject: .threadPool)

    /// A `ThreadPool` as wide as the machine, by the executor factory (sleeps on its timers too).
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    package static let poolByFactory = GlobalExecutorChoice(id: "pool-factory", subject: .threadPoolByFactory)

    /// What `bench global-executors` pairs every other with unless told: the pool by the factory where the runtime
    /// has it (it takes sleeps too, and was ahead of the hook's on W19 and level elsewhere), else by the hook.
    package static var champion: GlobalExecutorChoice {
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) { poolByFactory } else { pool }
    }

    /// Every choice: Swift's own, the pool's by the hook and by the factory, then the peers' whose traits are enabled
    /// (SwiftNIO's takeover: `nio`).
    package static var all: [GlobalExecutorChoice] {
        var all = [dispatch, pool]
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) { all.append(poolByFactory) }
        #if NIO
            all.append(GlobalExecutorChoice(id: "nio", subject: .nioTakeover))
        #endif
        return all
    }

    package static func withID(_ id: String) -> GlobalExecutorChoice? { all.first { $0.id == id } }
}
