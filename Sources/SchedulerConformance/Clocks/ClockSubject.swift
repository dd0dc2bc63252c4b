import SchedulerKit

/// A clock the kit can judge: any Swift `Clock` whose durations are `Swift.Duration`, real or virtual.
///
/// A real clock moves by itself; a virtual one moves only when a test drives it, and the subject says how, with a
/// ``VirtualClockDriver``. The rules (``ClockRules``) select by ``ClockKind``; a promise the clock does not keep is
/// declared with its reason, as a scheduler's is.
///
/// ```swift
/// let subject = ClockSubject(name: "ContinuousClock", summary: "the monotonic clock") { ClockUnderTest(ContinuousClock()) }
/// for rule in ClockRules.all { let result = await subject.evaluate(rule) }
/// ```
public struct ClockSubject: ConformanceSubject {
    public let name: String
    /// One line: what the clock is.
    public let summary: String
    /// Rule id to the reason this clock does not keep it.
    public let declarations: [RuleID: String]
    /// Rule id to why this clock fails it by its design: the check still runs and the report shows its evidence, but
    /// the failure is no regression (a peer's clock that works as its authors meant).
    public let expectedFailures: [RuleID: String]
    /// Makes a fresh clock (and its driver) for one check.
    public let make: @Sendable () -> ClockUnderTest
    /// The rules this subject did not finish in this process (their deadlines shorten the others').
    public let hangs = HangRecord()
    /// What it claims, once read (making a clock may make a scheduler).
    private let readClaims = Locked<ClockClaims?>(nil)

    public init(
        name: String, summary: String = "", declarations: [RuleID: String] = [:],
        expectedFailures: [RuleID: String] = [:], make: @escaping @Sendable () -> ClockUnderTest
    ) {
        self.name = name
        self.summary = summary
        self.declarations = declarations
        self.expectedFailures = expectedFailures
        self.make = make
    }

    /// The clock kind of subject: its rules select by whether a clock is real or virtual, and whether it can be stopped.
    public static let kind = SubjectKind(
        name: "clock", plural: "clocks", noun: "clock", inside: "the clock, or waits for a sleep of it",
        matrixTitle: "Matrix: clocks (any Swift Clock, real or virtual)",
        matrixIntro:
            "Any Swift `Clock` as a subject (`ClockSubject`): the CL rules, on fresh clocks. Virtual clocks are driven by their own advance; real ones move by themselves.",
        rerun: "await subject.evaluate(RULE)")

    /// Real or virtual, and whether something can stop it, read once from a clock this subject makes.
    public var claims: ClockClaims {
        readClaims.withLock { claims in
            if let claims { return claims }
            let clock = make()
            defer { clock.shutDown?() }
            let read = ClockClaims(kind: clock.kind, stoppable: clock.shutDown != nil)
            claims = read
            return read
        }
    }

    /// A fresh clock for the check, shut down after it where it can be.
    public func withFreshTarget(_ progress: CheckProgress, _ check: (ClockUnderTest) throws -> String) throws -> String
    {
        let clock = make()
        defer { clock.shutDown?() }
        return try check(clock)
    }

    /// Runs `rule` on a fresh clock: passed, failed with what went wrong, declared, or not applicable. The check
    /// runs on a thread of the kit's while this task waits (``ConformanceSubject/judge(_:deadline:)``).
    public func evaluate(_ rule: ConformanceRule) async -> RuleResult { await judgeFromTask(rule) }
}

/// What a clock subject claims, for the rules' gates: whether it moves by itself, and whether something can stop what
/// wakes its sleepers (CL9 needs that).
public struct ClockClaims: Hashable, Sendable {
    public let kind: ClockKind
    /// Whether ``ClockUnderTest/shutDown`` is there.
    public let stoppable: Bool

    public init(kind: ClockKind, stoppable: Bool) {
        self.kind = kind
        self.stoppable = stoppable
    }
}

