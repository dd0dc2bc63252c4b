import SchedulerKit

/// Which subjects a rule applies to: one kind of subject, and what a subject of that kind must be. The one selection
/// of the engine: a rule whose gate does not admit a subject is n/a on it, never failed.
public enum RuleGate: Sendable, CustomStringConvertible {
    /// Schedulers with all of `requires`, none of `excludes` and (unless it is empty) one of `requiresOneOf`. The E
    /// rules need work that runs later, which an asynchronous scheduler and a virtual-time one each give in its own way.
    case schedulers(requires: SchedulerTraits, excludes: SchedulerTraits, requiresOneOf: SchedulerTraits)
    /// Clocks of any of these kinds.
    case clocks(Set<ClockKind>)
    /// Executors used in any of these ways.
    case executors(Set<ExecutorKind>)
    /// The process's global executor.
    case globalExecutors
    /// Explorers whose strategy is of any of these kinds.
    case explorers(Set<ExplorerStrategyKind>)

    public var category: SubjectCategory {
        switch self {
        case .schedulers: .scheduler
        case .clocks: .clock
        case .executors: .executor
        case .globalExecutors: .globalExecutor
        case .explorers: .explorer
        }
    }

    /// Whether a subject of `kind` can hold what the rule's check needs.
    public func admits(_ kind: SubjectKind) -> Bool {
        switch (self, kind) {
        case (.schedulers(let requires, let excludes, let requiresOneOf), .scheduler(let traits)):
            traits.isSuperset(of: requires) && traits.isDisjoint(with: excludes)
                && (requiresOneOf.isEmpty || !traits.isDisjoint(with: requiresOneOf))
        case (.clocks(let kinds), .clock(let clock)): kinds.contains(clock)
        case (.executors(let kinds), .executor(let uses)): !kinds.isDisjoint(with: uses)
        case (.globalExecutors, .globalExecutor): true
        case (.explorers(let strategies), .explorer(let strategy)): strategies.contains(strategy)
        default: false
        }
    }

    /// The scheduler traits of a scheduler rule's gate; empty for another kind.
    var schedulerTraits: (requires: SchedulerTraits, excludes: SchedulerTraits, requiresOneOf: SchedulerTraits) {
        if case .schedulers(let requires, let excludes, let requiresOneOf) = self {
            return (requires, excludes, requiresOneOf)
        }
        return ([], [], [])
    }

    /// In words: "needs serial, timed; not on virtual-time", "every backend", "every clock", "virtual clocks",
    /// "serial executors".
    public var description: String {
        switch self {
        case .schedulers(let requires, let excludes, let requiresOneOf):
            var needs = requires.isEmpty ? [] : ["needs \(requires)"]
            if !requiresOneOf.isEmpty {
                needs.append("needs one of \(requiresOneOf.description.replacingOccurrences(of: ", ", with: " or "))")
            }
            if !excludes.isEmpty { needs.append("not on \(excludes)") }
            return needs.isEmpty ? "every backend" : needs.joined(separator: "; ")
        case .clocks(let kinds):
            return kinds.count == ClockKind.allCases.count
                ? "every clock" : kinds.map { "\($0.rawValue) clocks" }.sorted().joined(separator: " or ")
        case .executors(let kinds):
            return kinds.count == ExecutorKind.allCases.count
                ? "every executor" : kinds.map { "\($0.rawValue) executors" }.sorted().joined(separator: " or ")
        case .globalExecutors:
            return "every global executor"
        case .explorers(let strategies):
            return strategies.count == ExplorerStrategyKind.allCases.count
                ? "every explorer" : strategies.map { "\($0.rawValue) explorers" }.sorted().joined(separator: " or ")
        }
    }
}

/// A rule's check, by the kind of subject it works on: what is made fresh for it is the engine's to make
/// (``RuleRunner``).
enum RuleCheck: Sendable {
    /// Blocking, on the kit's check thread, with a session of the scheduler and the kit's waits.
    case scheduler(@Sendable (ConformanceContext) throws -> String)
    /// A task, on a fresh clock.
    case clock(@Sendable (ClockUnderTest) async throws -> String)
    /// A task, on a fresh executor, torn down after.
    case executor(@Sendable (ExecutorUnderTest) async throws -> String)
    /// Blocking, on the kit's check thread, in a process whose global executor is the subject: a check that waited
    /// as a task would need the executor under test to run it.
    case globalExecutor(@Sendable (GlobalExecutorUnderTest) throws -> String)
    /// A task, exploring bodies of the rule's own on a fresh explorer.
    case explorer(@Sendable (ExplorerUnderTest) async throws -> String)
}
