extension ThreadPool {
    /// Makes this pool Swift's global executor for the whole process: every job bound for the global executor —
    /// `Task { }`, `Task.detached`, `async let` and task-group children without a preference, the default actors they
    /// call, and the resumptions of continuations, sleeps and yields — runs on the pool's threads from then on, as
    /// tasks of one concurrent scheduler as wide as the pool, beside the pool's own schedulers. Returns false, and
    /// changes nothing, where the runtime has no global-enqueue hook, or where the global executor is already taken
    /// over (by another pool, by someone else's hook, such as SwiftNIO's
    /// `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`, or by a pool made the default
    /// executor, ``unsafeInstallAsDefaultExecutor()``).
    ///
    /// A job runs as Swift's global executor runs it: with no isolation and no executor of its own, so the runtime
    /// moves a task onto an idle default actor, and back, in place on the same thread.
    ///
    /// What it does not take over, on Swift 6.3: the main actor (its jobs go to the main queue), and the timers of
    /// `Task.sleep` and `ContinuousClock`/`SuspendingClock` (they stay Dispatch's; only the wake-up, a job, comes to
    /// the pool). See `Docs/Schedulers.md`, "The pool as Swift's global executor".
    ///
    /// Unsafe as SwiftNIO's takeover is: the hook is one process-wide variable that the runtime reads without
    /// synchronisation. Call it early (first thing in `main`), from one thread, before other code installs a hook.
    /// The pool stays alive for the rest of the process once installed, and must not be shut down while it is the
    /// global executor (``shutdown()`` traps): every task waiting to run would be lost.
    @discardableResult
    public func unsafeInstallAsGlobalExecutor() -> Bool {
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
            // A pool made the default executor by the factory gets every global job; a hook would take them first.
            guard PoolExecutorFactory.installed.withLock({ $0 == nil }) else { return false }
        }
        return globalJobs.withLock { installed in
            guard installed == nil else { return GlobalEnqueueHook.isInstalled(installed!) }
            let jobs = PoolKeptJobs(
                scheduler: makeConcurrentScheduler(name: "\(name)-global-executor"), core: core)
            // Never refused: an installed pool cannot be shut down.
            let replacement = GlobalJobReplacement { jobs.enqueue($0) }
            guard GlobalEnqueueHook.install(replacement) else { return false }
            installed = replacement
            return true
        }
    }

    /// Gives Swift's global executor back: jobs enqueued from then on go where they went before the pool took over.
    /// Jobs already queued on the pool still run there (a job must run exactly once, and it was the pool's). A job
    /// being enqueued at the very moment may still reach the pool. Does nothing if this pool is not installed.
    public func unsafeUninstallAsGlobalExecutor() {
        globalJobs.withLock { installed in
            guard let replacement = installed else { return }
            GlobalEnqueueHook.uninstall(replacement)
            installed = nil
        }
    }

    /// Whether this pool is Swift's global executor now.
    public var isGlobalExecutor: Bool {
        globalJobs.withLock { installed in installed.map(GlobalEnqueueHook.isInstalled) ?? false }
    }
}
