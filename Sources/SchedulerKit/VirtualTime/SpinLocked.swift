import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a spin lock that yields the processor while it waits: the virtual-time engine's state lock.
///
/// Why not ``Locked``: a pthread mutex costs a call into libc to take and another to give back, about 55
/// instructions together (callgrind), more than the rest of what scheduling a virtual task does under it; this lock
/// takes one compare-and-swap and gives back with one store, both inlined. It suits the engine because nothing is
/// held long under it (no user code ever runs with it held) and a waiter that spins briefly and then yields costs
/// little; it would not suit a lock held across work. Its atomics are compiled into this module, so ThreadSanitizer
/// sees the ordering it provides, as it does a pthread mutex's.
// @unchecked Sendable: `value` is read and written only inside `withLock`, with the lock held.
final class SpinLocked<Value>: @unchecked Sendable {
    private let held = Atomic<Bool>(false)
    /// Unchecked: the lock already makes every access exclusive, so the runtime check would only cost time.
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held. Never call user code (or anything that may re-enter) from `body`.
    @inline(__always)
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        if !held.compareExchange(expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed)
            .exchanged
        {
            lockAfterWaiting()
        }
        defer { held.store(false, ordering: .releasing) }
        return try body(&value)
    }

    /// Spins while the holder is likely still running, then yields the processor between tries, so that a holder
    /// that was preempted gets to finish.
    @inline(never)
    private func lockAfterWaiting() {
        var tries = 0
        while true {
            if !held.load(ordering: .relaxed),
                held.compareExchange(
                    expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
                ).exchanged
            {
                return
            }
            tries += 1
            if tries > 100 { sched_yield() }
        }
    }
}
