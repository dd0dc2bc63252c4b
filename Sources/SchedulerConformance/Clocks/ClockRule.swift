import SchedulerKit

/// A promise of any Swift `Clock` (family CL), checked on a ``ClockUnderTest``.
public typealias ClockRule = SubjectRule<ClockUnderTest, ClockKind>

/// The clock rules, in report order (`Docs/Rules.md`, family CL).
public enum ClockRules {
    public static let all: [ClockRule] = [
        ClockTimeRules.neverEarly, ClockTimeRules.pastDeadline, ClockTimeRules.monotonicNow,
        VirtualClockRules.tiesInOrder, VirtualClockRules.wakesAtDeadline, ClockTimeRules.cancellation,
    ]

    public static func rule(_ id: RuleID) -> ClockRule? { all.first { $0.id == id } }

    /// The family as the reports show it, with what `bench conformance` found (`results`) on `subjects`.
    public static func family(
        rules: [ClockRule] = all, subjects: [ClockSubject] = [], results: [RuleResult] = []
    ) -> SubjectFamily {
        SubjectFamily(
            code: "CL", title: "Clocks (any Swift Clock, real or virtual)",
            intro:
                "Any Swift `Clock` as a subject (`ClockSubject`): the CL rules, on fresh clocks. Virtual clocks are driven by their own advance; real ones move by themselves.",
            rules: rules.map(\.text), subjects: subjects.map(\.name), results: results,
            expectedFailures: subjects.flatMap { subject in
                subject.expectedFailures.map {
                    SubjectFamily.Key(rule: $0.key, subject: subject.name, reason: $0.value)
                }
            })
    }
}
