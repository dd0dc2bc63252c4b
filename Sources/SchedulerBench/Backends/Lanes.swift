import Dispatch
import Foundation
import SchedulerConformance
import SchedulerExplorer
import SchedulerKit

/// One place work can be sent: a scheduler, or a raw primitive measured beside the schedulers.
/// Workloads talk to lanes only, so a reference row runs exactly the same code as the scheduler it is compared to.
package protocol Lane: AnyObject, Sendable {
    func submit(_ work: @escaping @Sendable () -> Void)
    /// Work at a monotonic deadline; only called on lanes whose backend has the `timed` capability.
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void)
    /// Runs whatever is queued when nothing else will (virtual time, through the scheduler's `VirtualTimeDriver`:
    /// `TestScheduler` or a third party's); a no-op for real schedulers.
    func drain()
    /// The scheduler behind the lane; nil for a raw primitive.
    var scheduler: (any Scheduler)? { get }
    /// A task executor that runs a task's jobs on this lane (``Capabilities/taskExecutor``); nil: Swift's default.
    /// Default: a `SchedulerTaskExecutor` over the lane's scheduler.
    var taskExecutor: (any TaskExecutor)? { get }
    /// The executor of the lane's actors (``Capabilities/executor``); nil: default actors. Default: a
    /// `SchedulerExecutor` over the lane's scheduler.
    var serialExecutor: (any SerialExecutor)? { get }
    /// A clock to sleep on (``Capabilities/clock``). Default: a `SchedulerClock` over the lane's scheduler when it
    /// is timed.
    var clock: SleepingClock? { get }
    /// Repeating work at a fixed rate (W20). Default: the lane's timed scheduler's `schedule(at:every:)`.
    var ticker: Ticker? { get }
    /// A virtual clock and its driver (``Capabilities/virtualClock``, W21). Default: a `SchedulerClock` over the
    /// lane's virtual-time scheduler (a `VirtualTimeDriver`), driven by its `advance(by:)`.
    var virtualClock: ClockUnderTest? { get }
    /// The strategy an exploration runs under (``Capabilities/exploration``, W22). Default: nil.
    var exploration: ExplorationStrategy? { get }
}

extension Lane {
    package var exploration: ExplorationStrategy? { nil }
    package var taskExecutor: (any TaskExecutor)? { scheduler.map { SchedulerTaskExecutor($0) } }
    package var serialExecutor: (any SerialExecutor)? { scheduler.map { SchedulerExecutor($0) } }
    package var clock: SleepingClock? { (scheduler as? any TimedScheduler).map { SleepingClock(SchedulerClock($0)) } }
    package var ticker: Ticker? { (scheduler as? any TimedScheduler).map(Ticker.init(repeatingOn:)) }
    package var virtualClock: ClockUnderTest? {
        (scheduler as? any VirtualTimeDriver).map { ClockUnderTest(SchedulerClock($0), driver: .virtualTime($0)) }
    }
}

/// A Swift `Clock` as W19 sleeps on it: until a deadline on the monotonic clock, whatever the clock's `Instant`.
package struct SleepingClock: Sendable {
    let sleep: @Sendable (SchedulerTime) async throws -> Void

    init<C: _Concurrency.Clock>(_ clock: C) where C.Duration == Duration {
        // The deadline becomes the clock's instant by the distance from now: both read a monotonic clock, so the two
        // readings differ by the time between them (well under a microsecond).
        sleep = { deadline in
            try await clock.sleep(for: SchedulerTime.monotonicNow().duration(to: deadline), tolerance: nil)
        }
    }
}

final class SchedulerLane: Lane {
    let scheduler: (any Scheduler)?
    private let wrapped: any Scheduler
    /// Any virtual-time scheduler, not only the kit's own: a third party's drives W1 to the end the same way. Cast
    /// once, since a workload may drain after every task.
    private let virtualTime: (any VirtualTimeDriver)?

    init(_ scheduler: any Scheduler) {
        self.scheduler = scheduler
        self.wrapped = scheduler
        self.virtualTime = scheduler as? any VirtualTimeDriver
    }

    func submit(_ work: @escaping @Sendable () -> Void) { wrapped.schedule(work) }

    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        guard let timed = wrapped as? any TimedScheduler else { preconditionFailure("\(wrapped.name) is not timed") }
        timed.schedule(at: deadline, work)
    }

    func drain() {
        virtualTime?.run(maxSteps: .max)
    }
}

/// Raw `DispatchQueue.async` on a private serial queue: the primitive `DispatchQueueScheduler` and `ThreadPool` are
/// compared to. With `target`, the queue targets that queue, as `DispatchQueueScheduler`'s private queue does;
/// without, it targets Dispatch's default (overcommitting) root queue. With `.concurrent` attributes, the raw
/// concurrent queue `ConcurrentDispatchQueueScheduler` wraps.
final class DispatchLane: Lane {
    let queue: DispatchQueue
    init(label: String, target: DispatchQueue? = nil, attributes: DispatchQueue.Attributes = []) {
        queue = DispatchQueue(label: label, attributes: attributes, target: target)
    }
    var scheduler: (any Scheduler)? { nil }
    func submit(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: UInt64(deadline.nanoseconds)), execute: work)
    }
    func drain() {}
}

