import Foundation
import SchedulerKit

/// The rule families of the conformance kit (`Docs/Rules.md`), in report order: the scheduler families, then the
/// clocks' and the executors'.
public enum RuleFamily: String, CaseIterable, Sendable {
    case serial = "S"
    case cancellation = "C"
    case currentScheduler = "K"
    case recursion = "R"
    case time = "T"
    case virtualTime = "V"
    case lifecycle = "L"
    case executor = "E"
    case parallelism = "P"
    case progress = "G"
    case leftBehind = "N"
    case model = "M"
    case clock = "CL"
    case executorSubject = "X"
    case globalExecutor = "GE"
    case explorer = "EX"

    public var title: String {
        switch self {
        case .serial: "Serial execution and ordering"
        case .cancellation: "Cancellation"
        case .currentScheduler: "Current scheduler"
        case .recursion: "Recursion"
        case .time: "Time"
        case .virtualTime: "Virtual time"
        case .lifecycle: "Lifecycle"
        case .executor: "Executors (actors and tasks on a scheduler)"
        case .parallelism: "Parallelism (concurrent schedulers)"
        case .progress: "Progress (scheduled work is started, nearer deadlines are not kept waiting)"
        case .leftBehind: "Nothing left behind (what a cancel leaves)"
        case .model: "Random programs against a model"
        case .clock: "Clocks (any Swift Clock, real or virtual)"
        case .executorSubject: "Executors (any SerialExecutor or TaskExecutor)"
        case .globalExecutor: "Global executors (Swift's, or one that took it over)"
        case .explorer: "Explorers (async code run under many schedules)"
        }
    }
}

/// One numbered promise a subject can keep (a scheduler, a clock, an executor: ``ConformanceSubject``), with the check
/// that tests it through the subject's public API only. Every family is this one type: a scheduler rule's check is
/// blocking and reads a ``ConformanceContext``; a clock's or an executor's is `async`, since what it judges is Swift
/// concurrency's (`ConformanceRule.clock(…)` and `ConformanceRule.executor(…)` inside the kit).
public struct ConformanceRule: Sendable, Identifiable, CustomStringConvertible {
    public let id: RuleID
    public let family: RuleFamily
    /// Whether a pass is forced or observed, and over how many trials (``RuleEvidence``).
    public let evidence: RuleEvidence
    /// One sentence: what a conforming subject guarantees.
    public let statement: String
    /// Why users need the promise.
    public let why: String
    /// What breaking it looked like in the peers (their reported bugs, by number) or what it would look like here.
    public let catches: String
    /// Which subjects the rule can apply to, and what they must be.
    public let gate: RuleGate
    /// How long the check may take before the rule fails as not finished (``RuleDeadline``), before scaling.
    public let deadline: Duration
    /// Throws ``RuleFailure`` when the promise is broken; returns a note for the report (measurements), or "".
    let check: RuleCheck

    /// A scheduler rule: it applies to schedulers with all of `requires`, none of `excludes` and (unless empty) one
    /// of `requiresOneOf`.
    public init(
        id: RuleID, family: RuleFamily, evidence: RuleEvidence = .forced, statement: String, why: String,
        catches: String,
        requires: SchedulerTraits = [], excludes: SchedulerTraits = [], requiresOneOf: SchedulerTraits = [],
        deadline: Duration = RuleDeadline.standard,
        check: @escaping @Sendable (ConformanceContext) throws -> String
    ) {
        self.init(
            id: id, family: family, evidence: evidence, statement: statement, why: why, catches: catches,
            gate: .schedulers(requires: requires, excludes: excludes, requiresOneOf: requiresOneOf),
            deadline: deadline, check: .scheduler(check))
    }

    init(
        id: RuleID, family: RuleFamily, evidence: RuleEvidence, statement: String, why: String, catches: String,
        gate: RuleGate, deadline: Duration, check: RuleCheck
    ) {
        self.id = id
        self.family = family
        self.evidence = evidence
        self.statement = statement
        self.why = why
        self.catches = catches
        self.gate = gate
        self.deadline = deadline
        self.check = check
    }

