#if NIO
    import NIOCore
    import SchedulerKit
    import Synchronization

    /// The handle of `EventLoop.scheduleTask`. State, one atomic byte: `pending → started` when the task begins (as the
    /// adapter sees it), or `pending → cancelled` by the first `cancel()`, which then calls NIO's `Scheduled.cancel()`.
    /// The task runs whatever this state says: whether it runs after a cancel is NIO's decision, and the matrix shows it.
    // @unchecked Sendable: `scheduled` is written once, by the scheduling thread, before the handle is returned, and only
    // read afterwards by `cancel()`, on threads that got the handle from that thread (which orders the write first).
    // The task itself touches only the atomic `state`.
    final class ScheduledTaskHandle: Cancellable, @unchecked Sendable {
        private enum State: UInt8 { case pending, started, cancelled }
        private let state = Atomic<UInt8>(State.pending.rawValue)
        var scheduled: Scheduled<Void>?

        /// Called by the task as it starts: from now on `cancel()` returns false.
        func markStarted() {
            _ = state.compareExchange(
                expected: State.pending.rawValue, desired: State.started.rawValue,
                ordering: .acquiringAndReleasing)
        }

        func cancel() -> Bool {
            guard
                state.compareExchange(
                    expected: State.pending.rawValue, desired: State.cancelled.rawValue,
                    ordering: .acquiringAndReleasing
                ).exchanged
            else { return false }
            scheduled?.cancel()
            return true
        }

        var isCancelled: Bool { state.load(ordering: .acquiring) == State.cancelled.rawValue }
    }

    /// The handle of `EventLoop.scheduleRepeatedTask`: the first `cancel()` returns true and calls NIO's
    /// `RepeatedTask.cancel()` (asynchronous when called off the loop, so one more tick may start).
    final class RepeatedTaskHandle: Cancellable {
        private let task: RepeatedTask
        private let cancelled = Atomic<Bool>(false)

        init(_ task: RepeatedTask) { self.task = task }

        func cancel() -> Bool {
            guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return false }
            task.cancel()
            return true
        }

        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    }

    /// The handle of `NIOThreadPool.submit`, which cannot be cancelled either: `cancel()` always returns false. The pool
    /// hands each work item its fate, `.active` or `.cancelled` (queued at shutdown, or submitted after it); the item
    /// records `.cancelled` here, so `isCancelled` says what NIO decided.
    final class PoolWorkHandle: Cancellable {
        private let refused = Atomic<Bool>(false)

        func markCancelledByPool() { refused.store(true, ordering: .releasing) }

        func cancel() -> Bool { false }

        var isCancelled: Bool { refused.load(ordering: .acquiring) }
    }
#endif
