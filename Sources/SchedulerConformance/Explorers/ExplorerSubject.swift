import SchedulerExplorer
import SchedulerKit

/// How an explorer chooses its schedules, as the EX rules' gates read it.
public enum ExplorerStrategyKind: String, Sendable, CaseIterable {
    /// Each schedule drawn from a seed of its own, which replays it (random, PCT).
    case seeded
    /// Schedules enumerated within a bound, each replayed by its choices (exhaustive).
    case systematic
}

/// An explorer of interleavings, judged by the EX rules on bodies of the kit's own, as a test would call it: what a
/// pass, a failure, its replay and its trace must mean whatever the body. The kit judges SchedulerExplorer strategy
/// by strategy (``builtIn``); another explorer is a subject where it reports as SchedulerExplorer does
/// (`ExplorationReport`), through the closures of ``ExplorerUnderTest``.
public struct ExplorerSubject: ConformanceSubject {
    public let name: String
    public let summary: String
    public let declarations: [RuleID: String]
    public let expectedFailures: [RuleID: String]
    let strategyKind: ExplorerStrategyKind
    let make: @Sendable () -> ExplorerUnderTest
    /// The rules this subject did not finish in this process (their deadlines shorten the others').
    public let hangs = HangRecord()

    public init(
        name: String, summary: String = "", declarations: [RuleID: String] = [:],
        expectedFailures: [RuleID: String] = [:], make: @escaping @Sendable () -> ExplorerUnderTest
    ) {
        self.name = name
        self.summary = summary
        self.declarations = declarations
        self.expectedFailures = expectedFailures
        self.make = make
        // What the gates read is the explorer's own answer; making one costs two closures.
        self.strategyKind = make().strategyKind
    }

    /// The explorer kind of subject: its rules select by how an explorer names a schedule (a seed, or choices).
    public static let kind = SubjectKind(
        name: "explorer", plural: "explorers", noun: "explorer", inside: "an exploration",
        matrixTitle: "Matrix: explorers (async code run under many schedules)",
        matrixIntro:
            "An explorer of interleavings as a subject (`ExplorerSubject`): SchedulerExplorer strategy by strategy, judged on bodies of the kit's own, as a test would run them.",
        rerun: "await subject.evaluate(RULE)")

    public var claims: ExplorerStrategyKind { strategyKind }

    /// A fresh explorer for the check.
    public func withFreshTarget(_ progress: CheckProgress, _ check: (ExplorerUnderTest) throws -> String) throws
        -> String
    {
        try check(make())
    }

    /// Runs `rule` on a fresh explorer; the check runs on a thread of the kit's while this task waits.
    public func evaluate(_ rule: ConformanceRule) async -> RuleResult { await judgeFromTask(rule) }
}

/// What an explorer rule works on: an explorer's two calls, as a test makes them, and what they report.
public struct ExplorerUnderTest: Sendable {
    public typealias Body = @Sendable (Exploration) async throws -> Void

    /// Which schedule to run again: a seeded explorer's seed, or a systematic one's choices.
    public enum Schedule: Sendable, Equatable {
        case seed(UInt64)
        case choices([Int])
    }

    /// What an exploration reports, as the EX rules read it.
    public struct Outcome: Sendable {
        /// The first schedule that failed: which, how to run it again, why, and its trace, one job per line with
        /// its task as `t` and a number (`     12 t3 task  (2 of 3 ready)`), a task's name in quotes after it.
        public struct Failure: Sendable {
            public var schedule: Int
            public var replay: Schedule
            public var reason: String
            public var trace: String
            public init(schedule: Int, replay: Schedule, reason: String, trace: String) {
                self.schedule = schedule
                self.replay = replay
                self.reason = reason
                self.trace = trace
            }
        }
        /// Schedules run.
        public var schedules: Int
        public var failure: Failure?
        /// Tasks a schedule still had ready to run when it stopped, by name.
        public var leftReady: [String]
        public init(schedules: Int, failure: Failure?, leftReady: [String]) {
            self.schedules = schedules
            self.failure = failure
            self.leftReady = leftReady
        }
    }

    public let strategyKind: ExplorerStrategyKind
    /// Runs up to `schedules` schedules of `body`, the first drawn from `seed`, and stops at the first failure.
    public let explore:
        @Sendable (_ schedules: Int, _ seed: UInt64, _ settings: ExplorationSettings, _ body: @escaping Body) async ->
            Outcome
    /// Runs one schedule of `body` again, as a failure names it.
    public let replay:
        @Sendable (_ schedule: Schedule, _ settings: ExplorationSettings, _ body: @escaping Body) async ->
            Outcome

    /// `explore(schedules, seed, settings, body)` runs up to that many schedules and stops at the first failure;
    /// `replay(schedule, settings, body)` runs one schedule again, as its failure names it.
    public init(
        strategyKind: ExplorerStrategyKind,
        explore: @escaping @Sendable (Int, UInt64, ExplorationSettings, @escaping Body) async -> Outcome,
        replay: @escaping @Sendable (Schedule, ExplorationSettings, @escaping Body) async -> Outcome
    ) {
        self.strategyKind = strategyKind
        self.explore = explore
        self.replay = replay
    }

    /// SchedulerExplorer's `explore` and `replay` with `strategy`.
    public static func schedulerExplorer(_ strategy: ExplorationStrategy) -> ExplorerUnderTest {
        let kind: ExplorerStrategyKind = strategy.isSystematic ? .systematic : .seeded
        return ExplorerUnderTest(
            strategyKind: kind,
            explore: { schedules, seed, settings, body in
                Outcome(
                    await SchedulerExplorer.explore(
                        schedules: schedules, strategy: strategy, seed: seed, settings: settings, body), kind)
            },
            replay: { schedule, settings, body in
                switch schedule {
                case .seed(let seed):
                    Outcome(
                        await SchedulerExplorer.replay(seed: seed, strategy: strategy, settings: settings, body), kind)
                case .choices(let choices):
                    Outcome(
                        await SchedulerExplorer.replay(choices: choices, strategy: strategy, settings: settings, body),
                        kind)
                }
            })
    }
}

extension ExplorerUnderTest.Outcome {
    /// SchedulerExplorer's report, as the rules read it.
    init(_ report: ExplorationReport, _ kind: ExplorerStrategyKind) {
        self.init(
            schedules: report.schedules,
            failure: report.failure.map { failure in
                Failure(
                    schedule: failure.schedule,
                    replay: kind == .seeded ? .seed(failure.seed) : .choices(failure.choices),
                    reason: failure.reason, trace: failure.trace)
            },
            leftReady: report.tasksLeftRunning.tasks.filter { $0.hasSuffix("ready to run") })
    }
}

extension ExplorerSubject {
    /// SchedulerExplorer's strategies that explore (first in first out runs one schedule, `TestScheduler`'s order).
    public static let builtIn: [ExplorerSubject] = [
        schedulerExplorer(.random, summary: "SchedulerExplorer's random strategy: each job drawn uniformly"),
        schedulerExplorer(
            .pct(depth: 2, steps: 50), summary: "SchedulerExplorer's PCT: random task priorities, one change point"),
        schedulerExplorer(
            .exhaustive(preemptions: 2),
            summary: "SchedulerExplorer's exhaustive strategy: every schedule with at most 2 preemptions"),
    ]

    static func schedulerExplorer(_ strategy: ExplorationStrategy, summary: String) -> ExplorerSubject {
        ExplorerSubject(name: "SchedulerExplorer (\(strategy))", summary: summary) {
            .schedulerExplorer(strategy)
        }
    }
}
