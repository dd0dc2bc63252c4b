import SchedulerKit

/// An executor the kit can judge: any `SerialExecutor` (as an actor's executor) or `TaskExecutor` (as a task's
/// preference), ours or anyone's.
///
/// The rules (``ExecutorSubjectRules``) select by ``ExecutorKind``; a promise SE-0392 leaves to the executor, such as
/// FIFO, is declared with its reason when the executor does not make it.
///
/// ```swift
/// let subject = ExecutorSubject(name: "MyExecutor") { ExecutorUnderTest(serial: MyExecutor()) }
/// for rule in ExecutorSubjectRules.all { let result = await subject.evaluate(rule) }
/// ```
public struct ExecutorSubject: ConformanceSubject {
    public let name: String
    /// One line: what the executor is.
    public let summary: String
    /// Rule id to the reason this executor does not keep it.
    public let declarations: [RuleID: String]
    /// Rule id to why this executor fails it by its design: the check still runs and the report shows its evidence,
    /// but the failure is no regression (a peer's executor that works as its authors meant).
    public let expectedFailures: [RuleID: String]
    /// Makes a fresh executor for one check.
    public let make: @Sendable () -> ExecutorUnderTest
    /// The rules this subject did not finish in this process (their deadlines shorten the others').
    public let hangs = HangRecord()
    /// What its executors are, read once from one it makes (making one may start threads).
    private let kinds = Locked<Set<ExecutorKind>?>(nil)

    public init(
        name: String, summary: String = "", declarations: [RuleID: String] = [:],
        expectedFailures: [RuleID: String] = [:], make: @escaping @Sendable () -> ExecutorUnderTest
    ) {
        self.name = name
        self.summary = summary
        self.declarations = declarations
        self.expectedFailures = expectedFailures
        self.make = make
    }

    /// The executor kind of subject: its rules select by how an executor is used (an actor's, a task's preference).
    public static let kind = SubjectKind(
        name: "executor", plural: "executors", noun: "executor", inside: "the executor, or waits for one of its jobs",
        matrixTitle: "Matrix: executors (any SerialExecutor or TaskExecutor)",
        matrixIntro:
            "Any Swift executor as a subject (`ExecutorSubject`): a `SerialExecutor` is judged as the executor of actors of the kit's, a `TaskExecutor` as the preference of its tasks.",
        rerun: "await subject.evaluate(RULE)")

    /// What the executors this subject makes are.
    public var claims: Set<ExecutorKind> {
        kinds.withLock { kinds in
            if let kinds { return kinds }
            let executor = make()
            defer { executor.tearDown() }
            kinds = executor.kinds
            return executor.kinds
        }
    }

    /// A fresh executor for the check, torn down only when the check returns: an abandoned check may still be using
    /// it.
    public func withFreshTarget(_ progress: CheckProgress, _ check: (ExecutorUnderTest) throws -> String) throws
        -> String
    {
        var executor = make()
        executor.another = make
        defer { executor.tearDown() }
        return try check(executor)
    }

    /// Runs `rule` on a fresh executor, and tears it down after (unless the check did not finish: then it is left
    /// to the abandoned check). The check runs on a thread of the kit's while this task waits.
    public func evaluate(_ rule: ConformanceRule) async -> RuleResult { await judgeFromTask(rule) }
}

/// How an executor is used.
public enum ExecutorKind: String, Sendable, CaseIterable {
    /// An actor's `SerialExecutor`.
    case serial
    /// A task's `TaskExecutor` preference.
    case task
}

/// What the rules see of an executor.
public struct ExecutorUnderTest: Sendable {
    let serial: (any SerialExecutor)?
    let task: (any TaskExecutor)?
    /// True on a thread that is running one of the executor's jobs; nil when the executor cannot tell (X5 then checks
    /// only what it can see without it).
    let isRunningJob: (@Sendable () -> Bool)?
    /// Called when the check is done: shut down the threads behind the executor.
    let tearDown: @Sendable () -> Void
    /// Makes another executor of the same subject (set by the runner), for the checks that tell two instances apart.
    var another: (@Sendable () -> ExecutorUnderTest)?

    public init(serial: any SerialExecutor, tearDown: @escaping @Sendable () -> Void = {}) {
        self.serial = serial
        self.task = nil
        self.isRunningJob = nil
        self.tearDown = tearDown
    }

    /// A task executor; `isRunningJob`, where the executor can tell, says whether the calling thread is running one
    /// of its jobs (for a scheduler's, `Schedulers.current === scheduler`).
    public init(
        task: any TaskExecutor, isRunningJob: (@Sendable () -> Bool)? = nil,
        tearDown: @escaping @Sendable () -> Void = {}
    ) {
        self.serial = nil
        self.task = task
        self.isRunningJob = isRunningJob
        self.tearDown = tearDown
    }

    public var kinds: Set<ExecutorKind> {
        Set([serial.map { _ in ExecutorKind.serial }, task.map { _ in ExecutorKind.task }].compactMap { $0 })
    }
}

/// An actor whose jobs run on the executor under test; two of them share it in X1.
actor ActorOnExecutor {
    nonisolated let executor: any SerialExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(_ executor: any SerialExecutor) { self.executor = executor }

    /// Runs `body` as a job of this actor.
    func run<R: Sendable>(_ body: @Sendable (isolated ActorOnExecutor) -> R) -> R { body(self) }
}
