import Foundation

/// How far a pass can be trusted, as jcstress counts outcomes: a **forced** check constructs the condition it looks
/// for, so a scheduler with the defect fails it every run; an **observed** one sees the defect only when a race goes
/// its way, so its pass says how many trials it ran and the rarest defect it would have caught with 95 % probability.
/// Many checks are both: a forced part for the defect they were written for, and a flood for the rest.
public enum RuleEvidence: Sendable, Equatable {
    case forced
    /// `trials` chances to see the defect (at this run's ``ConformanceScale``), each one of `trial` (plural noun);
    /// `round`: the trials of one round when the check runs them in rounds and looks after each (`ObservedTrials`),
    /// nil when it runs them all before it looks.
    case observed(trials: Int, trial: String, round: Int? = nil)
    /// `forced` says what is forced; the rest is observed as above.
    case mixed(forced: String, trials: Int, trial: String, round: Int? = nil)

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
        case .observed(let trials, _, _), .mixed(_, let trials, _, _): trials
        }
    }

    /// One line for the rule lists: "forced", "observed: 100 000 races of cancel against start", "forced (…);
    /// observed: …".
    public var summary: String {
        switch self {
        case .forced: "forced"
        case .observed(let trials, let trial, let round):
            "observed: \(grouped(trials)) \(trial)" + Self.rounds(round)
        case .mixed(let forced, let trials, let trial, let round):
            "forced: \(forced); observed: \(grouped(trials)) \(trial)" + Self.rounds(round)
        }
    }

    /// The trials of one round, if the check runs in rounds.
    public var round: Int? {
        switch self {
        case .forced: nil
        case .observed(_, _, let round), .mixed(_, _, _, let round): round
        }
    }

    private static func rounds(_ round: Int?) -> String {
        round.map { ", in rounds of \(grouped($0))" } ?? ""
    }

    /// The rarest defect a pass rules out: one that shows in more than 1 trial in this many would have failed the
    /// check with 95 % probability ((1 − p)ⁿ ≤ 0.05 ⇔ p ≥ −ln 0.05 / n ≈ 3 / n). Nil when nothing is observed.
    public var oneInAtLeast: Int? { trials.map(Self.oneInAtLeast) }

    /// The rarest defect `trials` trials that saw nothing rule out, as above.
    static func oneInAtLeast(_ trials: Int) -> Int { Int((Double(trials) / -log(0.05)).rounded()) }

    /// What a pass adds to its note: the trials that saw nothing, and what they rule out. Empty for a forced rule.
    public var passNote: String { passNote(trials: trials) }

    /// The pass note for `ran` trials (the stated ones if nil); when the rounds stopped short of `target` because
    /// `budget` was spent, it says so (``ObservedTrials``).
    func passNote(trials ran: Int?, shortOf target: Int? = nil, in budget: Duration? = nil) -> String {
        let trial: String
        switch self {
        case .forced: return ""
        case .observed(_, let name, _), .mixed(_, _, let name, _): trial = name
        }
        let count = ran ?? trials ?? 0
        guard count > 0 else { return "" }
        let oneIn = Self.oneInAtLeast(count)
        var note =
            "observed: 0 of \(grouped(count)) \(trial) went wrong; a defect that shows in more than 1 in "
            + "\(grouped(oneIn)) would have failed this with 95 % probability"
        if let target, let budget {
            note += " (stopped short of \(grouped(target)): its rounds may take \(readable(budget)), half its deadline)"
        }
        return note
    }

    /// The evidence of the rule with this id, of any family.
    public static func of(_ ruleID: RuleID) -> RuleEvidence? {
        ConformanceRules.rule(ruleID)?.evidence
    }

    /// A passing check's own note with ``passNote`` after it.
    func joined(to note: String, trials: Int? = nil, shortOf target: Int? = nil, in budget: Duration? = nil) -> String {
        [note, passNote(trials: trials, shortOf: target, in: budget)].filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
