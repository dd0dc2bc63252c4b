import SchedulerKit

/// One numbered promise a clock can keep, with the check that tests it through `Clock`'s public API only.
///
/// Clock rules form their own family (CL): a clock is not a scheduler, so they run on ``ClockSubject``s, not on
/// ``ConformanceBackend``s, and select by ``ClockKind`` instead of scheduler traits.
public struct ClockRule: Sendable, Identifiable, CustomStringConvertible {
    public let id: String
    /// One sentence: what a conforming clock guarantees.
    public let statement: String
    /// Why users need the promise.
    public let why: String
    /// What breaking it looked like in the peers (their reported bugs, by number) or what it would look like here.
    public let catches: String
    /// The kinds of clock the rule applies to.
    public let kinds: Set<ClockKind>
    /// Throws ``RuleFailure`` when the promise is broken; returns a note for the report (measurements), or "".
    let check: @Sendable (ClockUnderTest) async throws -> String

    init(
        id: String, statement: String, why: String, catches: String, kinds: Set<ClockKind> = Set(ClockKind.allCases),
        check: @escaping @Sendable (ClockUnderTest) async throws -> String
    ) {
        self.id = id
        self.statement = statement
        self.why = why
        self.catches = catches
        self.kinds = kinds
        self.check = check
    }

    public var description: String { id }

    /// "every clock", or the one kind it needs.
    public var needs: String {
        kinds.count == ClockKind.allCases.count
            ? "every clock" : "\(kinds.map(\.rawValue).sorted().joined(separator: ", ")) clocks"
    }
}

/// The clock rules, in report order (`Docs/Rules.md`, family CL).
public enum ClockRules {
    public static let all: [ClockRule] = [
        ClockTimeRules.neverEarly, ClockTimeRules.pastDeadline, ClockTimeRules.monotonicNow,
        VirtualClockRules.tiesInOrder, VirtualClockRules.wakesAtDeadline, ClockTimeRules.cancellation,
    ]

    public static func rule(_ id: String) -> ClockRule? { all.first { $0.id == id } }

    /// The family's title, for the reports.
    public static let title = "Clocks (any Swift Clock, real or virtual)"
}
