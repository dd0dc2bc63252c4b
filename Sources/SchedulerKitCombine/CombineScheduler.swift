#if Combine
    import SchedulerKit

    #if canImport(Combine)
        import Combine
    #else
        import OpenCombine
    #endif

    /// A SchedulerKit ``TimedScheduler`` as a Combine `Scheduler`, so that `receive(on:)`, `subscribe(on:)`,
    /// `debounce`, `throttle`, `delay` and `timeout` run on the pool, a Dispatch scheduler, or in virtual time on a
    /// ``TestScheduler``: `publisher.receive(on: pool.makeScheduler(name: "ui").combine)`.
    ///
    /// Semantics are the base scheduler's, unchanged: its order (serial FIFO on a serial base), its clock (`now` is the
    /// base's monotonic or virtual clock), never early, `Schedulers.current` set inside every action. Combine asks for
    /// nothing more:
    /// - `schedule(options:_:)` is the base's `schedule`; `schedule(after:tolerance:options:_:)` its `schedule(at:)`;
    ///   the tolerance is ignored for one-shot work, as Dispatch and the pool have no leeway for it.
    /// - Repeating work is the base's fixed-rate `schedule(at:every:leeway:)` with the tolerance as leeway, and the
    ///   returned `Cancellable` cancels it: no tick starts after `cancel()` returns, except one already under way on
    ///   another thread.
    /// - There are no options (`SchedulerOptions` is `Never`).
    ///
    /// On `TestScheduler`, nothing runs and the clock does not move until the test calls `advance(by:)` or `run()`:
    /// a `debounce(for: .milliseconds(300), scheduler: test.combine)` fires when the test has advanced 300 ms.
    public struct CombineScheduler<Base: TimedScheduler>: CombineSchedulerProtocol, Sendable {
        public typealias SchedulerTimeType = CombineSchedulerTime
        public typealias SchedulerOptions = Never

        public let base: Base

        public init(_ base: Base) { self.base = base }

        public var now: CombineSchedulerTime { CombineSchedulerTime(base.now) }

        public var minimumTolerance: CombineSchedulerTime.Stride { .zero }

        public func schedule(options: Never?, _ action: @escaping () -> Void) {
            let action = CombineAction(run: action)
            base.schedule { action.run() }
        }

        public func schedule(
            after date: CombineSchedulerTime, tolerance: CombineSchedulerTime.Stride, options: Never?,
            _ action: @escaping () -> Void
        ) {
            let action = CombineAction(run: action)
            base.schedule(at: date.time) { action.run() }
        }

        public func schedule(
            after date: CombineSchedulerTime, interval: CombineSchedulerTime.Stride,
            tolerance: CombineSchedulerTime.Stride, options: Never?, _ action: @escaping () -> Void
        ) -> any CombineCancellable {
            let action = CombineAction(run: action)
            let handle = base.schedule(at: date.time, every: interval.duration, leeway: max(.zero, tolerance).duration)
            {
                action.run()
            }
            return CombineAnyCancellable { handle.cancel() }
        }
    }

    extension TimedScheduler {
        /// This scheduler as a Combine `Scheduler`.
        public var combine: CombineScheduler<Self> { CombineScheduler(self) }
    }
#endif
