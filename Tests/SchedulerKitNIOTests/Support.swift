import Dispatch
import NIOCore
import NIOPosix
import SchedulerKit
import Synchronization

/// Runs `body` with the one loop of a fresh one-thread group, and shuts the group down afterwards.
func withEventLoop(_ body: (any EventLoop) throws -> Void) rethrows {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    defer { try? group.syncShutdownGracefully() }
    try body(group.next())
}

/// Runs `body` with a fresh started `NIOThreadPool` of `threads` threads, and shuts it down afterwards.
func withThreadPool(threads: Int = 1, _ body: (NIOThreadPool) throws -> Void) rethrows {
    let pool = NIOThreadPool(numberOfThreads: threads)
    pool.start()
    defer { try? pool.syncShutdownGracefully() }
    try body(pool)
}

/// Waits for a semaphore at most 10 s; false when it timed out.
func waited(_ semaphore: DispatchSemaphore) -> Bool {
    semaphore.wait(timeout: .now() + 10) == .success
}

/// A value tasks write and the test reads (behind a lock, so ThreadSanitizer sees the ordering).
final class Box<Value: Sendable>: Sendable {
    private let locked: Locked<Value>
    init(_ value: Value) { locked = Locked(value) }
    var value: Value { locked.withLock { $0 } }
    func set(_ value: Value) { locked.withLock { $0 = value } }
    func update(_ body: (inout Value) -> Void) { locked.withLock { body(&$0) } }
}

/// Something to capture, to see when a task lets go of it.
final class Capture: Sendable {
    func touch() {}
}

/// Blocks a serial scheduler: its first task waits until `open()`, so what is scheduled next stays queued.
final class Blocker: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)

    init(_ scheduler: any Scheduler) {
        scheduler.schedule { [self] in
            entered.signal()
            release.wait()
        }
        entered.wait()
    }

    func open() { release.signal() }
}
