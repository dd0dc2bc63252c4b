import Foundation
import SchedulerConformance
import SchedulerKit

/// What a backend can do; workloads select backends by these.
public struct Capabilities: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Tasks never overlap and one producer's tasks run in order.
    public static let serial = Capabilities(rawValue: 1 << 0)
    /// Work runs on another thread, never on the caller's stack.
    public static let asynchronous = Capabilities(rawValue: 1 << 1)
    /// Deadlines on the monotonic clock, in real time.
    public static let realTimers = Capabilities(rawValue: 1 << 2)
    /// A `Scheduler`: handles that cancel, `scheduleRecursive`.
    public static let scheduler = Capabilities(rawValue: 1 << 3)
    /// Recursion does not grow the stack (asynchronous, trampolined or virtual).
    public static let flatRecursion = Capabilities(rawValue: 1 << 4)
    /// Needs `drain()` to run anything (virtual time).
    public static let virtualTime = Capabilities(rawValue: 1 << 5)
    /// Can host actors (Swift concurrency): a `SchedulerExecutor` over the lane's scheduler, or Swift's default
    /// executor for the `default-executor` reference.
    public static let executor = Capabilities(rawValue: 1 << 6)
    /// Can host tasks: a task executor preference (the lane's task executor). Every lane that hosts actors hosts tasks
    /// too; the hand-off floor hosts tasks only, so that W12 shows the floor of a task on any executor of its own.
    public static let taskExecutor = Capabilities(rawValue: 1 << 11)
    /// The handle of plain work can cancel it (W7). Every SchedulerKit scheduler's can; the SwiftNIO adapters' cannot
    /// (`EventLoop.execute` and `NIOThreadPool.submit` have no cancellation).
    public static let cancellation = Capabilities(rawValue: 1 << 7)
    /// Runs several of its tasks at once (a concurrent scheduler, or a raw concurrent queue).
    public static let concurrent = Capabilities(rawValue: 1 << 8)

    /// Can run a Combine pipeline (`receive(on:)`, W18): a Combine scheduler behind an adapter, or any timed
    /// SchedulerKit scheduler through `CombineScheduler`.
    public static let combine = Capabilities(rawValue: 1 << 9)

    /// Work handed over from another thread starts without waiting for a poll: the thread that runs it is woken.
    /// Every scheduler and primitive here but Combine's `RunLoop` on Linux, whose `RunLoop.perform` leaves a sleeping
    /// loop asleep until its serving thread's next slice. The workloads that wait for one task at a time (W4, W5,
    /// W8, W11–W13) need it: without it each of their thousands of steps per round would measure the slice.
    public static let promptWakeUp = Capabilities(rawValue: 1 << 10)

    /// A Swift `Clock` to sleep on (W19): `SchedulerClock` over the lane's scheduler, which every scheduler with real
    /// timers has, or the standard library's `ContinuousClock` for the `continuous-clock` reference.
    public static let clock = Capabilities(rawValue: 1 << 12)

    /// A virtual clock a test drives (W21): `SchedulerClock` over a virtual-time scheduler, or swift-clocks'
    /// `TestClock` for its reference.
    public static let virtualClock = Capabilities(rawValue: 1 << 13)
    /// Runs explorations (W22): an exploring scheduler's strategy, for `explore` to run a body under.
    public static let exploration = Capabilities(rawValue: 1 << 14)

    static let names: [(Capabilities, String)] = [
        (.serial, "serial"), (.asynchronous, "async"), (.realTimers, "timers"), (.scheduler, "scheduler"),
        (.flatRecursion, "flat-recursion"), (.virtualTime, "virtual-time"), (.executor, "executor"),
        (.taskExecutor, "task-executor"),
        (.cancellation, "cancel"), (.concurrent, "concurrent"), (.combine, "combine"),
        (.promptWakeUp, "prompt-wake-up"), (.clock, "clock"), (.virtualClock, "virtual-clock"),
        (.exploration, "exploration"),
    ]

    public var names: [String] { Self.names.filter { contains($0.0) }.map(\.1) }

    /// What a catalog entry lets a workload do: its traits where the bench calls it, and what its harness says.
    init(subject: ConformanceBackend, harness: BenchHarness) {
        let traits = subject.traits.union(harness.extraTraits)
        self.init(traits: traits)
        if !subject.cancelsPlainWork(withTraits: traits) { remove(.cancellation) }
        if !harness.wakesPromptly { remove(.promptWakeUp) }
        // Recursion grows the stack on a subject that declares, or fails by design, rule R2 (no stack growth):
        // `Schedulers.subscription` runs a step rescheduled from inside a step inline, asynchronous as its first hop
        // is. W8's 50 000 steps would overflow the stack there.
        if subject.declarations[.r2] != nil || subject.expectedFailures[.r2] != nil { remove(.flatRecursion) }
    }

    /// What a scheduler's declared traits let a workload do with it.
    init(traits: SchedulerTraits) {
        var capabilities: Capabilities = [.scheduler, .cancellation, .promptWakeUp]
        if traits.contains(.serial) { capabilities.insert(.serial) }
        if traits.contains(.concurrent) { capabilities.insert(.concurrent) }
        if traits.contains(.asynchronous) { capabilities.insert(.asynchronous) }
        // Real timers need a hand-off: a timed scheduler that runs actions at once on the caller's stack (Combine's
        // ImmediateScheduler) would show a lateness of 0 on W6.
        if traits.isSuperset(of: [.timed, .asynchronous]) && !traits.contains(.virtualTime) {
            capabilities.formUnion([.realTimers, .clock])
        }
        if traits.contains(.virtualTime) { capabilities.insert(.virtualTime) }
        if traits.isSuperset(of: [.timed, .virtualTime]) { capabilities.insert(.virtualClock) }
        if traits.contains(.timed) { capabilities.insert(.combine) }
        if !traits.isDisjoint(with: [.asynchronous, .trampoline, .virtualTime]) { capabilities.insert(.flatRecursion) }
        // Actor workloads have no driver for virtual time, so they need an asynchronous executor.
        if traits.contains(.asynchronous) && SchedulerExecutor.accepts(traits) {
            capabilities.formUnion([.executor, .taskExecutor])
        }
        self = capabilities
    }
}
