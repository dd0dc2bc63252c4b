#if NIO
    import NIOCore
    import SchedulerKit

    /// A SwiftNIO `EventLoop` as a serial ``TimedScheduler``. Thin on purpose: it adds only the handles (with a start
    /// gate, so a cancel that says true is kept) and the current scheduler, so the conformance matrix and the
    /// benchmarks show what NIO itself promises.
    ///
    /// - Plain work is `eventLoop.execute`, run with `Schedulers.current === self`. NIO cannot cancel it, so its handle
    ///   (`SettledWork.uncancellable`) never cancels: `cancel()` returns false, which is the truth (C1 and C4 are
    ///   declared).
    /// - Delayed work is `eventLoop.scheduleTask(deadline:)`. `NIODeadline` counts uptime nanoseconds, on Linux from
    ///   `CLOCK_MONOTONIC`, the clock of `SchedulerTime`, and `now` is the loop's own clock. The handle's `cancel()` calls
    ///   NIO's `Scheduled.cancel()` and returns true exactly when it came before the task started: the task passes a
    ///   start gate, so that a task NIO runs although its cancel came first (NIO moves due tasks off its timer heap into
    ///   a batch before it runs them, and a cancel cannot reach that batch) runs nothing. Due delayed work runs
    ///   interleaved with plain work, one of each in turn, so work due now does not keep FIFO order with plain work
    ///   (rule T3 fails).
    /// - Repeating work is `scheduleRepeatedTask(initialDelay:delay:)`: fixed delay (the next tick comes `interval`
    ///   after the previous one returned), not fixed rate, and `leeway` is ignored (T6 is declared). A cancel from
    ///   another thread reaches NIO's task on the loop's next turn, and a tick NIO starts after `cancel()` returned
    ///   true runs nothing (each tick passes through ``RepeatingWork``).
    /// - Serial and asynchronous: one loop is one thread, and `execute` from the loop itself queues. The loop is shared
    ///   with whatever else runs on it (channels, other adapters, raw `execute`).
    /// - Lifecycle: the loop belongs to its `EventLoopGroup`, so this adapter offers no shutdown. When the group shuts
    ///   down, NIO runs the queued plain work and fails delayed work with `EventLoopError.shutdown` (the handle does not
    ///   watch for that: it would cost a loop task per schedule); scheduling afterwards is a programmer error in NIO.
    /// - Pending work keeps the adapter alive and runs; releasing the adapter drops nothing.
    public final class EventLoopScheduler: TimedScheduler {
        public let name: String
        public let eventLoop: any EventLoop

        public init(name: String = "event-loop", eventLoop: any EventLoop) {
            self.name = name
            self.eventLoop = eventLoop
        }

        /// What every event-loop scheduler promises (an instance is not needed to know it): not fixed-rate, no shutdown.
        public static let traits: SchedulerTraits = [
            .serial, .asynchronous, .timed, .repeating, .setsCurrent, .sharedThreads,
        ]

        public var traits: SchedulerTraits { Self.traits }

        public var now: SchedulerTime { SchedulerTime(nanoseconds: Int64(eventLoop.now.uptimeNanoseconds)) }

        @discardableResult
        public func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
            eventLoop.execute { [self] in Schedulers.performAsCurrent(self, work) }
            return SettledWork.uncancellable
        }

        @discardableResult
        public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
            let handle = ScheduledTaskHandle()
            handle.scheduled = eventLoop.scheduleTask(deadline: .uptimeNanoseconds(UInt64(deadline.nanoseconds))) {
                [self] in
                guard handle.start() else { return }  // cancelled first: NIO may still run it, the gate does not
                Schedulers.performAsCurrent(self, work)
            }
            return handle
        }

        /// Fixed-delay, as `scheduleRepeatedTask` is: each tick is scheduled a full `interval` after the previous one
        /// returned, and `leeway` is not used (NIO has none); the traits claim no fixed rate (rule T6 declared).
        @discardableResult
        public func schedule(
            at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
        ) -> any Cancellable {
            ArgumentCheck.repeating(interval: interval, leeway: leeway)
            let delay = TimeAmount.nanoseconds(interval.nanosecondsChecked(argument: "interval"))
            let initialDelay = TimeAmount.nanoseconds(max(0, start.nanoseconds - now.nanoseconds))
            let handle = RepeatedTaskHandle(work)
            let task = eventLoop.scheduleRepeatedTask(initialDelay: initialDelay, delay: delay) { [self, handle] _ in
                Schedulers.performAsCurrent(self) { _ = handle.work.runTick() }
            }
            handle.attach(task)
            return handle
        }
    }
#endif
