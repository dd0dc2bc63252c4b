import Foundation
@_spi(Threads) import SchedulerKit

/// An exploring scheduler driven by a thread of its own until stopped, with no body: whatever is ready runs, in the
/// strategy's order; when nothing is ready, virtual time moves to the next deadline; when nothing is queued, the
/// thread waits. For code that is not one async body (a component that others call into), and for the kit, which
/// judges the scheduler's executors this way. Work scheduled from other threads is simply run (nothing is "outside"
/// here).
public final class FreeRunningExplorer: Sendable {
    public let scheduler: ExploringScheduler
    private let stopping = Locked(false)
    private let stopped = DispatchSemaphore(value: 0)

    public init(strategy: ExplorationStrategy, seed: UInt64 = 0, name: String = "free-running") {
        let scheduler = ExploringScheduler(name: name, strategy: strategy, seed: seed)
        self.scheduler = scheduler
        let thread = Thread { [stopping, stopped] in
            nameThisThread(name)  // from inside: a name set before `start()` does not reach the kernel on Linux
            scheduler.driving {
                while !stopping.withLock({ $0 }) {
                    if let entry = scheduler.takeNext(dueBy: .distantFuture) {
                        _ = scheduler.perform(entry)
                    } else {
                        _ = scheduler.waitForArrival(timeout: .milliseconds(20))
                    }
                }
            }
            stopped.signal()
        }
        thread.start()
    }

    /// Stops the thread after the job it is running, and drops what is still queued. Call once.
    public func stop() {
        stopping.withLock { $0 = true }
        stopped.wait()
        _ = scheduler.dropPending()
    }
}
