import Foundation

extension ConformanceReport {
    /// What every matrix's cells mean.
    static let legend = """
        pass: the check ran and held · **FAIL**: it did not · declared: the subject says it does not keep the rule \
        (reason below) · n/a: the subject is not of the kind the rule needs · pass†: passed in this run, but the \
        subject can fail it by design, in runs where the timing falls otherwise (reason below).
        """

    /// One kind of subject's matrix (rules down, subjects across), then its failures, declarations and measurements,
    /// each failure by design with its reason: the same for schedulers, clocks and executors.
    static func matrix(
        _ kind: SubjectKind, rules: [ConformanceRule], subjects: [any ConformanceSubject],
        results: [RuleResult]
    ) -> String {
        let names = Set(subjects.map(\.name))
        let results = results.filter { names.contains($0.backendName) }
        var out = "\n## \(kind.matrixTitle)\n\n\(kind.matrixIntro)\n\n\(legend)\n\n"
        out += "| Rule | " + subjects.map(\.name).joined(separator: " | ") + " |\n"
        out += "|---|" + String(repeating: "---|", count: subjects.count) + "\n"
        let byKey = Dictionary(
            results.map { ("\($0.ruleID)\u{1F}\($0.backendName)", $0) }, uniquingKeysWith: { a, _ in a })
        for rule in rules {
            let cells = subjects.map { subject -> String in
                guard let result = byKey["\(rule.id)\u{1F}\(subject.name)"] else { return "–" }
                let passedByLuck =
                    result.outcome.label == "passed" && subjects.expectedFailureReason(for: result) != nil
                return passedByLuck ? "pass†" : result.outcome.matrixCell
            }
            out += "| \(rule.id) | " + cells.joined(separator: " | ") + " |\n"
        }
        return out
            + notes(results, subjects: subjects, heading: "Failures, declarations and measurements: \(kind.plural)")
    }

    /// Every failure, declaration and pass with a note among `results`, each failure by design with its reason, under
    /// `heading`; empty if there is none.
    static func notes(_ results: [RuleResult], subjects: [any ConformanceSubject], heading: String) -> String {
        let noteworthy = results.filter {
            switch $0.outcome {
            case .failed, .declared: true
            case .passed(let note): !note.isEmpty || subjects.expectedFailureReason(for: $0) != nil
            case .notApplicable: false
            }
        }
        guard !noteworthy.isEmpty else { return "" }
        var out = "\n### \(heading)\n\n"
        for result in noteworthy {
            var label = result.outcome.label
            if let reason = subjects.designReason(for: result) {
                label += " (by design: \(markdownEscaped(reason)))"
            } else if let reason = subjects.expectedFailureReason(for: result) {
                label += " in this run, but can fail by design (\(markdownEscaped(reason)))"
            }
            let detail = result.outcome.detail.isEmpty ? "" : ": " + markdownEscaped(result.outcome.detail)
            out += "- \(result.ruleID) · \(result.backendName): \(label)\(detail)\n"
        }
        return out
    }
}
