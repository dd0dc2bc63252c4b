import Foundation

/// How far a pass can be trusted, as jcstress counts outcomes: a **forced** check constructs the condition it looks
/// for, so a scheduler with the defect fails it every run; an **observed** one sees the defect only when a race goes
/// its way, so its pass says how many trials it ran and the rarest defect it would have caught with 95 % probability.
/// Many checks are both: a forced part for the defect they were written for, and a flood for the rest.
public enum RuleEvidence: Sendable, Equatable {
    case forced
    /// `trials` chances to see the defect (at this run's ``ConformanceScale``), each one of `trial` (plural noun).
    case observed(trials: Int, trial: String)
    /// `forced` says what is forced; the rest is observed as above.
    case mixed(forced: String, trials: Int, trial: String)

    /// `forced`, `observed`, or `mixed`: the CSV column and the report's mark.
    public var kind: String {
        switch self {
        case .forced: "forced"
        case .observed: "observed"
        case .mixed: "mixed"
        }
    }

    /// The trials of the observed part, if any.
    public var trials: Int? {
        switch self {
        case .forced: nil
        case .observed(let trials, _), .mixed(_, let trials, _): trials
        }
    }

    /// One line for the rule lists: "forced", "observed: 100 000 races of cancel against start", "forced (…);
    /// observed: …".
    public var summary: String {
        switch self {
        case .forced: "forced"
        case .observed(let trials, let trial): "observed: \(grouped(trials)) \(trial)"
        case .mixed(let forced, let trials, let trial): "forced: \(forced); observed: \(grouped(trials)) \(trial)"
        }
    }

    /// The rarest defect a pass rules out: one that shows in more than 1 trial in this many would have failed the
    /// check with 95 % probability ((1 − p)ⁿ ≤ 0.05 ⇔ p ≥ −ln 0.05 / n ≈ 3 / n). Nil when nothing is observed.
    public var oneInAtLeast: Int? {
        trials.map { Int((Double($0) / -log(0.05)).rounded()) }
    }

    /// What a pass adds to its note: the trials that saw nothing, and what they rule out. Empty for a forced rule.
    public var passNote: String {
        guard case (let trials?, let oneIn?) = (trials, oneInAtLeast) else { return "" }
        let trial: String
        switch self {
        case .forced: return ""
        case .observed(_, let name), .mixed(_, _, let name): trial = name
        }
        return "observed: 0 of \(grouped(trials)) \(trial) went wrong; a defect that shows in more than 1 in "
            + "\(grouped(oneIn)) would have failed this with 95 % probability"
    }

    /// The evidence of the rule with this id, of any family.
    public static func of(_ ruleID: String) -> RuleEvidence? {
        ConformanceRules.rule(ruleID)?.evidence ?? ClockRules.rule(ruleID)?.evidence
            ?? ExecutorSubjectRules.rule(ruleID)?.evidence
    }

    /// A passing check's own note with ``passNote`` after it.
    func joined(to note: String) -> String {
        [note, passNote].filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
