import Dispatch
import SchedulerKit

// A stand-in for another reactive library, as `Docs/WritingAScheduler.md`'s adapters meet one: a serial queue whose
// `schedule` returns a disposable that cancels on a best-effort basis, and a virtual-time scheduler that counts time
// in seconds as a `Double`. Its names would clash with SchedulerKit's in a real library (RxSwift and ReactiveSwift
// both have a `Scheduler`, a `TestScheduler`, an `ImmediateScheduler`): the adapters name SchedulerKit's types with
// their module.

/// The library's handle: `dispose()` stops the action if it has not started, and says nothing either way.
final class PeerDisposable: Sendable {
    private let disposed = Locked(false)
    func dispose() { disposed.withLock { $0 = true } }
    var isDisposed: Bool { disposed.withLock { $0 } }
}

/// The library's serial queue scheduler.
final class PeerSerialQueue: Sendable {
    private let queue: DispatchQueue
    init(label: String) { queue = DispatchQueue(label: label) }

    func schedule(_ action: @escaping @Sendable () -> Void) -> PeerDisposable {
        let disposable = PeerDisposable()
        queue.async { if !disposable.isDisposed { action() } }
        return disposable
    }
}

/// The library's virtual-time scheduler: time in seconds since zero, driven by the test.
final class PeerVirtualTimeScheduler: Sendable {
    private let inner = SchedulerKit.TestScheduler(name: "peer-virtual-time")
    var clock: Double { Double(inner.now.nanoseconds) / 1e9 }

    func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> PeerDisposable {
        let disposable = PeerDisposable()
        inner.schedule(at: SchedulerTime(nanoseconds: Int64((max(seconds, clock) * 1e9).rounded()))) {
            if !disposable.isDisposed { action() }
        }
        return disposable
    }

    func advance(to seconds: Double) {
        inner.advance(to: SchedulerTime(nanoseconds: Int64((seconds * 1e9).rounded())))
    }

    /// Runs the earliest action; false when none is left.
    func step() -> Bool { inner.step() }

    /// Runs actions until none is left or `limit` ran; how many ran, and how many are left.
    func run(limit: Int) -> (ran: Int, left: Int) {
        switch inner.run(maxSteps: limit) {
        case .drained(let steps): (steps, 0)
        case .stoppedEarly(let steps, let pending): (steps, pending)
        }
    }
}
