#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DequeModule

/// Per-thread state: the current scheduler, the immediate scheduler's trampoline, and the pool a worker belongs to.
/// Reached through a pthread key; only its own thread ever touches it.
final class ThreadState {
    /// Unretained: whoever sets it keeps the scheduler alive until it restores the previous value.
    unowned(unsafe) var current: (any Scheduler)?
    /// Work the immediate scheduler deferred while running work on this thread (nil when no trampoline runs).
    var trampoline: Deque<ScheduledWork>?
    /// The pool whose worker this thread is, if any.
    unowned(unsafe) var pool: ThreadPoolCore?

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let rc = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<ThreadState>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<ThreadState>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(rc == 0, "pthread_key_create failed: \(rc)")
        return key
    }()

    /// This thread's state, created on first use and freed when the thread exits.
    static var forThisThread: ThreadState {
        @inline(__always) get {
            if let pointer = pthread_getspecific(key) {
                return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
            }
            let state = ThreadState()
            pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
            return state
        }
    }
}

extension Schedulers {
    /// The scheduler whose task is running on this thread; nil outside every task.
    public static var current: (any Scheduler)? {
        ThreadState.forThisThread.current
    }

    /// Runs `body` with `Schedulers.current === scheduler`, restoring the previous value afterwards (RAC's
    /// `performAsCurrentScheduler:`). Every backend runs every task through this; third-party schedulers can too.
    /// The caller keeps `scheduler` alive for the duration of the call.
    @inline(__always) @discardableResult
    public static func performAsCurrent<R>(_ scheduler: any Scheduler, _ body: () throws -> R) rethrows -> R {
        let state = ThreadState.forThisThread
        unowned(unsafe) let previous = state.current
        state.current = scheduler
        defer { state.current = previous }
        return try body()
    }
}
