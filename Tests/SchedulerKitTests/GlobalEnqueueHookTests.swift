import Dispatch
import Foundation
@_spi(Explorer) import SchedulerKit
import Testing

/// The shared global-enqueue hook's promise to its interceptors (the explorer's capture is one): once `remove` has
/// returned, the removed interceptor is never offered another job, so it may free what its `take` uses.
@Suite struct GlobalEnqueueHookTests {
    /// Blocks the first job it is offered until the other interceptor has been removed, or 100 ms; takes nothing.
    final class Stalling: GlobalJobInterceptor {
        let offered = DispatchSemaphore(value: 0)
        let removed = DispatchSemaphore(value: 0)
        private let first = Locked(true)

        func take(_ job: UnownedJob) -> Bool {
            let isFirst = first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst
            }
            if isFirst {
                offered.signal()
                _ = removed.wait(timeout: .now() + .milliseconds(100))
            }
            return false
        }
    }

    /// Counts the jobs it is offered once it has been removed; takes nothing.
    final class Watching: GlobalJobInterceptor {
        let isRemoved = Locked(false)
        let offersAfterRemoval = Locked(0)

        func take(_ job: UnownedJob) -> Bool {
            if isRemoved.withLock({ $0 }) { offersAfterRemoval.withLock { $0 += 1 } }
            return false
        }
    }

    /// The offer of one job stalls in the first interceptor while the second is removed from another thread. Held
    /// under the hook's lock, the offer makes `remove` wait until it is over (the stall times out); offered from a
    /// copy of the list outside the lock, `remove` returns at once and the removed one is offered the job after.
    @Test func aRemovedInterceptorIsNeverOfferedAnotherJob() async {
        guard GlobalEnqueueHook.isAvailable else { return }
        let stalling = Stalling()
        let watching = Watching()
        GlobalEnqueueHook.add(stalling)
        GlobalEnqueueHook.add(watching)
        let remover = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            stalling.offered.wait()
            GlobalEnqueueHook.remove(watching)
            watching.isRemoved.withLock { $0 = true }
            stalling.removed.signal()
            remover.signal()
        }
        await Task.detached {}.value  // a global job, offered to both (another test's job would do as well)
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                remover.wait()
                continuation.resume()
            }
        }
        GlobalEnqueueHook.remove(stalling)
        let late = watching.offersAfterRemoval.withLock { $0 }
        #expect(late == 0, "the removed interceptor was offered \(late) job(s) after remove returned")
    }
}
