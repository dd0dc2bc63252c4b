#if Combine
    import SchedulerKit
    import Synchronization

    #if canImport(Combine)
        import Combine
    #else
        import OpenCombine
    #endif

    /// Any Combine `Scheduler` as a SchedulerKit ``TimedScheduler``. Thin on purpose, like the NIO adapters: it adds only
    /// the handle and the current scheduler, so that the conformance matrix and the benchmarks show what the Combine
    /// scheduler itself promises.
    ///
    /// - Plain work is `schedule(options: nil)`, run with `Schedulers.current === self`. Combine returns nothing to cancel
    ///   it with, so its handle never cancels: `cancel()` returns false, which is the truth (C1 and C4 are declared).
    /// - Delayed work is `schedule(after: base.now + (deadline − now))`: the adapter's `now` is `CLOCK_MONOTONIC`
    ///   (``SchedulerTime/monotonicNow()``) and the delay is carried over to the Combine scheduler's own clock, which may
    ///   be the wall clock (`RunLoop`, `OperationQueue`: `Date`). It cannot be cancelled either.
    /// - Repeating work is `schedule(after:interval:tolerance:)`, with the leeway as tolerance; the handle's first
    ///   `cancel()` returns true and calls Combine's `cancel()`. Whether a tick still starts after that, and whether
    ///   ticks keep a fixed rate, is the Combine scheduler's doing, and the matrix shows it.
    /// - `traits` are what the caller knows of the Combine scheduler (``CombinePeers`` has them for Combine's own four):
    ///   Combine's protocol says nothing about order, threads or time.
    // @unchecked Sendable: `base` is a Combine scheduler, which Combine's operators call from whatever thread an event
    // arrives on, so every Combine scheduler is made to be used from any thread; the adapter keeps no state of its own.
    public final class CombineSchedulerAdapter<Base: CombineSchedulerProtocol>: TimedScheduler, @unchecked Sendable {
        public let name: String
        public let base: Base
        public let traits: SchedulerTraits

        public init(name: String, base: Base, traits: SchedulerTraits) {
            self.name = name
            self.base = base
            self.traits = traits
        }

        public var now: SchedulerTime { .monotonicNow() }

        @discardableResult
        public func schedule(_ work: @escaping @Sendable () -> Void) -> any SchedulerKit.Cancellable {
            base.schedule(options: nil) { [self] in Schedulers.performAsCurrent(self, work) }
            return SettledWork.uncancellable
        }

        @discardableResult
        public func schedule(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void)
            -> any SchedulerKit.Cancellable
        {
            base.schedule(after: combineDate(deadline), tolerance: base.minimumTolerance, options: nil) { [self] in
                Schedulers.performAsCurrent(self, work)
            }
            return SettledWork.uncancellable
        }

        @discardableResult
        public func schedule(
            at start: SchedulerTime, every interval: Duration, leeway: Duration, _ work: @escaping @Sendable () -> Void
        ) -> any SchedulerKit.Cancellable {
            ArgumentCheck.repeating(interval: interval, leeway: leeway)
            let cancellable = base.schedule(
                after: combineDate(start), interval: stride(interval, argument: "interval"),
                tolerance: Swift.max(base.minimumTolerance, stride(leeway, argument: "leeway")), options: nil
            ) { [self] in
                Schedulers.performAsCurrent(self, work)
            }
            return RepeatingCombineWork(cancellable)
        }

        /// The Combine scheduler's time that is as far from its `now` as `deadline` is from the monotonic clock's.
        private func combineDate(_ deadline: SchedulerTime) -> Base.SchedulerTimeType {
            let delay = Swift.max(0, deadline.nanoseconds - SchedulerTime.monotonicNow().nanoseconds)
            return base.now.advanced(by: .nanoseconds(Int(delay)))
        }

        private func stride(_ duration: Duration, argument: String) -> Base.SchedulerTimeType.Stride {
            .nanoseconds(Int(duration.nanosecondsChecked(argument: argument)))
        }
    }

    /// The handle of Combine's repeating work: the first `cancel()` returns true and calls Combine's `cancel()`.
    // @unchecked Sendable: `cancellable` is only read after the `cancelled` exchange lets exactly one caller through, and
    // Combine's cancellables may be cancelled from any thread.
    final class RepeatingCombineWork: SchedulerKit.Cancellable, @unchecked Sendable {
        private let cancellable: any CombineCancellable
        private let cancelled = Atomic<Bool>(false)

        init(_ cancellable: any CombineCancellable) { self.cancellable = cancellable }

        func cancel() -> Bool {
            guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return false }
            cancellable.cancel()
            return true
        }

        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    }
#endif
