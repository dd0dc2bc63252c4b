import Dispatch
import Foundation
import SchedulerKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// What checks of every kind share: counts scaled for a slower run, counters, shared values and weak references
// between a check and the work it starts, and waits that poll.

/// The loop counts of the stress checks — C2's races, R2's and R3's steps, the S and P floods — are floors (100 000
/// races, 1 000 000 steps…) times a factor: 1, unless `SCHEDULERKIT_CONFORMANCE_SCALE` (0.01 to 1) says less. CI's
/// ThreadSanitizer run sets 0.1: TSan looks for races in the same code paths, ten times slower per step, and the
/// full counts already ran in the plain test run. Forced checks (S1, P1, P2, P4, L6) never scale.
public enum ConformanceScale {
    public static let factor: Double = {
        guard let text = ProcessInfo.processInfo.environment["SCHEDULERKIT_CONFORMANCE_SCALE"], let value = Double(text)
        else { return 1 }
        return min(1, max(0.01, value))
    }()

    /// `count` times the factor, in whole thousands (at least 1 000).
    static func scaled(_ count: Int) -> Int {
        max(1_000, Int((Double(count) * factor / 1_000).rounded()) * 1_000)
    }
}

/// Sleeps about a millisecond (polling interval of every wait in the kit).
func sleepBriefly() { usleep(1_000) }

/// This thread's id, to tell threads apart in checks.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}

/// An atomic counter shared by a check and the tasks it schedules.
final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)
    @discardableResult func increment() -> Int { atomic.add(1, ordering: .acquiringAndReleasing).newValue }
    @discardableResult func decrement() -> Int { atomic.subtract(1, ordering: .acquiringAndReleasing).newValue }
    var value: Int { atomic.load(ordering: .acquiring) }
}

/// A value shared between a check and the tasks it schedules (a pthread-backed lock, so TSan sees the ordering).
final class Shared<Value: Sendable>: Sendable {
    private let locked: Locked<Value>
    init(_ value: Value) { locked = Locked(value) }
    var value: Value { locked.withLock { $0 } }
    @discardableResult func update<R>(_ body: (inout Value) -> R) -> R { locked.withLock { body(&$0) } }
}

extension Shared {
    func append<Element: Sendable>(_ element: Element) where Value == [Element] { update { $0.append(element) } }
}

/// Counts live instances of ``Tracked``: a capture the check hands to a task, to see when the task lets go of it.
final class LiveCount: Sendable {
    let counter = Counter()
    func make() -> Tracked { Tracked(self) }
    var live: Int { counter.value }
}

final class Tracked: Sendable {
    private let count: LiveCount
    init(_ count: LiveCount) {
        self.count = count
        count.counter.increment()
    }
    func touch() {}
    deinit { count.counter.decrement() }
}

/// The address of a byte on the caller's stack: comparing it across recursion steps shows stack growth.
@inline(never)
func stackAddress() -> UInt {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { UInt(bitPattern: $0.baseAddress) }
}

/// Watches stack depth per thread. Recursion checks stop as soon as any thread's stack grew by `limit` bytes,
/// so a scheduler that recurses on the stack fails the check instead of crashing the process.
final class StackProbe: Sendable {
    static let limit: UInt = 64 * 1024
    private let extremes = Locked<[UInt: (low: UInt, high: UInt)]>([:])
    private let worst = Atomic<Int>(0)

    /// Records this step's depth; returns false once the stack has grown by more than `limit` on this thread.
    func sample() -> Bool {
        let address = stackAddress()
        let thread = currentThreadID()
        let spread = extremes.withLock { extremes -> UInt in
            var entry = extremes[thread] ?? (address, address)
            entry.low = min(entry.low, address)
            entry.high = max(entry.high, address)
            extremes[thread] = entry
            return entry.high - entry.low
        }
        worst.max(Int(spread), ordering: .relaxed)
        return spread <= Self.limit
    }

    var worstSpread: Int { worst.load(ordering: .relaxed) }
}

/// Threads that are inside a `schedule(_:)` call right now (rule S5).
final class InsideSchedule: Sendable {
    private let threads = Locked<[UInt: Int]>([:])

    func call<R>(_ body: () -> R) -> R {
        let thread = currentThreadID()
        threads.withLock { $0[thread, default: 0] += 1 }
        defer { threads.withLock { $0[thread, default: 1] -= 1 } }
        return body()
    }

    var thisThreadIsInside: Bool { threads.withLock { ($0[currentThreadID()] ?? 0) > 0 } }
}

/// Waits on a semaphore for at most `timeout`; false when it timed out.
func wait(_ semaphore: DispatchSemaphore, timeout: Duration = .seconds(30)) -> Bool {
    semaphore.wait(timeout: .now() + .nanoseconds(Int(timeout.nanosecondsChecked()))) == .success
}

/// A weak reference a check can share with tasks (to see whether something was freed, or to reach a handle
/// without keeping it alive).
final class WeakBox: Sendable {
    private struct Reference { weak var object: AnyObject? }
    private let reference: Locked<Reference>
    init(_ object: AnyObject? = nil) { reference = Locked(Reference(object: object)) }
    var object: AnyObject? { reference.withLock { $0.object } }
    func set(_ object: AnyObject?) { reference.withLock { $0.object = object } }
    var isNil: Bool { object == nil }
}

/// Holds a handle for tasks that must cancel themselves (set right after `schedule` returns).
final class HandleBox: Sendable {
    private let handle = Locked<(any Cancellable)?>(nil)
    func set(_ value: any Cancellable) { handle.withLock { $0 = value } }
    var value: (any Cancellable)? { handle.withLock { $0 } }
}

/// Polls `condition` in real time, without driving any scheduler, for at most `timeout`; returns how long it took.
/// For a blocking check (scheduler rules); an `async` check (clock and executor rules) polls with
/// `poll(_:timeout:_:)`, which sleeps as a task instead of blocking a thread of the cooperative pool.
@discardableResult
func poll(upTo timeout: Duration, until condition: () -> Bool) -> Duration {
    let start = ContinuousClock.now
    while !condition() && ContinuousClock.now - start < timeout { usleep(200) }
    return ContinuousClock.now - start
}