    /// A clock rule (family CL), for clocks of any of `kinds`.
    static func clock(
        id: RuleID, evidence: RuleEvidence = .forced, statement: String, why: String, catches: String,
        kinds: Set<ClockKind> = Set(ClockKind.allCases), deadline: Duration = RuleDeadline.standard,
        check: @escaping @Sendable (ClockUnderTest) async throws -> String
    ) -> ConformanceRule {
        ConformanceRule(
            id: id, family: .clock, evidence: evidence, statement: statement, why: why, catches: catches,
            gate: .clocks(kinds), deadline: deadline, check: .clock(check))
    }

    /// An executor rule (family X), for executors used in any of `kinds`.
    static func executor(
        id: RuleID, evidence: RuleEvidence = .forced, statement: String, why: String, catches: String,
        kinds: Set<ExecutorKind> = Set(ExecutorKind.allCases), deadline: Duration = RuleDeadline.standard,
        check: @escaping @Sendable (ExecutorUnderTest) async throws -> String
    ) -> ConformanceRule {
        ConformanceRule(
            id: id, family: .executorSubject, evidence: evidence, statement: statement, why: why, catches: catches,
            gate: .executors(kinds), deadline: deadline, check: .executor(check))
    }

    /// A global-executor rule (family GE). Its check blocks the kit's check thread: it starts tasks and waits for
    /// them without being one, so it never needs the executor under test to run itself.
    static func globalExecutor(
        id: RuleID, evidence: RuleEvidence = .forced, statement: String, why: String, catches: String,
        deadline: Duration = RuleDeadline.standard,
        check: @escaping @Sendable (GlobalExecutorUnderTest) throws -> String
    ) -> ConformanceRule {
        ConformanceRule(
            id: id, family: .globalExecutor, evidence: evidence, statement: statement, why: why, catches: catches,
            gate: .globalExecutors, deadline: deadline, check: .globalExecutor(check))
    }

    /// An explorer rule (family EX), for explorers of any of `strategies`. Its check is `async`: it explores bodies
    /// of its own, as a test would.
    static func explorer(
        id: RuleID, evidence: RuleEvidence = .forced, statement: String, why: String, catches: String,
        strategies: Set<ExplorerStrategyKind> = Set(ExplorerStrategyKind.allCases),
        deadline: Duration = RuleDeadline.standard,
        check: @escaping @Sendable (ExplorerUnderTest) async throws -> String
    ) -> ConformanceRule {
        ConformanceRule(
            id: id, family: .explorer, evidence: evidence, statement: statement, why: why, catches: catches,
            gate: .explorers(strategies), deadline: deadline, check: .explorer(check))
    }

    /// The kind of subject the rule is about.
    public var category: SubjectCategory { gate.category }

    /// Whether a subject of this kind can hold what the check needs. A rule that cannot apply is n/a, never failed:
    /// a check must not fail a subject for lacking what the rule did not ask for.
    public func applies(to kind: SubjectKind) -> Bool { gate.admits(kind) }

    /// Whether a scheduler with `traits` can hold what the check needs (false for a rule of another kind of subject).
    public func applies(to traits: SchedulerTraits) -> Bool { gate.admits(.scheduler(traits)) }

    /// The scheduler traits the rule needs (empty for a rule of another kind of subject).
    public var requires: SchedulerTraits { gate.schedulerTraits.requires }
    /// The scheduler traits the rule does not apply to (e.g. real-time rules on virtual time).
    public var excludes: SchedulerTraits { gate.schedulerTraits.excludes }
    /// At least one of these scheduler traits is needed (empty: no such condition).
    public var requiresOneOf: SchedulerTraits { gate.schedulerTraits.requiresOneOf }

    /// What the rule needs, in words: "needs serial, timed; not on virtual-time", "every backend", "virtual clocks".
    public var applicability: String { gate.description }

    public var description: String { id.rawValue }
}

/// What happened when a rule met a backend.
public enum RuleOutcome: Sendable, Equatable {
    /// The check ran and found nothing wrong; the note carries measurements (may be empty).
    case passed(note: String)
    case failed(detail: String)
    /// The backend says it does not keep this promise, and why. Never counted as passed.
    case declared(reason: String)
    /// The backend lacks a trait the rule needs.
    case notApplicable

