import CSchedulerKitThreadLocal
import DequeModule

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Per-thread state: the current scheduler, the immediate scheduler's trampoline, and the pool a worker belongs to.
/// A struct behind a C thread-local pointer: only its own thread ever touches it, and a pointer
/// (unlike a class property) costs no dynamic exclusivity check on the hot paths that read and write it.
/// `@usableFromInline`, with `current` and the fast path of `forThisThread`, so that `performAsCurrent` inlines into
/// schedulers outside SchedulerKit: called across the module boundary it was a generic call that cost a third party's
/// scheduler about 8 ns per task (bench W1, `current-call` against `immediate`).
@usableFromInline struct ThreadState {
    /// Unretained: whoever sets it keeps the scheduler alive until it restores the previous value.
    @usableFromInline unowned(unsafe) var current: (any Scheduler)?
    /// Whether the immediate scheduler is running work on this thread (nested work then goes to `trampoline`).
    var trampolineActive = false
    /// Work the immediate scheduler deferred while running work on this thread.
    var trampoline = Deque<ScheduledWork>()
    /// The pool whose worker this thread is, if any.
    unowned(unsafe) var pool: ThreadPoolCore?
    /// The executor outside SchedulerKit whose thread this is, as an adapter marked it
    /// (`Schedulers.markThread(asOneOf:)`).
    @usableFromInline var host: ObjectIdentifier?

    /// Frees a thread's state when the thread exits. Only the slow path of ``forThisThread`` touches it: the fast path
    /// reads the C thread-local pointer (see `CSchedulerKitThreadLocal`), one load where `pthread_getspecific` is a
    /// call into libc.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let rc = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                let state = pointer.assumingMemoryBound(to: ThreadState.self)
            #else
                guard let state = pointer?.assumingMemoryBound(to: ThreadState.self) else { return }
            #endif
            // Cleared first: a later destructor that reaches SchedulerKit on this thread gets a fresh state (and
            // registers it again) instead of a freed one.
            schedulerkit_thread_state_set(nil)
            state.deinitialize(count: 1)
            state.deallocate()
        }
        precondition(rc == 0, "pthread_key_create failed: \(rc)")
        return key
    }()

    /// This thread's state, created on first use and freed when the thread exits.
    @usableFromInline static var forThisThread: UnsafeMutablePointer<ThreadState> {
        @inlinable @inline(__always) get {
            if let pointer = schedulerkit_thread_state_get() {
                return pointer.assumingMemoryBound(to: ThreadState.self)
            }
            return makeForThisThread()
        }
    }

    @usableFromInline @inline(never)
    static func makeForThisThread() -> UnsafeMutablePointer<ThreadState> {
        let state = UnsafeMutablePointer<ThreadState>.allocate(capacity: 1)
        state.initialize(to: ThreadState())
        pthread_setspecific(key, state)
        schedulerkit_thread_state_set(state)
        return state
    }
}

extension Schedulers {
    /// The scheduler whose task is running on this thread; nil outside every task.
    public static var current: (any Scheduler)? {
        ThreadState.forThisThread.pointee.current
    }

    /// Whether `scheduler` is the one current on this thread: `current === scheduler` compared as identities, so
    /// that asking counts no reference (the explorer asks on every `schedule`).
    @inlinable @inline(__always)
    package static func isCurrent(_ scheduler: AnyObject) -> Bool {
        ThreadState.forThisThread.pointee.current.map { ObjectIdentifier($0) } == ObjectIdentifier(scheduler)
    }

    /// Runs `body` with `Schedulers.current === scheduler`, restoring the previous value afterwards (RAC's
    /// `performAsCurrentScheduler:`). Every backend runs every task through this; third-party schedulers can too.
    /// The caller keeps `scheduler` alive for the duration of the call.
    @inlinable @inline(__always) @discardableResult
    public static func performAsCurrent<R>(_ scheduler: any Scheduler, _ body: () throws -> R) rethrows -> R {
        let state = ThreadState.forThisThread
        unowned(unsafe) let previous = state.pointee.current
        state.pointee.current = scheduler
        defer { state.pointee.current = previous }
        return try body()
    }

    /// Marks this thread as one of `host`'s own: an adapter calls it from each item its executor runs (a store into
    /// this thread's state), so that it can later ask `isThread(oneOf:)` whatever is current there.
    /// The mark is an identity, not a reference: it stays right as long as the thread does not outlive `host`, as a
    /// pool's threads do not.
    @inlinable @inline(__always)
    package static func markThread(asOneOf host: AnyObject) {
        ThreadState.forThisThread.pointee.host = ObjectIdentifier(host)
    }

    /// Whether `markThread(asOneOf:)` marked this thread with `host`.
    package static func isThread(oneOf host: AnyObject) -> Bool {
        ThreadState.forThisThread.pointee.host == ObjectIdentifier(host)
    }
}
