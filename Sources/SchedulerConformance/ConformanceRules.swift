/// Every rule of the kit, in report order (BRIEF §4 plus S7 and T7).
public enum ConformanceRules {
    public static let all: [ConformanceRule] =
        SerialRules.all + CancellationRules.all + CurrentSchedulerRules.all + RecursionRules.all
        + TimeRules.all + VirtualTimeRules.all + LifecycleRules.all + ExecutorRules.all

    public static func rule(_ id: String) -> ConformanceRule? { all.first { $0.id == id } }
}
