/// Every rule of the kit, in report order (`Docs/Rules.md` lists them).
public enum ConformanceRules {
    public static let all: [ConformanceRule] =
        SerialRules.all + CancellationRules.all + CurrentSchedulerRules.all + InlinePathRules.all + RecursionRules.all
        + TimeRules.all + VirtualTimeRules.all + LifecycleRules.all + SchedulerAsExecutorRules.all
        + ParallelismRules.all

    public static func rule(_ id: RuleID) -> ConformanceRule? { all.first { $0.id == id } }
}
