import Foundation
import SchedulerKit

/// What a backend does with work that is still pending when the last reference to the scheduler goes away (rule L5).
public enum PendingWorkPolicy: String, Sendable {
    /// Pending work keeps the scheduler alive and runs; then the scheduler is freed.
    case runs
    /// Pending work never runs (nothing will drive it), and its closures are freed with the scheduler.
    case dropped
}

/// The schedulers one check (or one round of the bench) works with, and how to clean up after it (e.g. shutting down
/// a private pool).
public struct ConformanceSession: Sendable {
    let makeNamedScheduler: @Sendable (String) -> any Scheduler
    let tearDown: @Sendable () -> Void

    /// `makeScheduler` must return a fresh scheduler per call where the backend can make more than one.
    public init(makeScheduler: @escaping @Sendable () -> any Scheduler, tearDown: @escaping @Sendable () -> Void = {}) {
        self.init(makeNamedScheduler: { _ in makeScheduler() }, tearDown: tearDown)
    }

    /// As above, with the name each scheduler is to carry (the bench names its lanes).
    public init(
        makeNamedScheduler: @escaping @Sendable (String) -> any Scheduler, tearDown: @escaping @Sendable () -> Void = {}
    ) {
        self.makeNamedScheduler = makeNamedScheduler
        self.tearDown = tearDown
    }

    public func makeScheduler(named name: String = "conformance") -> any Scheduler { makeNamedScheduler(name) }
    public func close() { tearDown() }
}

/// What a session is for. A check is designed around a small, fixed shape (a pool of two threads, one event loop,
/// width 2 beside a spare thread); the bench measures the shape an application would use on this machine (one thread
/// per core, lanes spread over them). An entry that needs no difference ignores it.
public struct SessionPlan: Sendable {
    public enum Purpose: Sendable { case conformance, benchmark }
    public let purpose: Purpose
    /// The cores the process may use.
    public let cores: Int

    public init(purpose: Purpose, cores: Int) {
        self.purpose = purpose
        self.cores = max(1, cores)
    }

    public static let conformance = SessionPlan(purpose: .conformance, cores: activeProcessorCount)
    public static var benchmark: SessionPlan { SessionPlan(purpose: .benchmark, cores: activeProcessorCount) }
    public static var activeProcessorCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// What threads of the session are named after: `conformance` or `bench`.
    public var prefix: String { choose(conformance: "conformance", benchmark: "bench") }

    /// `conformance` in a check, `benchmark` in the bench.
    public func choose<T>(conformance: T, benchmark: T) -> T { purpose == .conformance ? conformance : benchmark }
}

/// A scheduler type under test, and its entry in the project's catalog: how to make it, the promises it claims, the
/// rules it declares it does not keep (with why), the failures it has by design, and its one-line summary. The
/// conformance kit, the bench's lanes, its reports and the generated `Docs/Catalog.md` all read these entries;
/// nothing else names a scheduler (`Docs/WritingAScheduler.md`, "Adding a scheduler"). What the bench measures it
/// beside (the primitive it wraps) is the bench's to say, with the bench's own ids (`BenchHarness`).
public struct ConformanceBackend: ConformanceSubject {
    /// The catalog id: short, lower-case, the `backend` column of the bench's CSV files (e.g. `threadpool`).
    public let id: BackendID
    /// The name in the conformance matrix (e.g. `ThreadPoolScheduler`).
    public let name: String
    /// One line: what it is, as the bench runs it.
    public let summary: String
    public let traits: SchedulerTraits
    /// Rule id → why this backend does not keep that rule. Such a rule is reported as declared, never as passed.
    public let declarations: [RuleID: String]
    /// Rule id → why this backend fails that rule by design (a wrapped primitive that behaves so). The rule still
    /// runs and a failure is reported as a failure; marking it expected lets a test suite or `bench conformance` tell
    /// it from a regression. It may not show in every run where the check catches it only when a race goes its way.
    public let expectedFailures: [RuleID: String]
    public let pendingWorkOnRelease: PendingWorkPolicy
    private let openSession: @Sendable (SessionPlan) -> ConformanceSession
    /// The rules this backend did not finish in this process (their deadlines shorten the others').
    public let hangs = HangRecord()

    /// A catalog entry whose sessions follow a plan (`openSession` runs once per check, and once per bench round).
    public init(
        id: BackendID, name: String, summary: String, traits: SchedulerTraits,
        declarations: [RuleID: String] = [:], expectedFailures: [RuleID: String] = [:],
        pendingWorkOnRelease: PendingWorkPolicy = .runs,
        openSession: @escaping @Sendable (SessionPlan) -> ConformanceSession
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.traits = traits
        self.declarations = declarations
        self.expectedFailures = expectedFailures
        self.pendingWorkOnRelease = pendingWorkOnRelease
        self.openSession = openSession
    }

    /// A backend whose every check gets a fresh session (`openSession` runs once per check): the form for a
    /// scheduler of your own, which needs no catalog id (its name serves).
    public init(
        name: String, traits: SchedulerTraits, declarations: [RuleID: String] = [:],
        expectedFailures: [RuleID: String] = [:], pendingWorkOnRelease: PendingWorkPolicy = .runs,
        openSession: @escaping @Sendable () -> ConformanceSession
    ) {
        self.init(
            id: BackendID(rawValue: name), name: name, summary: name, traits: traits, declarations: declarations,
            expectedFailures: expectedFailures, pendingWorkOnRelease: pendingWorkOnRelease
        ) { _ in openSession() }
    }

    /// A backend made by a factory alone; its traits are read from one scheduler the factory makes.
    public init(
        name: String, declarations: [RuleID: String] = [:], expectedFailures: [RuleID: String] = [:],
        pendingWorkOnRelease: PendingWorkPolicy = .runs, makeScheduler: @escaping @Sendable () -> any Scheduler
    ) {
        self.init(
            name: name, traits: makeScheduler().traits, declarations: declarations,
            expectedFailures: expectedFailures, pendingWorkOnRelease: pendingWorkOnRelease
        ) {
            ConformanceSession(makeScheduler: makeScheduler)
        }
    }

    /// A fresh session for `plan`: the caller closes it when done.
    public func session(_ plan: SessionPlan) -> ConformanceSession { openSession(plan) }

    /// The scheduler kind of subject: its rules select by the traits a backend claims.
    public static let kind = SubjectKind(
        name: "scheduler", plural: "schedulers", noun: "backend", inside: "the scheduler or its session",
        matrixTitle: "Matrix: schedulers",
        matrixIntro: "Every scheduler the run judged (`ConformanceBackend`), each rule on a fresh session of it.",
        rerun: "backend.evaluate(RULE)")

    public var claims: SchedulerTraits { traits }

    /// A fresh session for the check, closed after it; the check works with it through a ``ConformanceContext``.
    public func withFreshTarget(_ progress: CheckProgress, _ check: (ConformanceContext) throws -> String) throws
        -> String
    {
        let session = session(.conformance)
        defer { session.close() }
        return try check(ConformanceContext(backend: self, session: session, progress: progress))
    }

    /// Runs `rule` on a fresh session of this backend (or reports why it does not run), within the rule's deadline
    /// or `deadline` (``RuleDeadline``): a check that does not finish in time fails as not finished. Blocks the
    /// calling thread (``ConformanceSubject/judge(_:deadline:)``).
    public func evaluate(_ rule: ConformanceRule, deadline: Duration? = nil) -> RuleResult {
        judge(rule, deadline: deadline)
    }
}
