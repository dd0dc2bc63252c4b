import Foundation

/// A family of rules on subjects that are not schedulers (clocks, executors), as the reports show it: its rules, and
/// what a run found on which subjects.
public struct SubjectFamily: Sendable {
    /// The rule ids' prefix: CL, X.
    public var code: String
    public var title: String
    /// A sentence above the family's matrix.
    public var intro: String
    public var rules: [RuleText]
    public var subjects: [String]
    public var results: [RuleResult]
    /// The rules subjects fail by their design, with why.
    public var expectedFailures: [Key]

    /// A rule on a subject, with why it fails there by design.
    public struct Key: Sendable {
        public var rule: RuleID
        public var subject: String
        public var reason: String
    }

    public init(
        code: String, title: String, intro: String, rules: [RuleText], subjects: [String] = [],
        results: [RuleResult] = [], expectedFailures: [Key] = []
    ) {
        self.code = code
        self.title = title
        self.intro = intro
        self.rules = rules
        self.subjects = subjects
        self.results = results
        self.expectedFailures = expectedFailures
    }

    /// Why `result` is a failure by design, or nil: a failed result with no reason here is a regression.
    public func designReason(for result: RuleResult) -> String? {
        guard result.outcome.isFailure else { return nil }
        return expectedFailures.first { $0.rule == result.ruleID && $0.subject == result.backendName }?.reason
    }

    /// Every family of subjects other than schedulers, with no results: for the rule lists.
    public static var all: [SubjectFamily] { [ClockRules.family(), ExecutorSubjectRules.family()] }
}

extension ConformanceReport {
    /// The family's statements, and with `explained` why each matters and what it catches.
    public static func ruleList(_ family: SubjectFamily, explained: Bool) -> String {
        guard !family.rules.isEmpty else { return "" }
        var out = "\n### \(family.code): \(family.title)\n\n"
        for rule in family.rules {
            out += "- **\(rule.id)** \(rule.statement) _(\(rule.needs))_ · \(rule.evidence.summary)\n"
            if explained { out += "  - Why: \(rule.why)\n  - Catches: \(rule.catches)\n" }
        }
        return out
    }

    /// The family's matrix (rules down, subjects across) with the detail of every result that has one.
    static func matrix(_ family: SubjectFamily) -> String {
        guard !family.rules.isEmpty && !family.subjects.isEmpty else { return "" }
        var out = "\n## \(family.title)\n\n\(family.intro)\n\n"
        out += "| Rule | " + family.subjects.joined(separator: " | ") + " |\n"
        out += "|---|" + String(repeating: "---|", count: family.subjects.count) + "\n"
        let byKey = Dictionary(
            family.results.map { ("\($0.ruleID)\u{1F}\($0.backendName)", $0) }, uniquingKeysWith: { a, _ in a })
        for rule in family.rules {
            let cells = family.subjects.map { byKey["\(rule.id)\u{1F}\($0)"]?.outcome.matrixCell ?? "–" }
            out += "| \(rule.id) | " + cells.joined(separator: " | ") + " |\n"
        }
        let noteworthy = family.results.filter { !$0.outcome.detail.isEmpty }
        if !noteworthy.isEmpty {
            out += "\n"
            for result in noteworthy {
                out += "- \(result.ruleID) · \(result.backendName): \(result.outcome.label)"
                if let reason = family.designReason(for: result) { out += " (by design: \(markdownEscaped(reason)))" }
                out += ": " + markdownEscaped(result.outcome.detail) + "\n"
            }
        }
        return out
    }
}
