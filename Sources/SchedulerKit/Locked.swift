#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a pthread mutex.
///
/// Why not `Synchronization.Mutex`: on Linux its lock and unlock run inside the standard library, which is not
/// built with ThreadSanitizer, so TSan cannot see the ordering a `Mutex` provides and reports races that are not
/// there. A pthread mutex is intercepted by TSan, so the suite's `--sanitize=thread` run stays meaningful.
// @unchecked Sendable: `value` is read and written only inside `withLock`, with the mutex held.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Unchecked: the mutex already makes every access exclusive, so the runtime check would only cost time.
    @exclusivity(unchecked) private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held. Never call user code (or anything that may re-enter) from `body`.
    @inline(__always)
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
