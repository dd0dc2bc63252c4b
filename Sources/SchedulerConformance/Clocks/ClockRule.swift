import SchedulerKit

/// A promise of any Swift `Clock` (family CL): a ``ConformanceRule`` whose check runs on a ``ClockUnderTest``.
public typealias ClockRule = ConformanceRule

/// The clock rules, in report order (`Docs/Rules.md`, family CL).
public enum ClockRules {
    public static let all: [ClockRule] = [
        ClockTimeRules.neverEarly, ClockTimeRules.pastDeadline, ClockTimeRules.monotonicNow,
        VirtualClockRules.tiesInOrder, VirtualClockRules.wakesAtDeadline, ClockTimeRules.cancellation,
        ClockProgressRules.nearerSleep, VirtualClockRules.cancelledSleepLeavesNothing,
    ]

    public static func rule(_ id: RuleID) -> ClockRule? { all.first { $0.id == id } }
}