/// Raw `OperationQueue` with `maxConcurrentOperationCount = 1`: the primitive `OperationQueueScheduler` wraps.
final class OperationQueueLane: Lane {
    let queue: OperationQueue
    init(label: String) {
        queue = OperationQueue()
        queue.name = label
        queue.maxConcurrentOperationCount = 1
    }
    var scheduler: (any Scheduler)? { nil }
    func submit(_ work: @escaping @Sendable () -> Void) { queue.addOperation(work) }
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        preconditionFailure("a raw OperationQueue has no timers")
    }
    func drain() {}
}

/// A direct call: the floor every inline scheduler is compared to.
final class DirectLane: Lane {
    var scheduler: (any Scheduler)? { nil }
    func submit(_ work: @escaping @Sendable () -> Void) { work() }
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        preconditionFailure("a direct call has no timers")
    }
    func drain() {}
}

/// A call through the `Scheduler` protocol to a scheduler that only calls the closure and returns a settled handle:
/// the floor of any scheduler reached through `any Scheduler` (a witness call, and a returned `any Cancellable` the
/// caller destroys). `ImmediateScheduler`'s share above it is what its trampoline and current scheduler cost.
/// With `setsCurrent` (the `current-call` reference) the scheduler is also current while the closure runs, the
/// promise every scheduler of the kit keeps: its figure minus `protocol-call`'s is that promise's cost alone, the floor
/// of `ImmediateScheduler`'s share.
final class ProtocolCallLane: Lane {
    /// Stored as the existential, as a scheduler lane stores its scheduler, so the call stays a witness call.
    private let wrapped: any Scheduler

    init(setsCurrent: Bool = false) {
        wrapped = setsCurrent ? CurrentCallingScheduler() : CallingScheduler()
    }

    var scheduler: (any Scheduler)? { nil }
    func submit(_ work: @escaping @Sendable () -> Void) { wrapped.schedule(work) }
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        preconditionFailure("a protocol call has no timers")
    }
    func drain() {}
}

/// What ``ProtocolCallLane`` calls. Not one of the kit's schedulers: it sets no current scheduler and has no trampoline.
private final class CallingScheduler: Scheduler {
    let name = "protocol-call"
    var traits: SchedulerTraits { [.serial] }
    @inline(never)
    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        work()
        return SettledWork.ran
    }
}

/// ``CallingScheduler``, current while the closure runs (`current-call`).
private final class CurrentCallingScheduler: Scheduler {
    let name = "current-call"
    var traits: SchedulerTraits { [.serial, .setsCurrent] }
    @inline(never)
    func schedule(_ work: @escaping @Sendable () -> Void) -> any Cancellable {
        Schedulers.performAsCurrent(self) { work() }
        return SettledWork.ran
    }
}

/// An exploration's lane (`explore-fifo`, `explore-random`, `explore-pct`): nothing but a strategy, for W22 to run
/// `explore` under. Each schedule makes its own exploring scheduler.
final class ExplorerLane: Lane {
    let exploration: ExplorationStrategy?
    init(_ strategy: ExplorationStrategy) { exploration = strategy }
    var scheduler: (any Scheduler)? { nil }
    func submit(_ work: @escaping @Sendable () -> Void) { preconditionFailure("an exploration's lane only explores") }
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        preconditionFailure("an exploration's lane only explores")
    }
    func drain() {}
}

/// The lanes of one workload round, made from one backend instance (one pool, one set of queues), closed at the end.
package final class LaneGroup: Sendable {
    private let make: @Sendable (String) -> any Lane
    private let close: @Sendable () -> Void

    package init(make: @escaping @Sendable (String) -> any Lane, close: @escaping @Sendable () -> Void = {}) {
        self.make = make
        self.close = close
    }

    package func lane(_ name: String) -> any Lane { make(name) }

    /// `count` lanes named `prefix-0`, `prefix-1`, …
    func lanes(_ count: Int, prefix: String) -> [any Lane] { (0..<count).map { lane("\(prefix)-\($0)") } }

    /// Releases the instance (shuts a pool down). Call once, after the round's work has finished.
    package func shutdown() { close() }

    /// Lanes that are a virtual clock and nothing else, each made by `make` (a peer's clock, `swift-clocks-testclock`).
    package static func virtualClock(_ make: @escaping @Sendable () -> ClockUnderTest) -> LaneGroup {
        LaneGroup { _ in ClockOnlyLane(virtualClock: make()) }
    }
}

/// The clock references' lane (``Backend/hostsOnlyAClock``): a clock and nothing else. `continuous-clock` has the
/// standard library's clock to sleep on and `AsyncTimerSequence` to tick; `swift-clocks-testclock` a virtual clock.
final class ClockOnlyLane: Lane {
    let clock: SleepingClock?
    let ticker: Ticker?
    let virtualClock: ClockUnderTest?

    init(clock: SleepingClock? = nil, ticker: Ticker? = nil, virtualClock: ClockUnderTest? = nil) {
        self.clock = clock
        self.ticker = ticker
        self.virtualClock = virtualClock
    }

    var scheduler: (any Scheduler)? { nil }
    func submit(_ work: @escaping @Sendable () -> Void) { preconditionFailure("a clock lane only sleeps") }
    func submit(at deadline: SchedulerTime, _ work: @escaping @Sendable () -> Void) {
        preconditionFailure("a clock lane only sleeps")
    }
    func drain() {}
}
