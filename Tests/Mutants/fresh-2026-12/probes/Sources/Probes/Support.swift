import Dispatch
import Foundation
import SchedulerKit

/// The exit status: 0 when every check held (the unmutated code), 1 when a probe saw its bug.
nonisolated(unsafe) var exitStatus: Int32 = 0

/// Prints one check's verdict: "OK: …" where the promise held, "BUG: …" where it did not.
func verdict(_ held: Bool, _ message: String) {
    print((held ? "OK: " : "BUG: ") + message)
    if !held { exitStatus = 1 }
    fflush(nil)
}

/// Runs an async body to its end from synchronous code (the main thread blocks; nothing here needs the main actor).
func blockOn(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        done.signal()
    }
    done.wait()
}

/// A counter and a high-water mark of tasks in flight at once.
final class Overlap: Sendable {
    private let state = Locked((inFlight: 0, most: 0, total: 0))
    func enter() {
        state.withLock {
            $0.inFlight += 1
            $0.most = max($0.most, $0.inFlight)
            $0.total += 1
        }
    }
    func leave() { state.withLock { $0.inFlight -= 1 } }
    var most: Int { state.withLock { $0.most } }
    var total: Int { state.withLock { $0.total } }
}

/// A value set once from anywhere, read from anywhere.
final class Box<Value: Sendable>: Sendable {
    private let state: Locked<Value>
    init(_ value: Value) { state = Locked(value) }
    var value: Value {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
    func update<R>(_ body: (inout Value) -> R) -> R { state.withLock(body) }
}

/// Waits until `condition` holds or `timeout` passes; returns whether it held.
func wait(upTo timeout: Duration, until condition: () -> Bool) -> Bool {
    let end = ContinuousClock.now + timeout
    while ContinuousClock.now < end {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// The kernel's name of the calling thread.
func threadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
}

/// How many threads this process has.
func processThreadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
}
