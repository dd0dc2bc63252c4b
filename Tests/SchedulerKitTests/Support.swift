import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import SchedulerKit
/// A value shared between a test and the tasks it schedules.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Locked<Value>
    init(_ value: Value) { mutex = Locked(value) }
    var value: Value { mutex.withLock { $0 } }
    func update<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}

extension Shared where Value == [Int] {
    func append(_ element: Int) { update { $0.append(element) } }
}

/// Polls `condition` every millisecond until it holds or `timeout` passes (generous: these bound correctness, not speed).
@discardableResult
func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        pause(milliseconds: 1)
    }
    return condition()
}

/// Waits until every task scheduled before it on a serial scheduler has run.
func drain(_ scheduler: any Scheduler, timeout: Duration = .seconds(10)) -> Bool {
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule { done.signal() }
    return done.wait(timeout: .now() + .nanoseconds(Int(timeout.nanosecondsChecked()))) == .success
}

/// A task that blocks its scheduler until the test opens the gate.
final class Gate: Sendable {
    private let opened = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)
    func block(_ scheduler: any Scheduler) {
        scheduler.schedule { [self] in
            entered.signal()
            opened.wait()
        }
        entered.wait()
    }
    func open() { opened.signal() }
}



/// An atomic counter (a class, so `#expect` can read it).
final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)
    @discardableResult func increment() -> Int { atomic.add(1, ordering: .relaxed).newValue }
    func decrement() { atomic.subtract(1, ordering: .relaxed) }
    var value: Int { atomic.load(ordering: .relaxed) }
}

/// An atomic flag (a class, so `#expect` can read it).
final class Flag: Sendable {
    private let atomic = Atomic<Bool>(false)
    func set(_ value: Bool = true) { atomic.store(value, ordering: .relaxed) }
    var value: Bool { atomic.load(ordering: .relaxed) }
}

/// Sleeps the calling thread (for "nothing more happens" checks, never for speed).
func pause(milliseconds: Int) { usleep(useconds_t(milliseconds * 1_000)) }

/// `eventually` for async tests: sleeps with `Task.sleep`, so it never blocks a cooperative thread.
func eventuallyAsync(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