    /// Short label used in reports: passed, failed, declared, n/a.
    public var label: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .declared: "declared"
        case .notApplicable: "n/a"
        }
    }

    /// The detail column of the reports.
    public var detail: String {
        switch self {
        case .passed(let note): note
        case .failed(let detail): detail
        case .declared(let reason): reason
        case .notApplicable: ""
        }
    }

    /// Whether the check ran (passed or failed), as opposed to a verdict given without running it.
    public var ranTheCheck: Bool {
        switch self {
        case .passed, .failed: true
        case .declared, .notApplicable: false
        }
    }

    public var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }

    /// The cell of a conformance matrix: pass, **FAIL**, declared or n/a.
    public var matrixCell: String { isFailure ? "**FAIL**" : label == "passed" ? "pass" : label }
}

/// The outcome of one rule on one backend, with the seconds the check took.
public struct RuleResult: Sendable, CustomStringConvertible {
    public let ruleID: RuleID
    public let backendName: String
    public let outcome: RuleOutcome
    public let seconds: Double
    /// The observed trials the check ran (`ObservedTrials`), nil for a forced rule or one that did not run.
    public let trials: Int?

    public init(ruleID: RuleID, backendName: String, outcome: RuleOutcome, seconds: Double, trials: Int? = nil) {
        self.ruleID = ruleID
        self.backendName = backendName
        self.outcome = outcome
        self.seconds = seconds
        self.trials = trials
    }

    public var description: String {
        let detail = outcome.detail
        return "\(ruleID) · \(backendName): \(outcome.label)" + (detail.isEmpty ? "" : " (\(detail))")
    }
}

extension RuleResult {
    /// What to print when the rule failed: what went wrong, the promise it broke, and how to run only this rule
    /// again. Empty unless the outcome is a failure.
    public var failureMessage: String {
        guard case .failed(let detail) = outcome else { return "" }
        let (statement, rerun) = Self.describe(ruleID, backendName: backendName)
        return """
            \(ruleID) · \(backendName) failed: \(detail)
              The rule: \(statement)
              Run only this rule again: \(rerun) in your test, or \
            swift run -c release bench conformance --rule \(ruleID) --backend "\(backendName)" for a subject bench knows.
            """
    }

    /// A rule's statement, and the call that evaluates it alone, from the one registry.
    static func describe(_ ruleID: RuleID, backendName: String) -> (statement: String, rerun: String) {
        guard let rule = ConformanceRules.rule(ruleID) else {
            return ("(no rule of this id in ConformanceRules)", "the rule's evaluate")
        }
        let lookUp = "ConformanceRules.rule(.\(ruleID.rawValue.lowercased()))!"
        switch rule.category {
        case .scheduler: return (rule.statement, "backend.evaluate(\(lookUp))")
        case .clock, .executor, .explorer: return (rule.statement, "await subject.evaluate(\(lookUp))")
        case .globalExecutor: return (rule.statement, "subject.evaluate(\(lookUp)) in a process of its own")
        }
    }
}

/// Thrown by a check when the scheduler broke the rule; `detail` says how, with numbers.
public struct RuleFailure: Error, CustomStringConvertible {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
    public var description: String { detail }
}

/// Fails the running check with `detail` unless `condition` holds.
@inline(__always)
func require(_ condition: Bool, _ detail: @autoclosure () -> String) throws {
    if !condition { throw RuleFailure(detail()) }
}

/// "4 812" style grouping, so counts in failure details read like the issue's examples.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, character) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { out.append(" ") }
        out.append(character)
    }
    return value < 0 ? "-" + out : out
}

/// Seconds, milliseconds or microseconds with up to two decimals: the one format of a duration in every rule's notes
/// and failure details (scheduler, clock and executor rules alike).
func readable(_ duration: Duration) -> String {
    let ns = Double(duration.nanosecondsChecked())
    if abs(ns) >= 1e9 { return "\((ns / 1e7).rounded() / 100) s" }
    if abs(ns) >= 1e6 { return "\((ns / 1e4).rounded() / 100) ms" }
    return "\((ns / 10).rounded() / 100) µs"
}
