@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

extension ThreadPool {
    /// Makes this pool Swift's *default* executor for the whole process through the runtime's executor factory
    /// (`_createExecutors(factory:)`, pitched as "custom main and global executors" and still behind
    /// `@_spi(ExperimentalCustomExecutors)` on Swift 6.3): everything ``unsafeInstallAsGlobalExecutor()`` takes over,
    /// and the timers of `Task.sleep` and of `ContinuousClock`/`SuspendingClock` sleeps too, which the pool's own
    /// timers wake, on its threads. `Task.defaultExecutor` is then the pool's. The main actor stays the platform's.
    ///
    /// Returns false, and changes nothing, where this pool or another already took Swift's global jobs over by the
    /// hook (the hook would see every job first), or where a pool was already made the default executor this way.
    /// There is no uninstall: the runtime takes a factory through one unsynchronised write, so the pool stays the
    /// default executor, and alive, for the rest of the process, and must not be shut down (``shutdown()`` traps).
    ///
    /// Unsafe and experimental: the interface is a pitch's, not a promise, and the runtime reads the executors it is
    /// given without synchronisation. Call it first thing in `main.swift`, from one thread, before any task starts;
    /// jobs enqueued before it stay where they were.
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    @discardableResult
    public func unsafeInstallAsDefaultExecutor() -> Bool {
        PoolExecutorFactory.install(self)
    }

    /// Whether this pool is Swift's default executor, made by the factory.
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    public var isDefaultExecutor: Bool { PoolExecutorFactory.installed.withLock { $0?.pool === self } }
}

/// The factory the runtime asks for its executors: the pool chosen by ``ThreadPool/unsafeInstallAsDefaultExecutor()``
/// as the default one, the platform's main executor as the main one. The runtime reads the two properties when it is
/// handed the factory, so the pool is chosen (in `installed`) just before.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
enum PoolExecutorFactory: ExecutorFactory {
    /// The executor made, kept here (with its pool) for the rest of the process once chosen.
    static let installed = Locked<PoolDefaultExecutor?>(nil)

    static var mainExecutor: any MainExecutor { PlatformExecutorFactory.mainExecutor }
    static var defaultExecutor: any TaskExecutor {
        guard let executor = installed.withLock({ $0 }) else {
            preconditionFailure("PoolExecutorFactory asked for its default executor before a pool was chosen")
        }
        return executor
    }

    static func install(_ pool: ThreadPool) -> Bool {
        let chosen = installed.withLock { installed -> PoolDefaultExecutor? in
            guard installed == nil, !GlobalEnqueueHook.hasReplacement else { return nil }
            installed = PoolDefaultExecutor(pool: pool)
            return installed
        }
        guard let chosen else { return false }
        _createExecutors(factory: PoolExecutorFactory.self)
        return Task.defaultExecutor === chosen
    }
}

/// A pool as Swift's default executor: jobs join one concurrent scheduler as wide as the pool, as the hook's do (run
/// as the global executor runs them: no isolation, no executor of their own, so default actors switch in place);
/// jobs due later wait on the pool's timers.
// @unchecked Sendable: every field is a constant, and the pool and its kept jobs are thread-safe.
final class PoolDefaultExecutor: @unchecked Sendable {
    let pool: ThreadPool
    private let jobs: PoolKeptJobs

    init(pool: ThreadPool) {
        self.pool = pool
        self.jobs = PoolKeptJobs(
            scheduler: pool.makeConcurrentScheduler(name: "\(pool.name)-default-executor"), core: pool.core)
    }
}

// The executor's protocols in an extension, so that their availability does not sit between the class and the
// comment that says why it is Sendable.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
extension PoolDefaultExecutor: TaskExecutor, SchedulingExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        jobs.enqueue(UnownedJob(job))
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        guard let delay = delay as? Duration else {
            return enqueueOnPlatform(job, at: clock.now.advanced(by: delay), tolerance: tolerance, clock: clock)
        }
        enqueue(UnownedJob(job), after: delay)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        guard let delay = clock.now.duration(to: instant) as? Duration else {
            return enqueueOnPlatform(job, at: instant, tolerance: tolerance, clock: clock)
        }
        enqueue(UnownedJob(job), after: delay)
    }

    /// The pool's monotonic time is read after the clock's, so the job is never due before the instant it was given.
    private func enqueue(_ job: UnownedJob, after delay: Duration) {
        guard delay > .zero else { return jobs.enqueue(job) }
        jobs.scheduler.schedule(at: .monotonicNow() + delay) { ScheduledWork.runOnGenericExecutor(job) }
    }

    /// A clock whose durations are not `Duration` (none of the standard library's): its own executor waits for it.
    private func enqueueOnPlatform<C: Clock>(
        _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
        guard let platform = PlatformExecutorFactory.defaultExecutor as? any SchedulingExecutor else {
            preconditionFailure("\(C.self): a clock whose durations are not Duration needs a scheduling executor")
        }
        platform.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
    }
}
