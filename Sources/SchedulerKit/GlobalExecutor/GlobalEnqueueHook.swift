#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Swift's global-enqueue hook, shared: the runtime calls it for every job bound for the global executor (`Task { }`,
/// `Task.detached`, `async let` and task-group children without a preference, and the resumptions of continuations,
/// sleeps and yields of tasks that prefer no executor), with the function that would enqueue it as usual. SwiftNIO's
/// `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor` and swift-concurrency-extras'
/// `withMainSerialExecutor` use the same hook; the runtime never calls its delay, deadline or main-executor hooks on
/// Swift 6.3 here (a sleep's timer goes to Dispatch; only its wake-up comes back through this one).
///
/// Semantics: while at least one ``GlobalJobInterceptor`` is added, every global job is offered to each in the order
/// they were added, with the hook's lock held (so an interceptor that was removed is never offered another job); the
/// first that takes it runs it, and a job nobody takes goes where it would have gone (to the hook that was installed
/// before, or to the global executor). When the last one is removed, the hook that was installed before is put back,
/// unless someone installed another after this one (then this one stays and passes everything through).
///
/// Unsafe in the way NIO's is: the hook is one process-wide variable that the runtime reads without synchronisation,
/// so install and remove it where no other code changes it at the same time.
@_spi(Explorer) public enum GlobalEnqueueHook {
    public typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    /// The runtime's variable, found by name; nil where the runtime has none.
    // nonisolated(unsafe): the pointer never changes after it is found; this file writes through it only with
    // `state`'s lock held, and the runtime reads it unsynchronised, which is the hook's own contract (see above).
    nonisolated(unsafe) private static let variable: UnsafeMutablePointer<Hook?>? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_task_enqueueGlobal_hook") else {
            return nil
        }
        return symbol.assumingMemoryBound(to: Hook?.self)
    }()

    private struct State {
        var interceptors: [any GlobalJobInterceptor] = []
        /// The hook found when this one was installed (nil: none).
        var previous: Hook?
        var installed = false
    }

    private static let state = Locked(State())

    /// The thin function the runtime calls: it captures nothing (the interceptors live in `state`).
    // nonisolated(unsafe): a constant function of no state; thin function types are not marked Sendable.
    nonisolated(unsafe) private static let ours: Hook = { job, original in route(job, original) }

    /// Whether this runtime exposes the hook.
    public static var isAvailable: Bool { variable != nil }

    /// Offers every later global job to `interceptor` (after those added before it); installs the hook for the first.
    /// False where the runtime has no hook: nothing is intercepted.
    @discardableResult
    public static func add(_ interceptor: any GlobalJobInterceptor) -> Bool {
        guard let variable else { return false }
        state.withLock { state in
            state.interceptors.append(interceptor)
            guard !state.installed else { return }
            state.previous = variable.pointee
            variable.pointee = ours
            state.installed = true
        }
        return true
    }

    /// Stops offering jobs to `interceptor`; a job it is being offered now is settled first (the lock is held).
    public static func remove(_ interceptor: any GlobalJobInterceptor) {
        guard let variable else { return }
        state.withLock { state in
            state.interceptors.removeAll { $0 === interceptor }
            guard state.interceptors.isEmpty, state.installed else { return }
            if let current = variable.pointee,
                unsafeBitCast(current, to: UnsafeRawPointer.self)
                    == unsafeBitCast(ours, to: UnsafeRawPointer.self)
            {
                variable.pointee = state.previous
                state.installed = false
            }
        }
    }

    /// The hook itself: the first interceptor that takes the job runs it; otherwise it goes on as it would have.
    fileprivate static func route(_ job: UnownedJob, _ original: Original) {
        let previous = state.withLock { state -> Hook?? in
            for interceptor in state.interceptors where interceptor.take(job) { return .none }
            return .some(state.previous)
        }
        switch previous {
        case .none: return
        case .some(let hook?): hook(job, original)
        case .some(nil): original(job)
        }
    }
}

/// Takes some of the process's global jobs (``GlobalEnqueueHook``): an exploration takes its test's.
@_spi(Explorer) public protocol GlobalJobInterceptor: AnyObject, Sendable {
    /// Called with the hook's lock held, on the thread that enqueues: true if it took `job` (and will run it exactly
    /// once), false to let it pass. It must not start or enqueue other global work.
    func take(_ job: UnownedJob) -> Bool
}

/// The id of the task a job belongs to, 0 if it is no task's (the runtime function `UnownedJob.description` prints).
@_spi(Explorer) public func taskID(of job: UnownedJob) -> UInt64 { jobTaskID(job) }
