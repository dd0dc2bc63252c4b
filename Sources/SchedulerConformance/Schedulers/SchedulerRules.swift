import SchedulerKit

extension SubjectKind {
    /// Schedulers (``ConformanceBackend``): `ConformanceRules.rules(for: .scheduler)`.
    public static var scheduler: SubjectKind { ConformanceBackend.kind }
}

/// The scheduler rules, family by family, in report order (`Docs/Rules.md`): S, C, K, R, T, V, L, E, P, G, N, M.
enum SchedulerRules {
    static let all: [ConformanceRule] =
        SerialRules.all + CancellationRules.all + CurrentSchedulerRules.all + RecursionRules.all + TimeRules.all
        + VirtualTimeRules.all + LifecycleRules.all + SchedulerAsExecutorRules.all + ParallelismRules.all
        + ProgressRules.all + LeftBehindRules.all + ProgramRules.all
}

extension RuleGate where Claims == SchedulerTraits {
    /// Schedulers with all of `requires`, none of `excludes` and (unless it is empty) one of `requiresOneOf`. The E
    /// rules need work that runs later, which an asynchronous scheduler and a virtual-time one each give in its own
    /// way.
    public static func schedulers(
        requires: SchedulerTraits = [], excludes: SchedulerTraits = [], requiresOneOf: SchedulerTraits = []
    ) -> RuleGate {
        var needs = requires.isEmpty ? [] : ["needs \(requires)"]
        if !requiresOneOf.isEmpty {
            needs.append("needs one of \(requiresOneOf.description.replacingOccurrences(of: ", ", with: " or "))")
        }
        if !excludes.isEmpty { needs.append("not on \(excludes)") }
        return RuleGate(needs.isEmpty ? "every backend" : needs.joined(separator: "; ")) { traits in
            traits.isSuperset(of: requires) && traits.isDisjoint(with: excludes)
                && (requiresOneOf.isEmpty || !traits.isDisjoint(with: requiresOneOf))
        }
    }
}

extension ConformanceRule {
    /// A scheduler rule: it applies to schedulers with all of `requires`, none of `excludes` and (unless empty) one
    /// of `requiresOneOf`; its check is blocking, on the kit's check thread, with a fresh session of the scheduler
    /// and the kit's waits (``ConformanceContext``).
    public init(
        id: RuleID, family: RuleFamily, evidence: RuleEvidence = .forced, statement: String, why: String,
        catches: String,
        requires: SchedulerTraits = [], excludes: SchedulerTraits = [], requiresOneOf: SchedulerTraits = [],
        deadline: Duration = RuleDeadline.standard,
        check: @escaping @Sendable (ConformanceContext) throws -> String
    ) {
        self.init(
            id: id, family: family, evidence: evidence, statement: statement, why: why, catches: catches,
            about: ConformanceBackend.self,
            gate: .schedulers(requires: requires, excludes: excludes, requiresOneOf: requiresOneOf),
            deadline: deadline, check: check)
    }
}
