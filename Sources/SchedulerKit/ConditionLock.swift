#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex and a condition variable that waits on `CLOCK_MONOTONIC` (the clock of ``SchedulerTime``).
/// The pool needs a condition variable, which `Synchronization.Mutex` does not offer.
///
/// Linux is where the project is built and tested. On Darwin, whose condition variables cannot wait on
/// `CLOCK_MONOTONIC`, a timed wait waits for the time remaining until the deadline instead; that branch compiles
/// for Darwin but has never run there.
// @unchecked Sendable: the pthread objects are heap-allocated once, never moved, and are thread-safe by contract.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        var mutexAttributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&mutexAttributes)
        #if canImport(Glibc)
            // Adaptive: spin briefly before sleeping in the kernel; hold times here are a few dozen nanoseconds.
            pthread_mutexattr_settype(&mutexAttributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(mutex, &mutexAttributes)
        pthread_mutexattr_destroy(&mutexAttributes)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits (lock held) until signalled or until `deadline` on the monotonic clock; spurious wake-ups happen.
    func wait(until deadline: SchedulerTime?) {
        guard let deadline, deadline != .distantFuture else {
            pthread_cond_wait(condition, mutex)
            return
        }
        #if canImport(Glibc)
            var time = timespec(
                tv_sec: Int(deadline.nanoseconds / 1_000_000_000),
                tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
            pthread_cond_timedwait(condition, mutex, &time)
        #else
            // The wall clock may jump; a relative wait does not care, and a late wake-up only re-checks.
            let remaining = max(0, deadline.nanoseconds - SchedulerTime.monotonicNow().nanoseconds)
            var time = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            pthread_cond_timedwait_relative_np(condition, mutex, &time)
        #endif
    }
}
