import Dispatch
import Foundation

/// Threads that start producing together: each is created and parked first, then all are released at once, so that
/// contention starts at the same moment for all of them (and a measurement can start there too).
public enum Producers {
    /// Runs `body(index)` on `count` new threads released together; `released` runs just before the release.
    /// Returns when all have finished. Use more threads than cores for real contention.
    public static func run(_ count: Int, released: () -> Void = {}, _ body: @escaping @Sendable (Int) -> Void) {
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            let thread = Thread {
                ready.signal()
                go.wait()
                body(index)
                done.signal()
            }
            thread.name = "producer-\(index)"
            thread.start()
        }
        for _ in 0..<count { ready.wait() }
        released()
        for _ in 0..<count { go.signal() }
        for _ in 0..<count { done.wait() }
    }
}
