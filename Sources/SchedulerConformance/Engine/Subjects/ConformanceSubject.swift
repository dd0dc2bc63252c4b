import Foundation
import SchedulerKit

/// Anything the kit judges: a scheduler (``ConformanceBackend``), a clock (``ClockSubject``), an executor
/// (``ExecutorSubject``), a global executor, an explorer, or a kind of your own. A subject type *is* a kind of
/// subject: it says once what its kind is called (``kind``), what its subjects claim (``Claims``, what rules select
/// by) and what one check works on (``Target``, made fresh for each check). Every rule of every kind then runs
/// through one engine: a declaration or the rule's gate settles a rule without running it, and otherwise the check
/// runs on a thread of its own against its deadline, with its observed rounds, in a child process when
/// `bench conformance` runs it (``IsolatedRun``). One report shows every kind (`Docs/Conformance.md`, "Adding a kind
/// of subject").
public protocol ConformanceSubject: Sendable, CustomStringConvertible {
    /// What a subject says it is, as the rules' gates read it: a scheduler's traits, whether a clock is virtual.
    associatedtype Claims: Sendable
    /// What one check works on: a scheduler's context, a fresh clock, an installed global executor.
    associatedtype Target

    /// The kind, in the words of the verdicts and the reports.
    static var kind: SubjectKind { get }
    /// The name in the reports, unique among the subjects of a run.
    var name: String { get }
    /// One line: what it is.
    var summary: String { get }
    /// Rule id → why this subject does not keep that rule: reported as declared, never as passed.
    var declarations: [RuleID: String] { get }
    /// Rule id → why this subject fails that rule by its design: the check still runs, and a failure is no
    /// regression (a peer's type that works as its authors meant).
    var expectedFailures: [RuleID: String] { get }
    /// What it claims; read once per rule, before the check (it may make a clock or an executor to say).
    var claims: Claims { get }
    /// The rules this subject did not finish in this process: their deadlines shorten the others'.
    var hangs: HangRecord { get }
    /// Makes what one check works on, fresh, runs `check` on it on the calling thread (the kit's check thread, never
    /// one of the cooperative pool), and cleans up after it. `progress` is what the engine follows the check by (for
    /// a verdict of not finished) and counts its observed trials with; a subject passes it on where its target
    /// reports waits (``ConformanceContext``) and ignores it otherwise.
    func withFreshTarget(_ progress: CheckProgress, _ check: (Target) throws -> String) throws -> String
}

/// What the engine follows a running check by: the watch that tells a check that did not finish what it was doing,
/// and the trials it ran in rounds. Opaque: passed from the engine to a subject's target.
public struct CheckProgress: Sendable {
    let watch: CheckWatch
    let observed: ObservedTrials
}

extension ConformanceSubject {
    public var description: String { name }

    /// The kind of this subject (``kind``), from an instance.
    public var kind: SubjectKind { Self.kind }

    /// Declared first (a declaration is never hidden), then not applicable by the rule's gate, else (nil) the check
    /// runs.
    public func outcomeWithoutRunning(_ rule: ConformanceRule) -> RuleOutcome? {
        RuleJudgement.settled(declaration: declarations[rule.id], applies: rule.applies(to: self))
    }

    /// Runs `rule` on a fresh target of this subject (or says why it does not run), on a thread of its own within
    /// the rule's deadline or `deadline`: the one path of every kind. Blocks the calling thread; from a task, call
    /// ``judgeFromTask(_:deadline:)``, which waits without blocking a thread of the cooperative pool.
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
