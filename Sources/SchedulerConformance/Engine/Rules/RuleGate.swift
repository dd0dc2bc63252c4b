/// Which subjects of a kind a rule applies to: a test of what they claim (``ConformanceSubject/Claims``), and the same
/// in words for the rule lists. A rule whose gate does not admit a subject is n/a on it, never failed: a check must
/// not fail a subject for lacking what the rule did not ask for.
public struct RuleGate<Claims: Sendable>: Sendable, CustomStringConvertible {
    /// What the rule needs, in words: "needs serial, timed; not on virtual-time", "virtual clocks".
    public let description: String
    let admits: @Sendable (Claims) -> Bool

    public init(_ description: String, admits: @escaping @Sendable (Claims) -> Bool) {
        self.description = description
        self.admits = admits
    }

    /// Every subject of the kind: "every clock".
    public static func every(_ kind: SubjectKind) -> RuleGate {
        RuleGate("every \(kind.name)") { _ in true }
    }

    /// The words of a gate that admits the subjects claiming one of `chosen`: "every clock" when that is every case,
    /// else "real clocks or virtual clocks".
    static func words<Case: CaseIterable & RawRepresentable & Hashable>(
        _ chosen: Set<Case>, every: String, plural: String
    ) -> String where Case.RawValue == String {
        chosen.count == Case.allCases.count
            ? every : chosen.map { "\($0.rawValue) \(plural)" }.sorted().joined(separator: " or ")
    }
}
