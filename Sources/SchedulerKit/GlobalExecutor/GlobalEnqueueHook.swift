import CSwiftRuntimeHooks
import Synchronization

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
/// A *replacement* (a pool made the global executor, ``ThreadPool/unsafeInstallAsGlobalExecutor()``) takes every job
/// that no interceptor took, in place of the hook before and the global executor; while no interceptor is added, a job
/// reaches it without taking the hook's lock (one atomic load).
///
/// Unsafe in the way NIO's is: the hook is one process-wide variable that the runtime reads without synchronisation,
/// so install and remove it where no other code changes it at the same time.
@_spi(Explorer) public enum GlobalEnqueueHook {
    public typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    /// The runtime's variable, resolved by the linker (so that a statically linked program finds it too, where
    /// `dlsym` cannot); nil where the runtime has none.
    // nonisolated(unsafe): the pointer never changes after it is found; this file writes through it only with
    // `state`'s lock held, and the runtime reads it unsynchronised, which is the hook's own contract (see above).
    nonisolated(unsafe) private static let variable: UnsafeMutablePointer<Hook?>? = {
        guard let address = schedulerkit_enqueue_global_hook_address() else { return nil }
        return UnsafeMutableRawPointer(address).assumingMemoryBound(to: Hook?.self)
    }()

    private struct State {
        var interceptors: [any GlobalJobInterceptor] = []
        /// The hook found when this one was installed (nil: none).
        var previous: Hook?
        var installed = false
        /// The replacement installed, kept alive here while it is (and forever after: see `replacement`).
        var replacement: GlobalJobReplacement?
    }

    private static let state = Locked(State())
    /// Whether any interceptor is added: read first on every job, so that with none the lock is not taken.
    private static let intercepting = Atomic<Bool>(false)
    /// The replacement, unretained, read on every job without the lock. A replacement once installed is never
    /// released (`retired` keeps it), so a job that read it just before it was removed still reaches a live object.
    /// Its address as a number (an atomic of a pointer is not `Sendable`); 0: none.
    private static let replacement = Atomic<UInt>(0)
    private static let retired = Locked<[GlobalJobReplacement]>([])

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
            intercepting.store(true, ordering: .releasing)
            install(&state, variable)
        }
        return true
    }

    /// Makes `replacement` take every job that no interceptor takes. False (and nothing changes) where the runtime has
    /// no hook, where another replacement is installed, or where a hook that is not this one is installed (someone
    /// else, such as SwiftNIO, took the global executor over).
    static func install(_ replacement: GlobalJobReplacement) -> Bool {
        guard let variable else { return false }
        return state.withLock { state in
            guard state.replacement == nil else { return false }
            if let current = variable.pointee, !isOurs(current) { return false }
            state.replacement = replacement
            retired.withLock { $0.append(replacement) }
            Self.replacement.store(
                UInt(bitPattern: Unmanaged.passUnretained(replacement).toOpaque()), ordering: .releasing)
            install(&state, variable)
            return true
        }
    }

    /// Removes `replacement` if it is the one installed; jobs arrive where they did before it from then on.
    static func uninstall(_ replacement: GlobalJobReplacement) {
        guard let variable else { return }
        state.withLock { state in
            guard state.replacement === replacement else { return }
            state.replacement = nil
            Self.replacement.store(0, ordering: .releasing)
            uninstallIfUnused(&state, variable)
        }
    }

    /// Whether any replacement is installed (a pool that took the global executor over).
    static var hasReplacement: Bool { replacement.load(ordering: .acquiring) != 0 }

    /// Whether `replacement` is the one installed.
    static func isInstalled(_ replacement: GlobalJobReplacement) -> Bool {
        state.withLock { $0.replacement === replacement }
    }

    private static func install(_ state: inout State, _ variable: UnsafeMutablePointer<Hook?>) {
        guard !state.installed else { return }
        state.previous = variable.pointee
        variable.pointee = ours
        state.installed = true
    }

    private static func isOurs(_ hook: Hook) -> Bool {
        unsafeBitCast(hook, to: UnsafeRawPointer.self) == unsafeBitCast(ours, to: UnsafeRawPointer.self)
    }

    /// Puts the hook before back once nothing uses this one, unless someone installed another after it.
    private static func uninstallIfUnused(_ state: inout State, _ variable: UnsafeMutablePointer<Hook?>) {
        guard state.interceptors.isEmpty, state.replacement == nil, state.installed else { return }
        if let current = variable.pointee, isOurs(current) {
            variable.pointee = state.previous
            state.installed = false
        }
    }

    /// Stops offering jobs to `interceptor`; a job it is being offered now is settled first (the lock is held).
    public static func remove(_ interceptor: any GlobalJobInterceptor) {
        guard let variable else { return }
        state.withLock { state in
            state.interceptors.removeAll { $0 === interceptor }
            intercepting.store(!state.interceptors.isEmpty, ordering: .releasing)
            uninstallIfUnused(&state, variable)
        }
    }

    /// The hook itself: the first interceptor that takes the job runs it; otherwise the replacement does, or, with none,
    /// it goes on as it would have.
    fileprivate static func route(_ job: UnownedJob, _ original: Original) {
        if intercepting.load(ordering: .acquiring) {
            let taken = state.withLock { state in state.interceptors.contains { $0.take(job) } }
            if taken { return }
        }
        if let replacement = UnsafeRawPointer(bitPattern: replacement.load(ordering: .acquiring)) {
            Unmanaged<GlobalJobReplacement>.fromOpaque(replacement).takeUnretainedValue().enqueue(job)
            return
        }
        if let previous = state.withLock({ $0.previous }) { previous(job, original) } else { original(job) }
    }
}

/// What takes every global job no interceptor took, in place of Swift's global executor (a pool made the global
/// executor). `enqueue` is called on the thread that enqueues, with no lock held, and must run the job exactly once.
final class GlobalJobReplacement: Sendable {
    let enqueue: @Sendable (UnownedJob) -> Void
    init(_ enqueue: @escaping @Sendable (UnownedJob) -> Void) { self.enqueue = enqueue }
}

/// Takes some of the process's global jobs (``GlobalEnqueueHook``): an exploration takes its test's.
@_spi(Explorer) public protocol GlobalJobInterceptor: AnyObject, Sendable {
    /// Called with the hook's lock held, on the thread that enqueues: true if it took `job` (and will run it exactly
    /// once), false to let it pass. It must not start or enqueue other global work.
    func take(_ job: UnownedJob) -> Bool
}

/// The id of the task a job belongs to, 0 if it is no task's (the runtime function `UnownedJob.description` prints).
@_spi(Explorer) public func taskID(of job: UnownedJob) -> UInt64 { jobTaskID(job) }

/// The id of the task running on this thread, 0 if none. The runtime's own accessor, where `withUnsafeCurrentTask`
/// costs some 200 instructions more (callgrind): the explorer asks on every `schedule`.
@_spi(Explorer) public func currentTaskID() -> UInt64 {
    guard let task = schedulerkit_current_task() else { return 0 }
    // A task is a job: the runtime reads its id from the same object.
    return jobTaskID(unsafeBitCast(task, to: UnownedJob.self))
}
