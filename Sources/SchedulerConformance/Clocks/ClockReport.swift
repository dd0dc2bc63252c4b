import Foundation

/// The clock rules' part of `CONFORMANCE.md` and `Docs/Rules.md`: the same cells as the schedulers' matrix.
extension ConformanceReport {
    /// Every clock rule on every clock, clock by clock; `progress(result, done, total)` after each.
    public static func runClocks(
        rules: [ClockRule] = ClockRules.all, clocks: [ClockSubject] = ClockSubject.builtIn,
        progress: @Sendable (RuleResult, Int, Int) -> Void = { _, _, _ in }
    ) async -> [RuleResult] {
        var results: [RuleResult] = []
        for clock in clocks {
            for rule in rules {
                results.append(await clock.evaluate(rule))
                progress(results.last!, results.count, rules.count * clocks.count)
            }
        }
        return results
    }

    /// The CL family's statements, and with `explained` why each matters and what it catches.
    public static func clockRuleList(_ rules: [ClockRule] = ClockRules.all, explained: Bool) -> String {
        guard !rules.isEmpty else { return "" }
        var out = "\n### CL: \(ClockRules.title)\n\n"
        for rule in rules {
            out += "- **\(rule.id)** \(rule.statement) _(\(rule.needs))_\n"
            if explained { out += "  - Why: \(rule.why)\n  - Catches: \(rule.catches)\n" }
        }
        return out
    }

    /// The clocks' matrix with its notes: rules down, clocks across.
    static func clockMatrix(_ results: [RuleResult], rules: [ClockRule], clocks: [ClockSubject]) -> String {
        guard !rules.isEmpty && !clocks.isEmpty else { return "" }
        var out =
            "\n## Clocks\n\nAny Swift `Clock` as a subject (`ClockSubject`): the CL rules above, on fresh clocks. "
        out += "Virtual clocks are driven by their own advance; real ones move by themselves.\n\n"
        out += "| Rule | " + clocks.map(\.name).joined(separator: " | ") + " |\n"
        out += "|---|" + String(repeating: "---|", count: clocks.count) + "\n"
        let byKey = Dictionary(
            results.map { ("\($0.ruleID)\u{1F}\($0.backendName)", $0) }, uniquingKeysWith: { a, _ in a })
        for rule in rules {
            let cells = clocks.map { clock -> String in
                byKey["\(rule.id)\u{1F}\(clock.name)"]?.outcome.matrixCell ?? "–"
            }
            out += "| \(rule.id) | " + cells.joined(separator: " | ") + " |\n"
        }
        let noteworthy = results.filter { !$0.outcome.detail.isEmpty }
        if !noteworthy.isEmpty {
            out += "\n"
            for result in noteworthy {
                out += "- \(result.ruleID) · \(result.backendName): \(result.outcome.label): "
                out += markdownEscaped(result.outcome.detail) + "\n"
            }
        }
        return out
    }
}

/// What the clock rules found, for the reports: which rules ran on which clocks, and the results.
public struct ClockResults: Sendable {
    public var rules: [ClockRule]
    public var subjects: [ClockSubject]
    public var results: [RuleResult]

    /// None: a report of schedulers only.
    public init(rules: [ClockRule] = [], subjects: [ClockSubject] = [], results: [RuleResult] = []) {
        self.rules = rules
        self.subjects = subjects
        self.results = results
    }
}
