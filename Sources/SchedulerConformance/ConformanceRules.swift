/// Every rule of the kit, of every family and every kind of subject, in report order (`Docs/Rules.md` lists them):
/// the one registry. A family's own list (``ClockRules/all``, ``ExecutorSubjectRules/all``) is a part of it.
public enum ConformanceRules {
    public static let all: [ConformanceRule] =
        SerialRules.all + CancellationRules.all + CurrentSchedulerRules.all + InlinePathRules.all + RecursionRules.all
        + TimeRules.all + combineRules + VirtualTimeRules.all + LifecycleRules.all + SchedulerAsExecutorRules.all
        + ParallelismRules.all + ProgressRules.all + LeftBehindRules.all + ProgramRules.all
        + ClockRules.all + ExecutorSubjectRules.all + GlobalExecutorRules.all + ExplorerRules.all

    /// T8 judges SchedulerKit's Combine adapter, which exists only where the package is built with its Combine trait.
    #if Combine
        private static let combineRules = TimeRules.combine
    #else
        private static let combineRules: [ConformanceRule] = []
    #endif

    /// The rule with this id, of any family.
    public static func rule(_ id: RuleID) -> ConformanceRule? { all.first { $0.id == id } }

    /// The rules about one kind of subject: the rows of its matrix. A rule about another kind is no cell of a
    /// subject's at all (``IsolatedRun``, the reports); evaluated on it anyway, it is n/a.
    public static func rules(for category: SubjectCategory) -> [ConformanceRule] {
        all.filter { $0.category == category }
    }

    /// The rules about the kind of subject `subject` is, in report order.
    public static func rules(for subject: some ConformanceSubject) -> [ConformanceRule] {
        rules(for: subject.kind.category)
    }
}
