import Dispatch
import Foundation
import SchedulerKit
import Synchronization

// What the test targets share: values tasks write and tests read, gates that hold a scheduler, polling with generous
// time-outs (they bound correctness, never speed), and scratch folders.

/// A value shared between a test and the tasks it schedules (behind a lock, so ThreadSanitizer sees the ordering).
public final class Shared<Value: Sendable>: Sendable {
    private let locked: Locked<Value>
    public init(_ value: Value) { locked = Locked(value) }
    public var value: Value { locked.withLock { $0 } }
    public func set(_ value: Value) { locked.withLock { $0 = value } }
    @discardableResult
    public func update<R: Sendable>(_ body: (inout Value) -> R) -> R { locked.withLock { body(&$0) } }
}

extension Shared where Value: RangeReplaceableCollection, Value.Element: Sendable {
    public func append(_ element: Value.Element) { update { $0.append(element) } }
}

/// An atomic counter (a class, so `#expect` can read it).
public final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)
    public init() {}
    @discardableResult public func increment() -> Int { atomic.add(1, ordering: .relaxed).newValue }
    public func decrement() { atomic.subtract(1, ordering: .relaxed) }
    public var value: Int { atomic.load(ordering: .relaxed) }
}

/// An atomic flag (a class, so `#expect` can read it).
public final class Flag: Sendable {
    private let atomic = Atomic<Bool>(false)
    public init() {}
    public func set(_ value: Bool = true) { atomic.store(value, ordering: .relaxed) }
    public var value: Bool { atomic.load(ordering: .relaxed) }
}

/// Something to capture, to see when a task lets go of it.
public final class Capture: Sendable {
    public init() {}
    public func touch() {}
}

/// A task that blocks its scheduler until the test opens the gate, so that what is scheduled next stays queued.
public final class Gate: Sendable {
    private let opened = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)

    public init() {}

    /// A gate already blocking `scheduler`.
    public static func blocking(_ scheduler: any Scheduler) -> Gate {
        let gate = Gate()
        gate.block(scheduler)
        return gate
    }

    /// Schedules the blocking task and returns once it runs.
    public func block(_ scheduler: any Scheduler) {
        scheduler.schedule { [self] in
            entered.signal()
            opened.wait()
        }
        entered.wait()
    }

    public func open() { opened.signal() }
}

/// How long a test waits for something that must happen: long, so a loaded machine never fails a correct scheduler.
public let patience: Duration = .seconds(10)

/// Polls `condition` every millisecond until it holds or `timeout` passes.
@discardableResult
public func eventually(timeout: Duration = patience, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        pause(milliseconds: 1)
    }
    return condition()
}

/// `eventually` for async tests: sleeps with `Task.sleep`, so it never blocks a cooperative thread.
public func eventuallyAsync(timeout: Duration = patience, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// Waits until every task scheduled before it on a serial scheduler has run.
public func drain(_ scheduler: any Scheduler, timeout: Duration = patience) -> Bool {
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule { done.signal() }
    return waited(done, timeout: timeout)
}

/// Waits for a semaphore at most `timeout`; false when it timed out.
public func waited(_ semaphore: DispatchSemaphore, timeout: Duration = patience) -> Bool {
    semaphore.wait(
        timeout: .now()
            + .nanoseconds(
                Int(timeout.components.seconds) * 1_000_000_000
                    + Int(timeout.components.attoseconds / 1_000_000_000))) == .success
}

/// Sleeps the calling thread (for "nothing more happens" checks, never for speed).
public func pause(milliseconds: Int) { usleep(useconds_t(milliseconds * 1_000)) }

/// A thread of this process as the kernel sees it (Linux `/proc`): for tests that follow a scheduler's own threads.
public enum KernelThread {
    /// The calling thread's id, as /proc/thread-self names it ("<pid>/task/<tid>").
    public static func currentID() -> String {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return String(link.split(separator: "/").last ?? "")
    }

    /// Whether the thread with this id still runs.
    public static func exists(_ id: String) -> Bool { FileManager.default.fileExists(atPath: "/proc/self/task/\(id)") }

    /// CPU time the thread has used, in nanoseconds (the first field of its schedstat): no other load can raise it.
    public static func cpuNanoseconds(_ id: String) throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/task/\(id)/schedstat", encoding: .utf8)
        return Int(text.split(separator: " ").first ?? "") ?? 0
    }
}

/// A new empty folder under the system's temporary folder, removed with everything in it when the test process
/// exits (a test run left 13 of them in /tmp each time).
public func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("scheduler-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    ScratchFolders.removeAtExit(url)
    return url
}

/// The folders this process made, removed by one `atexit` handler: a test may hand its folder to code that reads it
/// after the test's own scope (a report written, then read back), so removal waits for the process to end. A child
/// process of an exit test has its own list, empty unless it made folders itself.
private enum ScratchFolders {
    static let made = Locked<[URL]>([])
    static let registered: Void = { atexit { ScratchFolders.removeAll() } }()

    static func removeAtExit(_ url: URL) {
        _ = registered
        made.withLock { $0.append(url) }
    }

    static func removeAll() {
        for url in made.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
}
