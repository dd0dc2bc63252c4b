#if NIO
    import NIOCore
    import SchedulerKit
    import Synchronization

    /// The handle of `EventLoop.scheduleTask`, and the gate its task passes. State, one atomic byte: `pending →
    /// started` when the task begins, or `pending → cancelled` by the first `cancel()`, which then also calls NIO's
    /// `Scheduled.cancel()`. A task that finds the state cancelled does not run its work: NIO may run a task whose
    /// cancel came first (one it had already taken off its timer heap into the batch it runs), and the gate makes
    /// `cancel()`'s answer the truth whatever NIO does.
    // @unchecked Sendable: `scheduled` is written once, by the scheduling thread, before the handle is returned, and only
    // read afterwards by `cancel()`, on threads that got the handle from that thread (which orders the write first).
    // The task itself touches only the atomic `state`.
    final class ScheduledTaskHandle: Cancellable, @unchecked Sendable {
        private enum State: UInt8 { case pending, started, cancelled }
        private let state = Atomic<UInt8>(State.pending.rawValue)
        var scheduled: Scheduled<Void>?

        /// Called by the task as it starts: true if it may run its work (from then on `cancel()` returns false),
        /// false if a cancel came first.
        func start() -> Bool {
            state.compareExchange(
                expected: State.pending.rawValue, desired: State.started.rawValue,
                ordering: .acquiringAndReleasing
            ).exchanged
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

    /// The handle of `EventLoop.scheduleRepeatedTask`: SchedulerKit's ``RepeatingWork`` runs each tick, so a tick that
    /// starts after `cancel()` returned true runs nothing (NIO's cancel from off the loop is asynchronous, and a tick
    /// it had already taken off its timer heap still comes), and the repetition's end cancels NIO's task.
    final class RepeatedTaskHandle: Cancellable {
        let work: RepeatingWork
        /// NIO's task, once scheduled; `ended` when the repetition ended before it was stored.
        private let task = Locked<(task: RepeatedTask?, ended: Bool)>((nil, false))

        init(_ work: @escaping @Sendable () -> Void) {
            self.work = RepeatingWork(work)
            self.work.setOnEnd { [task] in
                let scheduled = task.withLock { state -> RepeatedTask? in
                    state.ended = true
                    return state.task
                }
                scheduled?.cancel()
            }
        }

        /// Keeps NIO's task; cancels it at once if the repetition already ended.
        func attach(_ repeated: RepeatedTask) {
            let ended = task.withLock { state -> Bool in
                state.task = repeated
                return state.ended
            }
            if ended { repeated.cancel() }
        }

        func cancel() -> Bool { work.cancel() }

        var isCancelled: Bool { work.isCancelled }
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