/// Whether a clock moves by itself.
public enum ClockKind: String, Sendable, CaseIterable {
    /// It moves by itself (`ContinuousClock`, `SuspendingClock`, a clock over a real scheduler).
    case real
    /// It moves only when driven (`SchedulerClock` over `TestScheduler`, swift-clocks' `TestClock`).
    case virtual
}

/// How a test drives a virtual clock, and where the sleepers it wakes run.
public struct VirtualClockDriver: Sendable {
    /// Where the kit runs its sleepers; nil: an executor of the kit's own, a serial one. Give the executor that an
    /// advance drives (`SchedulerTaskExecutor` over the `TestScheduler` under a `SchedulerClock`) and sleepers
    /// run inside the advance, at their deadlines.
    public let executor: (any TaskExecutor)?
    /// Lets every sleeper started so far reach its sleep, without moving time.
    public let settle: @Sendable () async -> Void
    /// Moves time forward by the duration, waking every sleeper due by then.
    public let advance: @Sendable (Duration) async -> Void
    /// Runs everything the clock still holds, moving time to each deadline in turn, until nothing is left (as
    /// `TestScheduler.run()` and swift-clocks' `TestClock.run()` do); nil where the clock has no such way. What a
    /// cancelled sleep left behind shows as a `now` moved to its dead deadline (CL8; n/a without it).
    public let runUntilIdle: (@Sendable () async -> Void)?

    public init(
        executor: (any TaskExecutor)? = nil, settle: @escaping @Sendable () async -> Void,
        advance: @escaping @Sendable (Duration) async -> Void, runUntilIdle: (@Sendable () async -> Void)? = nil
    ) {
        self.executor = executor
        self.settle = settle
        self.advance = advance
        self.runUntilIdle = runUntilIdle
    }

    /// The driver of a `SchedulerClock` over a virtual-time scheduler (`TestScheduler`, or a third party's
    /// `VirtualTimeDriver`): sleepers run as its tasks, settling runs what is due now, and an advance is the
    /// scheduler's.
    public static func virtualTime(_ scheduler: any VirtualTimeDriver) -> VirtualClockDriver {
        VirtualClockDriver(
            executor: SchedulerTaskExecutor(scheduler), settle: { scheduler.advance(by: .zero) },
            advance: { scheduler.advance(by: $0) }, runUntilIdle: { _ = scheduler.run(maxSteps: 1_000_000) })
    }
}

/// What the rules see of a clock: instants as durations since the clock's `now` when it was handed over, so one
/// check serves every clock whatever its `Instant` type.
public struct ClockUnderTest: Sendable {
    public let kind: ClockKind
    /// How to drive it; nil for a real clock.
    public let driver: VirtualClockDriver?
    /// `now`, as the duration since the origin.
    public let now: @Sendable () -> Duration
    /// Sleeps until origin + the duration.
    public let sleep: @Sendable (Duration) async throws -> Void
    /// Stops what wakes the clock's sleepers, for good (shuts down the scheduler behind it); called by CL9, and
    /// after every check to free what the clock holds. Nil where nothing can stop the clock.
    public let shutDown: (@Sendable () -> Void)?

    /// A real clock; `shutDown`, where something can stop it (the scheduler of a `SchedulerClock` with a shutdown).
    public init<C: Clock>(_ clock: C, shutDown: (@Sendable () -> Void)? = nil) where C.Duration == Duration {
        self.init(clock, kind: .real, driver: nil, shutDown: shutDown)
    }

    /// A virtual clock and the way to drive it.
    public init<C: Clock>(_ clock: C, driver: VirtualClockDriver, shutDown: (@Sendable () -> Void)? = nil)
    where C.Duration == Duration {
        self.init(clock, kind: .virtual, driver: driver, shutDown: shutDown)
    }

    private init<C: Clock>(_ clock: C, kind: ClockKind, driver: VirtualClockDriver?, shutDown: (@Sendable () -> Void)?)
    where C.Duration == Duration {
        let origin = clock.now
        self.kind = kind
        self.driver = driver
        self.shutDown = shutDown
        self.now = { origin.duration(to: clock.now) }
        self.sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }
}
