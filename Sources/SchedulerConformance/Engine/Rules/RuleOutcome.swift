import Foundation

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
        return (rule.statement, rule.kind.rerun.replacingOccurrences(of: "RULE", with: lookUp))
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

/// "4 812" style grouping, so counts in failure details read like the examples.
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
