import Foundation
import SchedulerKit

/// Anything the kit judges: a scheduler (``ConformanceBackend``), a clock (``ClockSubject``) or an executor
/// (``ExecutorSubject``). Every rule of every family runs on a subject through one engine: the rule's gate selects
/// by what the subject is (``SubjectKind``), a declaration or the gate settles a rule without running it, and the
/// check runs on a thread of its own against its deadline, with its observed rounds, in a child process when
/// `bench conformance` runs it (``IsolatedRun``). One report shows every kind, with each subject's expected
/// failures (`Docs/Conformance.md`, "Adding a family or a kind of subject").
public protocol ConformanceSubject: Sendable, CustomStringConvertible {
    /// The name in the reports, unique among the subjects of a run.
    var name: String { get }
    /// One line: what it is.
    var summary: String { get }
    /// What it is, as the rules' gates read it.
    var kind: SubjectKind { get }
    /// Rule id → why this subject does not keep that rule: reported as declared, never as passed.
    var declarations: [RuleID: String] { get }
    /// Rule id → why this subject fails that rule by its design: the check still runs, and a failure is no
    /// regression (a peer's type that works as its authors meant).
    var expectedFailures: [RuleID: String] { get }
    /// What one check works on, made fresh for it; the kit's subject types make it.
    var checkTarget: CheckTarget { get }
}

/// What a subject is: the one thing rules select by.
public enum SubjectKind: Sendable, Hashable, CustomStringConvertible {
    /// A scheduler, with the promises it claims.
    case scheduler(SchedulerTraits)
    /// A clock, real or virtual.
    case clock(ClockKind)
    /// An executor, used as an actor's, a task's preference, or both.
    case executor(Set<ExecutorKind>)
    /// Swift's global executor, as one process has it (the runtime's own, or one that took it over).
    case globalExecutor
    /// An explorer of interleavings, by the kind of strategy that chooses its schedules.
    case explorer(ExplorerStrategyKind)

    /// The kind without what it claims: which section of the report, which rules can apply at all.
    public var category: SubjectCategory {
        switch self {
        case .scheduler: .scheduler
        case .clock: .clock
        case .executor: .executor
        case .globalExecutor: .globalExecutor
        case .explorer: .explorer
        }
    }

    public var description: String {
        switch self {
        case .scheduler(let traits): "scheduler (\(traits))"
        case .clock(let kind): "\(kind.rawValue) clock"
        case .executor(let kinds): "executor (\(kinds.map(\.rawValue).sorted().joined(separator: ", ")))"
        case .globalExecutor: "global executor"
        case .explorer(let strategy): "explorer (\(strategy.rawValue))"
        }
    }
}

/// The kinds of subject, in report order.
public enum SubjectCategory: String, Sendable, CaseIterable {
    case scheduler, clock, executor, globalExecutor, explorer
}

/// How the engine makes what one check works on, and what it remembers of a subject between checks (the rules it
/// did not finish, whose deadlines shorten the others': ``RuleDeadline``). Opaque: made by the kit's subject types.
public struct CheckTarget: Sendable {
    indirect enum Factory: Sendable {
        case scheduler(ConformanceBackend)
        case clock(@Sendable () -> ClockUnderTest)
        case executor(@Sendable () -> ExecutorUnderTest)
        case globalExecutor(GlobalExecutorSubject)
        case explorer(@Sendable () -> ExplorerUnderTest)
    }
    let factory: Factory
    let hangs: HangRecord

    init(_ factory: Factory, hangs: HangRecord) {
        self.factory = factory
        self.hangs = hangs
    }
}

extension ConformanceSubject {
    public var description: String { name }

    /// Declared first (a declaration is never hidden), then not applicable by the rule's gate, else (nil) the check
    /// runs.
    public func outcomeWithoutRunning(_ rule: ConformanceRule) -> RuleOutcome? {
        RuleJudgement.settled(declaration: declarations[rule.id], applies: rule.applies(to: kind))
    }

    /// Runs `rule` on a fresh target of this subject (or says why it does not run), on a thread of its own within
    /// the rule's deadline or `deadline`: the one path of every family. Blocks the calling thread; the `async`
    /// `evaluate` of clocks and executors waits for it without blocking one of the cooperative pool.
    public func judge(_ rule: ConformanceRule, deadline: Duration? = nil) -> RuleResult {
        RuleRunner.judge(rule, on: self, deadline: deadline)
    }

    /// ``judge(_:deadline:)`` from a task: the check runs on a thread of its own while the task waits.
    public func judgeFromTask(_ rule: ConformanceRule, deadline: Duration? = nil) async -> RuleResult {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: self.judge(rule, deadline: deadline)) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}

extension Sequence where Element == any ConformanceSubject {
    /// Why `result` is a failure by design (its subject's `expectedFailures` names the rule), or nil: a failed result
    /// with no reason here is a regression.
    public func designReason(for result: RuleResult) -> String? {
        guard result.outcome.isFailure else { return nil }
        return expectedFailureReason(for: result)
    }

    /// Why `result`'s subject may fail its rule by design, whatever the outcome of this run: some such failures
    /// depend on timing and do not show in every run, and a report says so rather than show a plain pass.
    public func expectedFailureReason(for result: RuleResult) -> String? {
        first { $0.name == result.backendName }?.expectedFailures[result.ruleID]
    }
}

extension Sequence where Element: ConformanceSubject {
    /// As for subjects of any kind: why `result` is a failure by design, or nil.
    public func designReason(for result: RuleResult) -> String? {
        map { $0 as any ConformanceSubject }.designReason(for: result)
    }

    /// As for subjects of any kind: why `result`'s subject may fail its rule by design, whatever this run's outcome.
    public func expectedFailureReason(for result: RuleResult) -> String? {
        map { $0 as any ConformanceSubject }.expectedFailureReason(for: result)
    }
}
