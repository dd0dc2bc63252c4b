/// Every rule of the kit, of every kind of subject, in report order (`Docs/Rules.md` lists them): the one registry.
/// Each kind's folder has its rules, one file per family; ``RuleID/all`` and the families' order are read from here.
public enum ConformanceRules {
    public static let all: [ConformanceRule] =
        SchedulerRules.all + ClockRules.all + ExecutorSubjectRules.all + GlobalExecutorRules.all + ExplorerRules.all

    /// The rule with this id, of any family.
    public static func rule(_ id: RuleID) -> ConformanceRule? { byID[id] }

    /// The rules about one kind of subject, in report order: the rows of its matrix. A rule about another kind is no
    /// cell of a subject's at all (``IsolatedRun``, the reports); evaluated on it anyway, it is n/a.
    public static func rules(for kind: SubjectKind) -> [ConformanceRule] {
        all.filter { $0.kind == kind }
    }

    /// The rules about the kind of subject `subject` is, in report order.
    public static func rules(for subject: some ConformanceSubject) -> [ConformanceRule] {
        rules(for: subject.kind)
    }

    /// The families of `rules`, in the order the rules first name them.
    static func families(of rules: [ConformanceRule]) -> [RuleFamily] {
        var seen = Set<RuleFamily>()
        return rules.map(\.family).filter { seen.insert($0).inserted }
    }

    /// The kinds of subject of `rules`, in the order the rules first name them.
    static func kinds(of rules: [ConformanceRule]) -> [SubjectKind] {
        var seen = Set<SubjectKind>()
        return rules.map(\.kind).filter { seen.insert($0).inserted }
    }

    private static let byID: [RuleID: ConformanceRule] = Dictionary(
        all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
}
